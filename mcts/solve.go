package mcts

import (
	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/solver"
)

// MCTS-Solver (Winands, Björnsson and Saito 2008), with Config.Solver:
//
//   - A position without legal moves is lost for the side to move; a
//     node with a move into such a position is won (checked when the
//     node is expanded); a leaf small enough for the exact solver within
//     Config.SolveNodes is won or lost as the solver says.
//   - Proofs back up exactly: a move into a position proven lost for
//     the opponent proves the parent won; when every move leads to a
//     position proven won for the opponent, the parent is proven lost.
//   - Selection never takes a move proven to lose (an unproven node
//     always has a move that is not), and never goes below a proven node.
//   - A Run stops as soon as its root is proven; a proven win is played
//     at once (Result.Best is a winning move), and Result.Proven and
//     Result.Value say what was proved.
//
// Proven children count with their exact value (±1) in Q, whatever
// their visits, so the choice of the most visited move and the policy
// target see them; the target never gives weight to a move proven to
// lose while another move is not, and a proven win's target is spread
// over the proven winning moves only.

// endgame is the exact solver of a Search, made on first use.
type endgame[P, M any] struct {
	// prove is the exact solver of the search's positions (nil: none, on
	// WidePositions): it reports whether it settled p, of at most stones
	// stones, within nodes, and if so whether p is won and by what move.
	prove func(eg *endgame[P, M], p P, stones int, nodes uint64) (known, win bool, move M)
	s     *solver.Solver
	// tried is the root position last given to the solver, so that the
	// Runs of one move (a player's time chunks) try it once.
	tried P
	stats EndgameStats
}

// proveNarrow is the endgame solver of a Search: a Position small enough
// (SmallEnough) is given to the exact solver, made on first use.
func proveNarrow(eg *endgame[rules.Position, rules.Move], p rules.Position, stones int, nodes uint64) (known, win bool, move rules.Move) {
	if !SmallEnough(p, stones) {
		return false, false, rules.NoMove
	}
	if eg.s == nil {
		eg.s = solver.New(solver.WithTableEntries(endgameTable))
	}
	pr, err := eg.s.Prove(p, nodes)
	eg.stats.Tries++
	eg.stats.Nodes += pr.Nodes
	if err != nil || !pr.Known {
		return false, false, rules.NoMove // err: a position the solver refuses (cannot happen in a game tree)
	}
	return true, pr.Win, pr.Move
}

// EndgameStats counts the work of a Search's endgame solver
// (Config.SolveNodes) since New: the measure of its cost beside the
// evaluator's positions, the same on every machine.
type EndgameStats struct {
	Tries  int    // leaves and new roots given to the solver
	Proved int    // of those, the ones it settled within the budget
	Nodes  uint64 // positions the solver searched in all of them
}

// EndgameStats returns the counts of the endgame solver's work.
func (s *SearchOf[P, M]) EndgameStats() EndgameStats { return s.eg.stats }

// endgameTable is the transposition table size of a Search's solver: 16Ki
// entries, about 350 KiB per Search (self-play runs dozens at once).
const endgameTable = 1 << 14

// solveLeaf runs the endgame solver on node idx when Config.SolveNodes
// allows and the position is small enough (Config.SolveStones), and
// marks the node proven if the solver finishes within its budget.
func (s *SearchOf[P, M]) solveLeaf(idx int32) bool {
	nd := &s.t.nodes[idx]
	if s.cfg.SolveNodes <= 0 || nd.proof != 0 || s.eg.prove == nil {
		return false
	}
	known, win, move := s.eg.prove(&s.eg, nd.pos, s.cfg.SolveStones, uint64(s.cfg.SolveNodes))
	if !known {
		return false
	}
	s.eg.stats.Proved++
	nd = &s.t.nodes[idx]
	if win {
		nd.proof, nd.win = 1, move
	} else {
		nd.proof = -1
	}
	nd.value = float32(nd.proof)
	return true
}

// rootProven reports whether proofs settled the root.
func (s *SearchOf[P, M]) rootProven() bool { return s.cfg.Solver && s.t.nodes[0].proof != 0 }

// proveRoot tries the endgame solver on a new root, and gives a root
// proven won by the solver the child its winning move leads to, proven
// lost, so that Best, the PV and the policy target can name it.
func (s *SearchOf[P, M]) proveRoot() {
	if !s.cfg.Solver {
		return
	}
	root := &s.t.nodes[0]
	if root.proof == 0 && root.pos != s.eg.tried {
		s.eg.tried = root.pos
		s.solveLeaf(0)
		root = &s.t.nodes[0]
	}
	if root.proof <= 0 || root.win == s.t.none {
		return
	}
	for i := root.first; i < root.first+int32(root.nEdges); i++ {
		e := &s.t.edges[i]
		if e.move != root.win {
			continue
		}
		if e.child == 0 {
			s.t.newChild(0, i)
		}
		if c := &s.t.nodes[e.child]; c.proof == 0 {
			c.proof, c.value = -1, -1
		}
		return
	}
}

// propagate carries proofs up path (from the root to a leaf just backed
// up): a node with a child proven lost is won; a node whose every move
// leads to a child proven won is lost. It stops at the first node whose
// status does not change.
func (s *SearchOf[P, M]) propagate(path []int32) {
	for i := len(path) - 1; i > 0; i-- {
		c, p := path[i], path[i-1]
		parent := &s.t.nodes[p]
		if parent.proof != 0 {
			return
		}
		switch proof := s.t.nodes[c].proof; {
		case proof < 0:
			for _, e := range s.t.children(p) {
				if e.child == c {
					parent.proof, parent.win = 1, e.move
					break
				}
			}
		case proof > 0:
			for _, e := range s.t.children(p) {
				if e.child == 0 || s.t.nodes[e.child].proof <= 0 {
					return
				}
			}
			parent.proof = -1
		default:
			return
		}
	}
}

// SmallEnough reports whether the endgame solver should try p: a position
// of the jumping phase with at most stones stones on the board.
//
// The number of stones is the cheap measure that predicts the cost of an
// exact solve best (the measurement, and the defaults of 30 stones and
// 3000 nodes it supports: docs/results/2026-12-02-defaults.md).
func SmallEnough(p rules.Position, stones int) bool {
	b, w := p.StoneCount()
	return p.Phase() == rules.Jumping && b+w <= stones
}
