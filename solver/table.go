package solver

import (
	"math/bits"

	"github.com/konanezero/konane/rules"
)

// table is the transposition table: a fixed array of two-entry buckets.
// Every entry holds a solved position, keyed exactly by both bitboards,
// the board size and the side to move, so a hit is never a false
// positive, whatever the index collisions.
//
// Replacement: slot 0 of a bucket keeps the more expensive of the results
// competing for it (measured by the size of the subtree that proved it),
// slot 1 takes whatever slot 0 refuses or displaces.
type table struct {
	entries []entry
	mask    uint64 // bucket index mask (number of buckets - 1)
}

// entry is one solved position (24 bytes).
type entry struct {
	black, white rules.Bitboard
	key          uint8 // valid<<7 | size<<1 | turn; 0 = empty slot
	win          bool  // the side to move wins
	work         uint8 // ≈ log2 of the nodes searched to prove the result
	from, to     rules.Square
}

const validKey = 1 << 7

func entryKey(p rules.Position) uint8 { return validKey | p.Size<<1 | uint8(p.Turn) }

// newTable returns a table of at least minEntries entries (rounded up to a
// power of two, at least one bucket).
func newTable(minEntries int) *table {
	buckets := 1
	for buckets*2 < minEntries {
		buckets *= 2
	}
	return &table{entries: make([]entry, 2*buckets), mask: uint64(buckets - 1)}
}

func (t *table) bucket(p rules.Position) []entry {
	i := 2 * (p.Hash() & t.mask)
	return t.entries[i : i+2 : i+2]
}

// probe returns the entry of p, or nil.
func (t *table) probe(p rules.Position) *entry {
	b := t.bucket(p)
	k := entryKey(p)
	for i := range b {
		e := &b[i]
		if e.key == k && e.black == p.Black && e.white == p.White {
			return e
		}
	}
	return nil
}

// store records that the side to move in p wins (win) or loses, proved
// with a search of nodes nodes; best is the winning move (rules.NoMove
// for a loss or when unknown).
func (t *table) store(p rules.Position, win bool, best rules.Move, nodes uint64) {
	n := entry{black: p.Black, white: p.White, key: entryKey(p), win: win,
		work: uint8(bits.Len64(nodes)), from: best.From, to: best.To}
	b := t.bucket(p)
	for i := range b {
		if b[i].key == n.key && b[i].black == n.black && b[i].white == n.white {
			b[i] = n
			return
		}
	}
	if n.work >= b[0].work {
		b[1] = b[0]
		b[0] = n
		return
	}
	b[1] = n
}

// clear empties every entry.
func (t *table) clear() { clear(t.entries) }

// used counts the occupied entries.
func (t *table) used() int {
	n := 0
	for i := range t.entries {
		if t.entries[i].key != 0 {
			n++
		}
	}
	return n
}
