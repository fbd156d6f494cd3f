package mcts

import (
	"context"
	"testing"

	"github.com/konanezero/konane/rules"
)

// BenchmarkSearch measures the search itself, with uniform priors from an
// evaluator that costs next to nothing and reuses its buffers: one op is
// a fresh 800-simulation Run on an 8x8 middlegame position. It reports
// simulations per second, and the allocations of a Run (the Result's
// slices; the tree's buffers are reused between Runs).
func BenchmarkSearch(b *testing.B) {
	p := richPosition(b, 8, 10, 11)
	for _, bc := range []struct {
		name   string
		gumbel bool
		batch  int
	}{
		{"puct", false, 1},
		{"puct-batch8", false, 8},
		{"gumbel", true, 1},
		{"gumbel-batch8", true, 8},
	} {
		b.Run(bc.name, func(b *testing.B) {
			cfg := DefaultConfig()
			cfg.Gumbel, cfg.LeafBatch, cfg.Reuse = bc.gumbel, bc.batch, false
			s := mustSearch(b, &reusingUniform{}, cfg, 1)
			const sims = 800
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.Run(ctx, p, RunOptions{Sims: sims, Noise: true}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(sims*b.N)/b.Elapsed().Seconds(), "sims/s")
			b.ReportMetric(float64(s.Nodes()), "nodes")
		})
	}
}

// reusingUniform is Uniform without allocations: it reuses its output
// buffers, so it is only for one Search at a time.
type reusingUniform struct {
	preds  []Prediction
	priors []float32
}

func (u *reusingUniform) Evaluate(_ context.Context, ps []rules.Position) ([]Prediction, error) {
	u.preds = u.preds[:0]
	u.priors = u.priors[:0]
	for _, p := range ps {
		n := p.CountMoves()
		for range n {
			u.priors = append(u.priors, 1/float32(n))
		}
		u.preds = append(u.preds, Prediction{Value: 0})
	}
	// Slice the priors only after the last append (no reallocation after).
	off := 0
	for i, p := range ps {
		n := p.CountMoves()
		u.preds[i].Policy = u.priors[off : off+n]
		off += n
	}
	return u.preds, nil
}
