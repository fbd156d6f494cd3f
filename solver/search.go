package solver

import (
	"math/bits"

	"github.com/konanezero/konane/rules"
)

// The search is a boolean negamax: the side to move wins when some move
// leads to a position that the opponent loses. It stops at the first
// winning move, so the order of the moves decides its speed:
//
//  1. a move that leaves the opponent without a move wins at once;
//  2. a move whose resulting position the table already knows as lost for
//     the opponent wins at once (enhanced transposition cutoff), and one
//     known as won for the opponent is skipped;
//  3. the other moves are tried in order of the opponent's replies, fewest
//     first, and among those of the mover's own follow-ups, most first.

// ply is the scratch space of one search depth, kept between searches so
// that the search does not allocate.
type ply struct {
	moves [rules.MaxMoves]rules.Move
	kids  [rules.MaxMoves]child
	// order holds the kids to search, each as its ordering score (lower
	// is tried first) above its index in kids (the low 16 bits): sorting
	// these keys sorts the kids by score, ties in the order of the moves.
	order [rules.MaxMoves]uint64
}

// child is the position a move leads to, with the hash of its table key.
type child struct {
	pos  rules.Position
	hash uint64
}

// orderKey returns the key of kid i of ordering score score in ply.order.
func orderKey(score, i int) uint64 { return uint64(score+scoreBias)<<16 | uint64(i) }

// scoreBias makes every ordering score positive (the least is -MaxMoves).
const scoreBias = 1 << 20

func (s *Solver) ply(depth int) *ply {
	for len(s.plies) <= depth {
		s.plies = append(s.plies, new(ply))
	}
	return s.plies[depth]
}

// key returns the position under which p is stored in the table. During
// the removals and right after them, when few positions are symmetric
// images of one another, it is the least of p's 8 symmetric images, so
// that symmetric openings are solved once. Deeper positions are stored as
// they are: there, finding the canonical image costs more than it saves.
func key(p rules.Position) rules.Position {
	if bits.OnesCount64(p.Empty()) > 2 {
		return p
	}
	return p.Canonical()
}

// win reports whether the side to move in p wins. depth indexes the
// scratch space. When the context ends it sets s.aborted and returns
// false; callers must check s.aborted before trusting or storing a result.
func (s *Solver) win(p rules.Position, depth int) bool {
	k := key(p)
	return s.search(p, k, k.Hash(), false, depth)
}

// search is win for p, whose table key is k and k.Hash() h. absent
// reports that the table does not hold k: the caller has just probed it
// and stored nothing since, so that a probe would miss again. (The
// search visits the same nodes and counts the same hits either way.)
func (s *Solver) search(p, k rules.Position, h uint64, absent bool, depth int) bool {
	s.stats.Nodes++
	if s.stats.Nodes&(checkEvery-1) == 0 && s.ctx.Err() != nil || s.stats.Nodes == s.limit {
		s.aborted = true
	}
	if s.aborted {
		return false
	}
	if !absent {
		if e, ok := s.tt.probe(k, h); ok {
			s.stats.Hits++
			return e.win()
		}
	}
	start := s.stats.Nodes
	pl := s.ply(depth)
	moves := p.LegalMoves(pl.moves[:0])
	// The children of a position of the jumping phase are of that phase
	// too, and then one pass over the board counts the replies and the
	// mover's follow-ups, and each child (more than 2 squares empty) is
	// its own table key.
	jumping := p.Phase() == rules.Jumping
	order := pl.order[:0]
	for i, m := range moves {
		c := p.Play(m)
		var replies, mobility int
		if jumping {
			replies, mobility = c.JumpCounts()
		} else {
			replies = c.CountMoves()
		}
		if replies == 0 {
			s.record(k, h, true, start)
			return true
		}
		kc := c
		if !jumping {
			kc = key(c)
		}
		hc := kc.Hash()
		if e, ok := s.tt.probe(kc, hc); ok {
			s.stats.Hits++
			if !e.win() {
				s.record(k, h, true, start)
				return true
			}
			continue // the opponent wins after m: m cannot win
		}
		if !jumping && c.Phase() == rules.Jumping {
			mobility = c.Mobility(p.Turn)
		}
		pl.kids[i] = child{pos: c, hash: hc}
		order = append(order, orderKey(replies*64-mobility, i))
	}
	// Insertion sort: the lists are short.
	for i := 1; i < len(order); i++ {
		for j := i; j > 0 && order[j] < order[j-1]; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	for i, o := range order {
		// pl lives in s.plies[depth], which deeper calls do not touch.
		// The first child was probed above, and nothing stored since.
		c := &pl.kids[o&0xffff]
		kc := c.pos
		if !jumping {
			kc = key(c.pos)
		}
		opponentWins := s.search(c.pos, kc, c.hash, i == 0, depth+1)
		if s.aborted {
			return false
		}
		if !opponentWins {
			s.record(k, h, true, start)
			return true
		}
	}
	s.record(k, h, false, start)
	return false
}

// record stores the result of a position under its table key k, of hash
// h; start is the node count when its search began.
func (s *Solver) record(k rules.Position, h uint64, win bool, start uint64) {
	s.stats.Stores++
	s.tt.store(k, h, win, s.stats.Nodes-start+1)
}
