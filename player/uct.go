package player

import (
	"context"
	"math"
	"math/rand/v2"
	"time"

	"github.com/konanezero/konane/rules"
)

// DefaultUCTSims is the number of simulations per move of a pure MCTS
// player when neither a count nor a time is given.
const DefaultUCTSims = 1000

// maxUCTNodes bounds the tree of one move (about 64 MiB); a search that
// fills it stops there, so a long time limit cannot exhaust memory.
const maxUCTNodes = 1 << 20

// DefaultUCTC is the UCB1 exploration constant (√2, for results in [0,1]).
const DefaultUCTC = math.Sqrt2

// UCT is pure Monte Carlo tree search: UCB1 selection, expansion of all
// children at once, a uniformly random playout to the end of the game from
// the new node, and the result backed up as a win or loss. It needs no
// evaluator; it is the classic baseline that a neural MCTS must beat.
//
// Move runs Sims simulations, or until MoveTime has passed, whichever
// comes first (at least one), and plays the most visited root move. The
// tree is rebuilt for each move; a search stops early when its tree
// reaches about a million nodes.
type UCT struct {
	name     string
	Sims     int           // simulations per move; 0 = no count limit
	MoveTime time.Duration // time per move; 0 = no time limit
	C        float64       // exploration constant

	rng   *rand.Rand
	nodes []uctNode
}

type uctNode struct {
	pos        rules.Position
	move       rules.Move // the move that led here
	parent     int32
	firstChild int32 // index of the first child; children are contiguous
	nChildren  int32 // -1 until expanded
	visits     float64
	wins       float64 // wins of the side that played move
}

// NewUCT returns a pure MCTS player. With sims and moveTime both 0 it uses
// DefaultUCTSims; c ≤ 0 means DefaultUCTC.
func NewUCT(sims int, moveTime time.Duration, c float64, seed uint64) *UCT {
	if sims <= 0 && moveTime <= 0 {
		sims = DefaultUCTSims
	}
	if c <= 0 {
		c = DefaultUCTC
	}
	return &UCT{name: "mcts", Sims: sims, MoveTime: moveTime, C: c, rng: newRand(seed, streamMCTS)}
}

// Name implements Player.
func (u *UCT) Name() string { return u.name }

// Move implements Player.
func (u *UCT) Move(ctx context.Context, p rules.Position) (rules.Move, error) {
	if err := checkMove(ctx, p); err != nil {
		return rules.NoMove, err
	}
	st := newStopper(u.Sims, u.MoveTime)
	u.nodes = append(u.nodes[:0], uctNode{pos: p, move: rules.NoMove, parent: -1, nChildren: -1})
	for sim := 0; u.Sims <= 0 || sim < u.Sims; sim++ {
		if sim > 0 && sim%64 == 0 {
			if err := ctx.Err(); err != nil {
				return rules.NoMove, err
			}
			if st.expired() {
				break
			}
			if len(u.nodes) >= maxUCTNodes {
				break
			}
		}
		u.simulate()
	}
	root := u.nodes[0]
	best, most := rules.NoMove, -1.0
	for c := root.firstChild; c < root.firstChild+root.nChildren; c++ {
		if u.nodes[c].visits > most {
			best, most = u.nodes[c].move, u.nodes[c].visits
		}
	}
	return best, nil
}

// simulate runs one selection, expansion, playout and backup.
func (u *UCT) simulate() {
	n := int32(0)
	for u.nodes[n].nChildren > 0 {
		n = u.selectChild(n)
	}
	if u.nodes[n].nChildren < 0 {
		u.expand(n)
		if u.nodes[n].nChildren > 0 {
			// The children are in random order: take the first unvisited.
			n = u.nodes[n].firstChild
		}
	}
	winner := u.playout(u.nodes[n].pos)
	for ; n >= 0; n = u.nodes[n].parent {
		nd := &u.nodes[n]
		nd.visits++
		if nd.pos.Turn.Other() == winner {
			nd.wins++
		}
	}
}

// selectChild returns the child of n maximizing UCB1; unvisited children
// come first.
func (u *UCT) selectChild(n int32) int32 {
	nd := u.nodes[n]
	logN := math.Log(nd.visits)
	best, bestScore := int32(-1), math.Inf(-1)
	for c := nd.firstChild; c < nd.firstChild+nd.nChildren; c++ {
		ch := &u.nodes[c]
		if ch.visits == 0 {
			return c
		}
		s := ch.wins/ch.visits + u.C*math.Sqrt(logN/ch.visits)
		if s > bestScore {
			best, bestScore = c, s
		}
	}
	return best
}

// expand adds every child of n, in random order; a position without moves
// gets nChildren = 0 (a terminal node).
func (u *UCT) expand(n int32) {
	var buf [rules.MaxMoves]rules.Move
	p := u.nodes[n].pos
	moves := p.LegalMoves(buf[:0])
	u.rng.Shuffle(len(moves), func(i, j int) { moves[i], moves[j] = moves[j], moves[i] })
	first := int32(len(u.nodes))
	for _, m := range moves {
		u.nodes = append(u.nodes, uctNode{pos: p.Play(m), move: m, parent: n, nChildren: -1})
	}
	u.nodes[n].firstChild, u.nodes[n].nChildren = first, int32(len(moves))
}

// playout plays uniformly random moves to the end and returns the winner.
func (u *UCT) playout(p rules.Position) rules.Color {
	var buf [rules.MaxMoves]rules.Move
	for {
		moves := p.LegalMoves(buf[:0])
		if len(moves) == 0 {
			return p.Turn.Other()
		}
		p = p.Play(moves[u.rng.IntN(len(moves))])
	}
}
