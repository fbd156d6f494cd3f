package agent

import (
	"context"
	"fmt"

	"github.com/konanezero/konane/mcts"
	"github.com/konanezero/konane/models"
	"github.com/konanezero/konane/player"
	"github.com/konanezero/konane/rules"
)

// MaxSolverSize is the largest board whose agent is the exact solver
// instead of a network: on 4x4 and 5x5 it solves any position in
// milliseconds, so it plays perfectly at every level.
const MaxSolverSize = 5

// Boards returns the boards the agent plays without a --model: the
// squares of the exact solver, then the shipped networks' in their
// table's order (models.Shipped).
func Boards() []rules.Board {
	var out []rules.Board
	for n := rules.MinSize; n <= MaxSolverSize; n++ {
		out = append(out, rules.SquareBoard(n))
	}
	return append(out, models.Shipped().Boards()...)
}

// Plays reports whether the agent plays board b without a --model: the
// exact solver or a shipped network (models.Shipped; b's start
// included). The classical engine plays the others.
func Plays(b rules.Board) bool {
	return b.Square() && Perfect(b.W) || models.Shipped().Plays(b)
}

// Perfect reports whether the agent of size×size boards is the exact
// solver, which plays perfectly at every level.
func Perfect(size int) bool { return size <= MaxSolverSize }

// NewSolverEngine returns the engine of a board of at most MaxSolverSize
// whose agents play by the exact solver (player.Perfect): from a won
// position a winning move, from a lost one the move that leaves the
// opponent the fewest winning replies. It has no model and no evaluator;
// the level only sets how its analysis is counted (every move is
// solved).
func NewSolverEngine(size int) (*Engine, error) {
	if size < rules.MinSize || size > MaxSolverSize {
		return nil, fmt.Errorf("agent: the exact solver plays boards of %d to %d, not %dx%d", rules.MinSize, MaxSolverSize, size, size)
	}
	return &Engine{size: size}, nil
}

// searcher is what an Agent asks for a move or an analysis: a network's
// search (player.Neural) or the exact solver (solverSearch).
type searcher interface {
	Analyze(ctx context.Context, p rules.Position, l player.Limits) (mcts.Result, error)
}

// solverSearch analyses a position with the exact solver: every move's
// value is exact.
type solverSearch struct{ p *player.Perfect }

func (s solverSearch) Analyze(ctx context.Context, p rules.Position, _ player.Limits) (mcts.Result, error) {
	best, results, err := s.p.Analyze(ctx, p)
	if err != nil {
		return mcts.Result{}, err
	}
	r := mcts.Result{Best: best, Proven: true, Value: -1, PV: []rules.Move{best}}
	for _, mr := range results {
		q := float32(-1)
		if mr.Wins {
			q, r.Value = 1, 1
		}
		r.Moves = append(r.Moves, mr.Move)
		r.Q = append(r.Q, q)
		r.Visits = append(r.Visits, 1)
		r.Prior = append(r.Prior, 1/float32(len(results)))
	}
	r.Sims = len(results)
	return r, nil
}
