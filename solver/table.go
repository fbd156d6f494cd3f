package solver

import (
	"math/bits"

	"github.com/konanezero/konane/rules"
)

// table is the transposition table: a fixed array of buckets of three
// entries, each bucket one 64-byte cache line. Every entry holds a solved
// position keyed exactly by both bitboards, the board and the side to
// move, so a hit is never a false positive, whatever the index
// collisions.
//
// Replacement: slots 0 and 1 keep the most expensive results seen (by the
// size of the subtree that proved them); slot 2 takes whatever they
// refuse or displace, so recent cheap results are kept for a while too.
type table struct {
	buckets []bucket
	mask    uint64 // number of buckets - 1
}

const ways = 3

// bucket holds three entries in one cache line (Go aligns large
// allocations to pages, so the slice's buckets each fill one line).
type bucket struct {
	black, white [ways]rules.Bitboard
	meta         [ways]meta
	_            uint32
}

// meta packs the rest of an entry: bits 0-9 the key (valid<<9 | board<<1
// | turn, where board is the position's Size, the shape code of its board;
// 0 for an empty slot), bit 10 the result (the side to move wins), bits
// 11-17 the work (bit length of the node count of the proof).
type meta uint32

func newMeta(p rules.Position, win bool, nodes uint64) meta {
	m := meta(entryKey(p)) | meta(bits.Len64(nodes))<<11
	if win {
		m |= 1 << 10
	}
	return m
}

func (m meta) key() uint16 { return uint16(m) & 0x3ff }
func (m meta) win() bool   { return m&(1<<10) != 0 }
func (m meta) work() uint8 { return uint8(m>>11) & 0x7f }

const validKey = 1 << 9

func entryKey(p rules.Position) uint16 {
	return validKey | uint16(p.Size)<<1 | uint16(p.Turn)
}

// newTable returns a table of at most maxEntries entries: the largest
// power of two of buckets that fits, at least one.
func newTable(maxEntries int) *table {
	n := 1
	for 2*n*ways <= maxEntries {
		n *= 2
	}
	return &table{buckets: make([]bucket, n), mask: uint64(n - 1)}
}

// bucket returns the bucket of a position whose Hash is h.
func (t *table) bucket(h uint64) *bucket { return &t.buckets[h&t.mask] }

// slot returns the index of p in b, or -1. Each entry is compared in one
// test of its three keys together: most probes miss, and then the branch
// is always predicted right (testing the keys one by one, the board's
// key, which most entries share, made the branches guesses).
func (b *bucket) slot(p rules.Position) int {
	k := entryKey(p)
	for i := range ways {
		if (b.black[i]^p.Black)|(b.white[i]^p.White)|rules.Bitboard(b.meta[i].key()^k) == 0 {
			return i
		}
	}
	return -1
}

// probe returns the stored result of p, if any; h is p.Hash() (the
// caller often has it already).
func (t *table) probe(p rules.Position, h uint64) (m meta, ok bool) {
	b := t.bucket(h)
	if i := b.slot(p); i >= 0 {
		return b.meta[i], true
	}
	return 0, false
}

// store records that the side to move in p wins (win) or loses, proved
// with a search of nodes nodes; h is p.Hash().
func (t *table) store(p rules.Position, h uint64, win bool, nodes uint64) {
	b := t.bucket(h)
	m := newMeta(p, win, nodes)
	if i := b.slot(p); i >= 0 {
		b.meta[i] = m
		return
	}
	keep := 0 // the cheaper of slots 0 and 1
	if b.meta[1].work() < b.meta[0].work() {
		keep = 1
	}
	if m.work() >= b.meta[keep].work() {
		b.black[2], b.white[2], b.meta[2] = b.black[keep], b.white[keep], b.meta[keep]
		b.black[keep], b.white[keep], b.meta[keep] = p.Black, p.White, m
		return
	}
	b.black[2], b.white[2], b.meta[2] = p.Black, p.White, m
}

// clear empties every entry.
func (t *table) clear() { clear(t.buckets) }
