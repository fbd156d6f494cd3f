package net

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/konanezero/konane/net/internal/kernel"
	"github.com/konanezero/konane/net/internal/nettestutil"
)

// TestBF16Evaluator: an evaluator on the bf16 backend answers each
// position the same whatever the batch (deterministic on this CPU), close
// to float32's, and after SetWeights as a new one; an unknown backend is
// refused in one line.
func TestBF16Evaluator(t *testing.T) {
	if _, err := NewEvaluator(mustModel(t, DefaultConfig(6), 1), EvalOptions{Batch: 4, Backend: "fp8"}); err == nil ||
		!strings.Contains(err.Error(), `backend "fp8" unknown`) {
		t.Fatalf("unknown backend: %v", err)
	}
	if !kernel.HaveBF16 {
		if _, err := NewEvaluator(mustModel(t, DefaultConfig(6), 1), EvalOptions{Batch: 4, Backend: BackendBF16}); err == nil {
			t.Fatal("bf16 accepted without AVX512_BF16")
		}
		t.Skip("no AVX512_BF16 here")
	}
	for _, size := range []int{6, 8} {
		m := perturbed(mustModel(t, DefaultConfig(size), 5), 0.05, 2)
		ps := nettestutil.Positions(size, 24, 3)
		f32 := startEvaluator(t, m, EvalOptions{Batch: 8})
		b16 := startEvaluator(t, m, EvalOptions{Batch: 8, Backend: BackendBF16})
		all, err := b16.Evaluate(context.Background(), ps[:8])
		if err != nil {
			t.Fatal(err)
		}
		want, err := f32.Evaluate(context.Background(), ps[:8])
		if err != nil {
			t.Fatal(err)
		}
		differ := false
		for i, p := range ps[:8] {
			one, err := b16.Evaluate(context.Background(), ps[i:i+1])
			if err != nil {
				t.Fatal(err)
			}
			if !samePrediction(one[0], all[i]) {
				t.Fatalf("size %d, position %d: bf16 alone differs from bf16 in a batch", size, i)
			}
			if math.Abs(float64(all[i].Value-want[i].Value)) > 0.05 {
				t.Errorf("size %d, position %d (%v): bf16 value %g, float32 %g", size, i, p, all[i].Value, want[i].Value)
			}
			for j := range all[i].Policy {
				if math.Abs(float64(all[i].Policy[j]-want[i].Policy[j])) > 0.05 {
					t.Errorf("size %d, position %d: bf16 prior %d = %g, float32 %g", size, i, j, all[i].Policy[j], want[i].Policy[j])
				}
			}
			differ = differ || !samePrediction(all[i], want[i])
		}
		if !differ {
			t.Errorf("size %d: bf16 gives float32's bits: is it on?", size)
		}
		// New weights reach the bfloat16 copy of the weights.
		m2 := perturbed(mustModel(t, DefaultConfig(size), 6), 0.05, 3)
		if err := b16.SetWeights(m2); err != nil {
			t.Fatal(err)
		}
		got, err := b16.Evaluate(context.Background(), ps[:8])
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := startEvaluator(t, m2, EvalOptions{Batch: 8, Backend: BackendBF16}).Evaluate(context.Background(), ps[:8])
		if err != nil {
			t.Fatal(err)
		}
		for i := range got {
			if !samePrediction(got[i], fresh[i]) {
				t.Fatalf("size %d, position %d: bf16 after SetWeights differs from a fresh bf16 evaluator", size, i)
			}
		}
	}
}
