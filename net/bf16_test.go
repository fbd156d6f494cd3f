package net

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestBF16Products checks the bf16 backend's products (3x3 with the
// implicit gather, 1x1; bias, residual, ReLU; odd channel counts; partial
// panels; tails) against float64 sums of the same bfloat16-rounded
// inputs and weights: within float32 accumulation error.
func TestBF16Products(t *testing.T) {
	if !haveBF16 {
		t.Skip("no AVX512_BF16 here")
	}
	rng := rand.New(rand.NewPCG(7, 35))
	bf := func(x float32) float64 { return float64(math.Float32frombits(uint32(bf16Bits(x)) << 16)) }
	type shape struct{ w, h, c, f int }
	for _, s := range []shape{{8, 8, 32, 32}, {6, 6, 11, 13}, {7, 7, 32, 48}, {5, 3, 3, 64}, {8, 8, 7, 33}} {
		g := grid{s.w, s.h}
		nn := g.nn()
		for _, gather := range []bool{true, false} {
			for variant := range 8 {
				bias, res, relu := variant&1 != 0, variant&2 != 0, variant&4 != 0
				o := &linearOp{rows: 2 * nn, f: s.f, block: nn, bias: bias, res: res, relu: relu, bf16: true}
				c := s.c
				o.k = c
				if gather {
					o.gather, o.k = g, 9*c
				}
				o.prepareFused()
				if o.offs == nil {
					t.Fatalf("%+v: no offsets", s)
				}
				a := linearArgs[float32]{x: operand(rng, 2*nn*c, 0), w: operand(rng, o.k*s.f, 0), y: make([]float32, 2*nn*s.f)}
				if bias {
					a.b = operand(rng, s.f, 0)
				}
				if res {
					a.h = operand(rng, 2*nn*s.f, 0)
				}
				o.wbf = bf16Weight(o, a.w)
				for blk := range 2 {
					linearForward(o, a, nil, blk*nn, (blk+1)*nn, 0)
				}
				for r := range 2 * nn {
					base, sq := r-r%nn, r%nn
					for j := range s.f {
						var acc, mag float64
						if bias && res {
							acc = float64(a.b[j] + a.h[r*s.f+j])
						} else if bias {
							acc = float64(a.b[j])
						} else if res {
							acc = float64(a.h[r*s.f+j])
						}
						mag = math.Abs(acc)
						for p := range o.k {
							var xv float64
							if gather {
								t, ch := p/c, p%c
								if n := g.neighbours()[sq*9+t]; n >= 0 {
									xv = bf(a.x[(base+int(n))*c+ch])
								}
							} else {
								xv = bf(a.x[r*c+p])
							}
							v := xv * bf(a.w[p*s.f+j])
							acc += v
							mag += math.Abs(v)
						}
						if relu && acc < 0 {
							acc = 0
						}
						if got := float64(a.y[r*s.f+j]); math.Abs(got-acc) > 1e-6*mag*math.Sqrt(float64(o.k))+1e-30 {
							t.Fatalf("%+v, gather %v, bias %v, res %v, relu %v: y[%d,%d] = %g, want %g", s, gather, bias, res, relu, r, j, got, acc)
						}
					}
				}
			}
		}
	}
}

// TestBF16Evaluator: an evaluator on the bf16 backend answers each
// position the same whatever the batch (deterministic on this CPU), close
// to float32's, and after SetWeights as a new one; an unknown backend is
// refused in one line.
func TestBF16Evaluator(t *testing.T) {
	if _, err := NewEvaluator(mustModel(t, DefaultConfig(6), 1), EvalOptions{Batch: 4, Backend: "fp8"}); err == nil ||
		!strings.Contains(err.Error(), `backend "fp8" unknown`) {
		t.Fatalf("unknown backend: %v", err)
	}
	if !haveBF16 {
		if _, err := NewEvaluator(mustModel(t, DefaultConfig(6), 1), EvalOptions{Batch: 4, Backend: BackendBF16}); err == nil {
			t.Fatal("bf16 accepted without AVX512_BF16")
		}
		t.Skip("no AVX512_BF16 here")
	}
	for _, size := range []int{6, 8} {
		m := perturbed(mustModel(t, DefaultConfig(size), 5), 0.05, 2)
		ps := randomPositions(size, 24, 3)
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
