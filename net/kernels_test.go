package net

import (
	"context"
	"fmt"
	"testing"

	"github.com/konanezero/konane/net/internal/kernel"
	"github.com/konanezero/konane/net/internal/nettestutil"
)

// TestKernelsSameNetwork: the default network gives bit-identical
// predictions with every kernel (package train checks its training
// step).
func TestKernelsSameNetwork(t *testing.T) {
	m := perturbed(mustModel(t, DefaultConfig(6), 5), 0.05, 2)
	ps := nettestutil.Positions(6, 24, 3)
	preds := nettestutil.EachKernel(t, func() string { return fmt.Sprint(evalAll(t, m, 8, ps)) })
	for i := 1; i < len(preds); i++ {
		if preds[i] != preds[0] {
			t.Errorf("%v: predictions differ from %v", kernel.Kernels()[i], kernel.Kernels()[0])
		}
	}
}

// BenchmarkEvaluateKernels measures Evaluate of the default 8x8 net at
// batch 32 with each kernel forced: whether AVX-512 pays over AVX2+FMA,
// and what the portable kernel costs; and with the bf16 backend where
// the CPU has it.
func BenchmarkEvaluateKernels(b *testing.B) {
	m := mustModel(b, DefaultConfig(8), 1)
	ps := nettestutil.Positions(8, 32, 1)
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
			e := startEvaluator(b, m, EvalOptions{Batch: 32, Backend: r.backend})
			ctx := context.Background()
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
