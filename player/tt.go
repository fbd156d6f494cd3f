package player

// DefaultPVSTableBits is the log2 of the number of transposition table
// entries of a PVS player (16 bytes each: 2^21 entries, 32 MiB).
const DefaultPVSTableBits = 21

// DefaultTTBits is the log2 of the number of transposition table entries
// of an alpha-beta player (16 bytes each: 4 MiB).
const DefaultTTBits = 18

// provenDepth is the depth stored with a proven result: it answers a
// search of any depth.
const provenDepth = 127

// ttFlag is the kind of bound a table entry's score is.
type ttFlag uint8

const (
	ttExact ttFlag = iota + 1
	ttLower        // the score is a lower bound (a beta cutoff)
	ttUpper        // the score is an upper bound (no move raised alpha)
)

// boundOf is the kind of bound a node's best score is, searched in the
// window (alpha0, beta).
func boundOf(best, alpha0, beta int32) ttFlag {
	switch {
	case best >= beta:
		return ttLower
	case best <= alpha0:
		return ttUpper
	}
	return ttExact
}

// ttEntry is one transposition table entry of moves M (rules.Move or
// rules.WideMove): 16 bytes.
type ttEntry[M comparable] struct {
	key   uint64 // the position's Hash (side to move included)
	score int32  // proven scores relative to this position (scoreToTT)
	move  M
	depth int8
	flag  ttFlag // low 2 bits; the search's generation in the 6 above
}

func (e *ttEntry[M]) bound() ttFlag { return e.flag & 3 }
func (e *ttEntry[M]) gen() uint8    { return uint8(e.flag) >> 2 }

// table is the engine's transposition table, in one of two schemes:
//
//   - buckets of two entries (the PVS engine's): the first entry of a
//     bucket keeps the deepest result (depth-preferred, unless it comes
//     from an older search), the second always takes the newest one; a
//     proven result is kept at every depth, and an upper bound keeps the
//     move an earlier result of the position stored.
//   - one entry per slot, always replaced (the plain alpha-beta engine's).
//
// Its moves are M, none the value of "no move".
type table[M comparable] struct {
	entries []ttEntry[M]
	mask    uint64 // of the bucket (or slot) index
	gen     uint8  // the current search's generation, 0..63
	single  bool   // one entry per slot, always replaced
	none    M
}

// newTable returns a table of 2^bits entries in buckets of two, or of
// single entries, whose moves are M and none "no move".
func newTable[M comparable](bits int, single bool, none M) table[M] {
	n := 1 << bits
	t := table[M]{entries: make([]ttEntry[M], n), single: single, mask: uint64(n/2 - 1), none: none}
	if single {
		t.mask = uint64(n - 1)
	}
	return t
}

// bucket is the bucket (or slot) of key.
func (t *table[M]) bucket(key uint64) []ttEntry[M] {
	if t.single {
		return t.entries[key&t.mask : key&t.mask+1]
	}
	return t.entries[2*(key&t.mask) : 2*(key&t.mask)+2]
}

// probe returns the entry of key, or nil.
func (t *table[M]) probe(key uint64) *ttEntry[M] {
	for i, b := 0, t.bucket(key); i < len(b); i++ {
		if b[i].key == key {
			return &b[i]
		}
	}
	return nil
}

// store records a search result of the position key at ply: its score of
// the kind flag, found searching depth plies, and its best move.
func (t *table[M]) store(key uint64, score int32, m M, depth, ply int, flag ttFlag) {
	b := t.bucket(key)
	if t.single {
		b[0] = ttEntry[M]{key: key, score: scoreToTT(score, ply), move: m, depth: int8(depth), flag: flag}
		return
	}
	// A proven result holds at every depth.
	switch {
	case score >= winBound && flag != ttUpper, score <= -winBound && flag != ttLower:
		depth = provenDepth
	}
	if flag == ttUpper {
		m = t.none // no move known to be best
	}
	e := ttEntry[M]{key: key, score: scoreToTT(score, ply), move: m, depth: int8(depth), flag: flag | ttFlag(t.gen<<2)}
	switch {
	case b[0].key == key:
		if m == t.none {
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
func (t *table[M]) newSearch() { t.gen = (t.gen + 1) & 63 }

// Proven scores are stored relative to the stored position, not the root,
// so that an entry stays right when reached at another ply.
func scoreToTT(s int32, ply int) int32 {
	switch {
	case s >= winBound:
		return s + int32(ply)
	case s <= -winBound:
		return s - int32(ply)
	}
	return s
}

func scoreFromTT(s int32, ply int) int32 {
	switch {
	case s >= winBound:
		return s - int32(ply)
	case s <= -winBound:
		return s + int32(ply)
	}
	return s
}
