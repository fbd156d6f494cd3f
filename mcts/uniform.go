package mcts

import (
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"

	"github.com/konanezero/konane/rules"
)

// Uniform is the Evaluator that knows nothing: equal priors for every
// legal move and value 0 (-1, the exact value, for a position without
// legal moves). With it the search is pure tree search whose only
// information is the end of the game. It is stateless and safe for
// concurrent use.
type Uniform struct{}

// Evaluate implements Evaluator.
func (Uniform) Evaluate(ctx context.Context, positions []rules.Position) ([]Prediction, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("mcts: uniform: %w", err)
	}
	return uniformPredictions(positions, func(int, rules.Position) float32 { return 0 }), nil
}

// EvaluateWide implements WideEvaluator: Evaluate on WidePositions.
func (Uniform) EvaluateWide(ctx context.Context, positions []rules.WidePosition) ([]Prediction, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("mcts: uniform: %w", err)
	}
	return uniformPredictions(positions, func(int, rules.WidePosition) float32 { return 0 }), nil
}

// uniformPredictions builds predictions with equal priors and the value
// given by value for positions that have moves; the priors of the whole
// batch share one allocation.
func uniformPredictions[P interface{ CountMoves() int }](positions []P, value func(int, P) float32) []Prediction {
	out := make([]Prediction, len(positions))
	total := 0
	for _, p := range positions {
		total += p.CountMoves()
	}
	priors := make([]float32, total)
	for i, p := range positions {
		n := p.CountMoves()
		if n == 0 {
			out[i] = Prediction{Policy: priors[:0:0], Value: -1}
			continue
		}
		pol := priors[:n:n]
		priors = priors[n:]
		for k := range pol {
			pol[k] = 1 / float32(n)
		}
		out[i] = Prediction{Policy: pol, Value: value(i, p)}
	}
	return out
}

// RandomRollout is the evaluator of classic Monte Carlo tree search:
// equal priors, and as value the mean result of Rollouts games played
// out with uniformly random moves (1 when Rollouts is 0). The playouts
// of a position are seeded by Seed and the position's hash, so the value
// of a position is a pure function of (Seed, position): deterministic,
// and safe for concurrent use without any shared state.
type RandomRollout struct {
	Seed     uint64
	Rollouts int
}

// Evaluate implements Evaluator.
func (r RandomRollout) Evaluate(ctx context.Context, positions []rules.Position) ([]Prediction, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("mcts: random rollout: %w", err)
	}
	if r.Rollouts < 0 {
		return nil, fmt.Errorf("mcts: random rollout: %d rollouts: want ≥ 0", r.Rollouts)
	}
	rollouts := max(r.Rollouts, 1)
	return uniformPredictions(positions, func(_ int, p rules.Position) float32 {
		var sum int
		for k := range rollouts {
			sum += playout(p, r.Seed, uint64(k))
		}
		return float32(sum) / float32(rollouts)
	}), nil
}

// playout plays uniformly random moves from p to the end and returns +1
// if p's side to move wins, -1 if it loses.
func playout(p rules.Position, seed, k uint64) int {
	var src rand.PCG
	src.Seed(seed, p.Hash()^k*0x9e3779b97f4a7c15)
	var buf [rules.MaxMoves]rules.Move
	turn := p.Turn
	for {
		moves := p.LegalMoves(buf[:0])
		if len(moves) == 0 {
			if p.Turn == turn {
				return -1
			}
			return 1
		}
		hi, _ := bits.Mul64(src.Uint64(), uint64(len(moves)))
		p = p.Play(moves[hi])
	}
}
