package player

import "github.com/konanezero/konane/rules"

// DefaultPVSTableBits is the log2 of the number of transposition table
// entries of a PVS player (16 bytes each: 2^21 entries, 32 MiB).
const DefaultPVSTableBits = 21

// provenDepth is the depth stored with a proven result: it answers a
// search of any depth.
const provenDepth = 127

// pvsEntry is one transposition table entry: 16 bytes.
type pvsEntry struct {
	key   uint64 // the position's rules.Position.Hash (side to move included)
	score int32  // proven scores relative to this position (scoreToTT)
	move  rules.Move
	depth int8
	flag  ttFlag // low 2 bits; the search's generation in the 6 above
}

func (e *pvsEntry) bound() ttFlag { return e.flag & 3 }
func (e *pvsEntry) gen() uint8    { return uint8(e.flag) >> 2 }

// pvsTable is a transposition table of two-entry buckets: the first entry
// of a bucket keeps the deepest result (depth-preferred, unless it comes
// from an older search), the second always takes the newest one.
type pvsTable struct {
	entries []pvsEntry
	mask    uint64 // of the bucket index
	gen     uint8  // the current search's generation, 0..63
}

func newPVSTable(bits int) pvsTable {
	n := 1 << bits
	return pvsTable{entries: make([]pvsEntry, n), mask: uint64(n/2 - 1)}
}

// probe returns the entry of key, or nil.
func (t *pvsTable) probe(key uint64) *pvsEntry {
	b := t.entries[2*(key&t.mask):]
	if b[0].key == key {
		return &b[0]
	}
	if b[1].key == key {
		return &b[1]
	}
	return nil
}

// store records a search result of the position key at ply.
func (t *pvsTable) store(key uint64, score int32, m rules.Move, depth, ply int, flag ttFlag) {
	// A proven result holds at every depth.
	switch {
	case score >= winBound && flag != ttUpper, score <= -winBound && flag != ttLower:
		depth = provenDepth
	}
	e := pvsEntry{key: key, score: scoreToTT(score, ply), move: m, depth: int8(depth), flag: flag | ttFlag(t.gen<<2)}
	b := t.entries[2*(key&t.mask):]
	switch {
	case b[0].key == key:
		if m == rules.NoMove {
			e.move = b[0].move
		}
		if int(b[0].depth) <= depth || b[0].gen() != t.gen || flag == ttExact {
			b[0] = e
		}
	case int(b[0].depth) <= depth || b[0].gen() != t.gen:
		if b[0].key != 0 && b[0].gen() == t.gen {
			b[1] = b[0] // keep the displaced result in the other entry
		}
		b[0] = e
	default:
		b[1] = e
	}
}

// newSearch starts a generation: entries of older searches become the
// first to be replaced.
func (t *pvsTable) newSearch() { t.gen = (t.gen + 1) & 63 }
