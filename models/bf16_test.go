package models

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/konanezero/konane/mcts"
	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/rules/rulestest"
)

// TestBF16Agreement measures how far the bf16 backend's answers are from
// float32's with every shipped model, on 10,000 positions of seeded
// random games of its board (2,000 with -short): the share of positions
// whose most probable move is the same, and the mean and largest value
// difference (run with -v for the figures). The thresholds are loose
// bounds of what was measured (docs/results/2026-12-07-kernels-2.md).
func TestBF16Agreement(t *testing.T) {
	count := 10000
	if testing.Short() {
		count = 2000
	}
	for _, n := range Shipped().Sizes() {
		m, err := Shipped().For(rules.SquareBoard(n))
		if err != nil {
			t.Fatal(err)
		}
		ps := rulestest.Positions(rand.New(rand.NewPCG(uint64(n), 46)), n, count)
		f32 := evaluateAll(t, m, net.EvalOptions{Batch: 64}, ps)
		b16 := evaluateAll(t, m, net.EvalOptions{Batch: 64, Backend: net.BackendBF16}, ps)
		if b16 == nil {
			t.Skip("no bf16 backend here")
		}
		same, moves := 0, 0
		var sumDiff, maxDiff float64
		for i := range ps {
			d := math.Abs(float64(f32[i].Value - b16[i].Value))
			sumDiff += d
			maxDiff = max(maxDiff, d)
			if len(f32[i].Policy) == 0 {
				continue
			}
			moves++
			if argmax(f32[i].Policy) == argmax(b16[i].Policy) {
				same++
			}
		}
		agree, mean := float64(same)/float64(moves), sumDiff/float64(len(ps))
		t.Logf("%dx%d: %d positions (%d with moves): top move agrees on %.2f%%, value |Δ| mean %.4f, max %.4f",
			n, n, len(ps), moves, 100*agree, mean, maxDiff)
		if agree < 0.95 || mean > 0.02 || maxDiff > 0.25 {
			t.Errorf("%dx%d: bf16 too far from float32", n, n)
		}
	}
}

// evaluateAll evaluates ps with a new evaluator of m, nil if it cannot be
// built on this CPU with a backend other than float32.
func evaluateAll(t *testing.T, m *net.Model, opts net.EvalOptions, ps []rules.Position) []mcts.Prediction {
	t.Helper()
	e, err := net.NewEvaluator(m, opts)
	if err != nil {
		if opts.Backend != "" {
			t.Logf("%v", err)
			return nil
		}
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- e.Run(ctx) }()
	var out []mcts.Prediction
	for i := 0; i < len(ps); i += opts.Batch {
		pr, err := e.Evaluate(ctx, ps[i:min(i+opts.Batch, len(ps))])
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, pr...)
	}
	cancel()
	if err := <-done; err != nil && err != context.Canceled {
		t.Fatal(err)
	}
	return out
}

// argmax is the index of the first largest entry.
func argmax(p []float32) int {
	best := 0
	for i, v := range p {
		if v > p[best] {
			best = i
		}
	}
	return best
}
