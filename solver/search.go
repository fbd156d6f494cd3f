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
}

// child is the position a move leads to, with the move's ordering score
// (lower is tried first).
type child struct {
	pos   rules.Position
	score int32
}

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
	s.stats.Nodes++
	if s.stats.Nodes&(checkEvery-1) == 0 && s.ctx.Err() != nil || s.stats.Nodes == s.limit {
		s.aborted = true
	}
	if s.aborted {
		return false
	}
	k := key(p)
	if e, ok := s.tt.probe(k); ok {
		s.stats.Hits++
		return e.win()
	}
	start := s.stats.Nodes
	pl := s.ply(depth)
	moves := p.LegalMoves(pl.moves[:0])
	kids := pl.kids[:0]
	for _, m := range moves {
		c := p.Play(m)
		replies := c.CountMoves()
		if replies == 0 {
			s.record(k, true, start)
			return true
		}
		if e, ok := s.tt.probe(key(c)); ok {
			s.stats.Hits++
			if !e.win() {
				s.record(k, true, start)
				return true
			}
			continue // the opponent wins after m: m cannot win
		}
		score := int32(replies) * 64
		if c.Phase() == rules.Jumping {
			score -= int32(c.Mobility(p.Turn))
		}
		kids = append(kids, child{pos: c, score: score})
	}
	// Insertion sort: the lists are short.
	for i := 1; i < len(kids); i++ {
		for j := i; j > 0 && kids[j].score < kids[j-1].score; j-- {
			kids[j], kids[j-1] = kids[j-1], kids[j]
		}
	}
	for i := range kids {
		// kids lives in s.plies[depth], which deeper calls do not touch.
		opponentWins := s.win(kids[i].pos, depth+1)
		if s.aborted {
			return false
		}
		if !opponentWins {
			s.record(k, true, start)
			return true
		}
	}
	s.record(k, false, start)
	return false
}

// record stores the result of a position under its table key k; start is
// the node count when its search began.
func (s *Solver) record(k rules.Position, win bool, start uint64) {
	s.stats.Stores++
	s.tt.store(k, win, s.stats.Nodes-start+1)
}
