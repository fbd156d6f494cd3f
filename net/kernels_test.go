package net

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/konanezero/konane/net/internal/kernel"
)

// TestKernelsSameNetwork: the default network gives bit-identical
// predictions, and a training step bit-identical weights, with every
// kernel.
func TestKernelsSameNetwork(t *testing.T) {
	if len(kernel.Kernels()) == 1 {
		t.Skip("one kernel in this build")
	}
	cfg := DefaultConfig(6)
	m := perturbed(mustModel(t, cfg, 5), 0.05, 2)
	ps := randomPositions(6, 24, 3)
	samples := randomSamples(6, DefaultTrainOptions().Batch, 4)
	var preds []string
	var weights [][]float32
	for _, k := range kernel.Kernels() {
		restore := kernel.UseKernel(k)
		preds = append(preds, fmt.Sprint(evalAll(t, m, 8, ps)))
		tr, err := NewTrainer(m, DefaultTrainOptions())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tr.Step(samples); err != nil {
			t.Fatal(err)
		}
		tm, err := tr.Model(Metadata{})
		if err != nil {
			t.Fatal(err)
		}
		var all []float32
		for _, name := range []string{"stem.w", "block1.conv1.w", "block1.conv2.w"} {
			all = append(all, tm.weights[name]...)
		}
		weights = append(weights, all)
		restore()
	}
	for i := 1; i < len(preds); i++ {
		if preds[i] != preds[0] {
			t.Errorf("%v: predictions differ from %v", kernel.Kernels()[i], kernel.Kernels()[0])
		}
		for j := range weights[0] {
			if math.Float32bits(weights[i][j]) != math.Float32bits(weights[0][j]) {
				t.Errorf("%v: trained weight %d differs from %v", kernel.Kernels()[i], j, kernel.Kernels()[0])
				break
			}
		}
	}
}

// BenchmarkEvaluateKernels measures Evaluate of the default 8x8 net at
// batch 32 with each kernel forced: whether AVX-512 pays over AVX2+FMA,
// and what the portable kernel costs; and with the bf16 backend where
// the CPU has it.
func BenchmarkEvaluateKernels(b *testing.B) {
	m := mustModel(b, DefaultConfig(8), 1)
	ps := randomPositions(8, 32, 1)
	type run struct {
		name    string
		k       kernel.Kernel
		backend string
	}
	var runs []run
	for _, k := range kernel.Kernels() {
		runs = append(runs, run{k.String(), k, ""})
	}
	if kernel.HaveBF16 {
		runs = append(runs, run{"bf16", kernel.BestKernel(), BackendBF16})
	}
	for _, r := range runs {
		k := r.k
		b.Run(r.name, func(b *testing.B) {
			defer kernel.UseKernel(k)()
			e, err := NewEvaluator(m, EvalOptions{Batch: 32, Backend: r.backend})
			if err != nil {
				b.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- e.Run(ctx) }()
			defer func() { cancel(); <-done }()
			if _, err := e.Evaluate(ctx, ps); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				if _, err := e.Evaluate(ctx, ps); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*len(ps))/b.Elapsed().Seconds(), "positions/s")
		})
	}
}
