// Package nettestutil draws the random positions, training targets and
// weight noise that the tests of net and net/train share. It imports
// nothing of net, so that net's in-package tests can use it: a target's
// policy comes in the caller's action-probability type (net.ActionProb).
package nettestutil

import (
	"context"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/konanezero/konane/net/internal/kernel"
	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/rules/rulestest"
)

// ActionProb is the shape of net.ActionProb: a policy slot and its
// target probability.
type ActionProb interface {
	~struct {
		Action int32
		Prob   float32
	}
}

// Target is a drawn position with random training targets: Position or,
// on a board no Position holds, Wide; a value of -1 or +1; a random
// probability for each legal move's slot, in move order.
type Target[A ActionProb] struct {
	Position rules.Position
	Wide     rules.WidePosition
	Value    float32
	Policy   []A
}

// Positions returns count positions with legal moves of a size×size
// board, reached by random games from the start (removal phases
// included), drawn from seed.
func Positions(size, count int, seed uint64) []rules.Position {
	return rulestest.Positions(rand.New(rand.NewPCG(seed, 1)), size, count)
}

// BoardPositions returns count non-terminal positions of random games on
// board b, from its start, drawn from seed; it fails t if b holds no
// Position.
func BoardPositions(t testing.TB, b rules.Board, count int, seed uint64) []rules.Position {
	t.Helper()
	return playouts(t, b.Position, rules.Playout, count, seed)
}

// WideBoardPositions is BoardPositions in the wide form, which every
// board has.
func WideBoardPositions(t testing.TB, b rules.Board, count int, seed uint64) []rules.WidePosition {
	t.Helper()
	return playouts(t, b.WidePosition, rules.WidePlayout, count, seed)
}

// playouts returns the first count positions of random games from the
// position start returns, drawn from seed, each game but its last
// position (which has no move); it fails t if start does.
func playouts[P any, M any](t testing.TB, start func() (P, error), playout func(*rand.Rand, P, int) ([]P, []M), count int, seed uint64) []P {
	t.Helper()
	p, err := start()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	var out []P
	for len(out) < count {
		ps, _ := playout(rng, p, -1)
		out = append(out, ps[:min(len(ps)-1, count-len(out))]...)
	}
	return out
}

// Targets returns the Positions of a size with random targets drawn
// from seed.
func Targets[A ActionProb](size, count int, seed uint64) []Target[A] {
	rng := rand.New(rand.NewPCG(seed, 2))
	var buf [rules.MaxMoves]rules.Move
	var out []Target[A]
	for _, p := range Positions(size, count, seed) {
		x := Target[A]{Position: p, Value: value(rng)}
		for _, m := range p.LegalMoves(buf[:0]) {
			x.Policy = append(x.Policy, prob[A](rng, rules.ActionIndex(m, size)))
		}
		out = append(out, x)
	}
	return out
}

// BoardTargets is Targets on board b, from its BoardPositions or, on a
// board no Position holds, its WideBoardPositions.
func BoardTargets[A ActionProb](t testing.TB, b rules.Board, count int, seed uint64) []Target[A] {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 2))
	var out []Target[A]
	if !b.Narrow() {
		for _, p := range WideBoardPositions(t, b, count, seed) {
			x := Target[A]{Wide: p, Value: value(rng)}
			for _, m := range p.LegalMoves(nil) {
				x.Policy = append(x.Policy, prob[A](rng, rules.WideActionIndex(m, b.W, b.H)))
			}
			out = append(out, x)
		}
		return out
	}
	var buf [rules.MaxMoves]rules.Move
	for _, p := range BoardPositions(t, b, count, seed) {
		x := Target[A]{Position: p, Value: value(rng)}
		for _, m := range p.LegalMoves(buf[:0]) {
			x.Policy = append(x.Policy, prob[A](rng, rules.ActionIndex(m, int(p.Size))))
		}
		out = append(out, x)
	}
	return out
}

// value draws a target value, -1 or +1.
func value(rng *rand.Rand) float32 { return float32(rng.IntN(2)*2 - 1) }

// prob draws a target probability for slot action.
func prob[A ActionProb](rng *rand.Rand, action int) A {
	return A(struct {
		Action int32
		Prob   float32
	}{int32(action), rng.Float32()})
}

// Perturb adds normal noise of deviation scale, drawn from seed, to every
// weight of w in place, the tensors in name order (the same noise every
// run), so that no path of a network is zero (net.New zero-initialises
// some layers).
func Perturb(w map[string][]float32, scale float64, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 3))
	for _, k := range slices.Sorted(maps.Keys(w)) {
		for i := range w[k] {
			w[k][i] += float32(rng.NormFloat64() * scale)
		}
	}
}

// Run runs run (an evaluator's Run) in a goroutine until t ends: a
// cleanup of t cancels it, waits for it and fails t if it returned an
// error.
func Run(t testing.TB, run func(context.Context) error) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
}

// EachKernel returns f's result under each of the build's kernels, in
// the order of kernel.Kernels(), restoring the kernel in use after each;
// it skips t when the build has a single kernel (nothing to compare).
func EachKernel[R any](t testing.TB, f func() R) []R {
	t.Helper()
	if len(kernel.Kernels()) == 1 {
		t.Skip("one kernel in this build")
	}
	var out []R
	for _, k := range kernel.Kernels() {
		out = append(out, func() R {
			defer kernel.UseKernel(k)() // also when f fails t
			return f()
		}())
	}
	return out
}
