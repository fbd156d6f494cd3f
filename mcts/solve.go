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
type endgame struct {
	s *solver.Solver
	// tried is the root position last given to the solver, so that the
	// Runs of one move (a player's time chunks) try it once.
	tried rules.Position
	stats EndgameStats
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
func (s *Search) EndgameStats() EndgameStats { return s.eg.stats }

// endgameTable is the transposition table size of a Search's solver: 16Ki
// entries, about 350 KiB per Search (self-play runs dozens at once).
const endgameTable = 1 << 14

// solveLeaf runs the endgame solver on node idx when Config.SolveNodes
// allows and the position is small enough (Config.SolveStones), and
// marks the node proven if the solver finishes within its budget.
func (s *Search) solveLeaf(idx int32) bool {
	nd := &s.t.nodes[idx]
	if s.cfg.SolveNodes <= 0 || nd.proof != 0 || !SmallEnough(nd.pos, s.cfg.SolveStones) {
		return false
	}
	if s.eg.s == nil {
		s.eg.s = solver.New(solver.WithTableEntries(endgameTable))
	}
	pr, err := s.eg.s.Prove(nd.pos, uint64(s.cfg.SolveNodes))
	s.eg.stats.Tries++
	s.eg.stats.Nodes += pr.Nodes
	if err != nil || !pr.Known {
		return false // err: a position the solver refuses (cannot happen in a game tree)
	}
	s.eg.stats.Proved++
	nd = &s.t.nodes[idx]
	if pr.Win {
		nd.proof, nd.win = 1, pr.Move
	} else {
		nd.proof = -1
	}
	nd.value = float32(nd.proof)
	return true
}

// rootProven reports whether proofs settled the root.
func (s *Search) rootProven() bool { return s.cfg.Solver && s.t.nodes[0].proof != 0 }

// proveRoot tries the endgame solver on a new root, and gives a root
// proven won by the solver the child its winning move leads to, proven
// lost, so that Best, the PV and the policy target can name it.
func (s *Search) proveRoot() {
	if !s.cfg.Solver {
		return
	}
	root := &s.t.nodes[0]
	if root.proof == 0 && root.pos != s.eg.tried {
		s.eg.tried = root.pos
		s.solveLeaf(0)
		root = &s.t.nodes[0]
	}
	if root.proof <= 0 || root.win == rules.NoMove {
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
func (s *Search) propagate(path []int32) {
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
