package player

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"

	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/solver"
)

// perfectTableEntries sizes the solver's table of one perfect player
// (24 bytes each: 24 MiB).
const perfectTableEntries = 1 << 20

// Perfect plays by the exact solver. From a won position it plays a
// winning move, chosen at random among the winning ones; from a lost
// position it plays the move that leaves the opponent the smallest share
// of winning replies (the most chances to go wrong), ties broken at
// random.
//
// Solving is only practical on small boards: Perfect solves any position
// of 4x4 and 5x5, and on larger boards only positions with at most
// MaxStones stones; Move returns an error wrapping ErrTooBig for the
// others.
type Perfect struct {
	name      string
	MaxStones int // limit on boards above 5x5
	rng       *rand.Rand
	solver    *solver.Solver
}

// ErrTooBig is wrapped by the error of a perfect player asked to solve a
// position too large for it.
var ErrTooBig = errors.New("position too large to solve")

// NewPerfect returns a perfect player with the default stone limit,
// breaking ties with seed. Its solver's table is allocated on the first
// move.
func NewPerfect(seed uint64) *Perfect {
	return &Perfect{
		name:      "perfect",
		MaxStones: solver.DefaultMaxStones,
		rng:       newRand(seed, streamPerfect),
		solver:    solver.New(solver.WithTableEntries(perfectTableEntries)),
	}
}

// Name implements Player.
func (pp *Perfect) Name() string { return pp.name }

// Move implements Player.
func (pp *Perfect) Move(ctx context.Context, p rules.Position) (rules.Move, error) {
	m, _, err := pp.Analyze(ctx, p)
	return m, err
}

// Analyze solves p: the move Move would play, and whether each legal
// move wins for the side to move (in LegalMoves order).
func (pp *Perfect) Analyze(ctx context.Context, p rules.Position) (rules.Move, []solver.MoveResult, error) {
	if err := checkMove(ctx, p); err != nil {
		return rules.NoMove, nil, err
	}
	if !solver.Solvable(p, pp.MaxStones) {
		stones := bits.OnesCount64(p.Black | p.White)
		return rules.NoMove, nil, fmt.Errorf("player: perfect: %w: %d stones on %dx%d (the limit above 5x5 is %d)", ErrTooBig, stones, p.Size, p.Size, pp.MaxStones)
	}
	results, err := pp.solver.Analyze(ctx, p)
	if err != nil {
		return rules.NoMove, nil, fmt.Errorf("player: perfect: %w", err)
	}
	winning := solver.WinningMoves(results)
	if len(winning) > 0 {
		return winning[pp.rng.IntN(len(winning))], results, nil
	}
	// Lost: make the opponent's task hardest.
	best, bestShare, ties := rules.NoMove, 2.0, 0
	for _, r := range results {
		replies, err := pp.solver.Analyze(ctx, p.Play(r.Move))
		if err != nil {
			return rules.NoMove, nil, fmt.Errorf("player: perfect: %w", err)
		}
		good := 0
		for _, rr := range replies {
			if rr.Wins {
				good++
			}
		}
		share := 1.0
		if len(replies) > 0 {
			share = float64(good) / float64(len(replies))
		}
		switch {
		case share < bestShare:
			best, bestShare, ties = r.Move, share, 1
		case share == bestShare:
			ties++
			if pp.rng.IntN(ties) == 0 {
				best = r.Move
			}
		}
	}
	return best, results, nil
}
