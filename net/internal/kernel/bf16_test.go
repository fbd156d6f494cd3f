package kernel

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestBF16Products checks the bf16 backend's products (3x3 with the
// implicit gather, 1x1; bias, residual, ReLU; odd channel counts; partial
// panels; tails) against float64 sums of the same bfloat16-rounded
// inputs and weights: within float32 accumulation error.
func TestBF16Products(t *testing.T) {
	if !HaveBF16 {
		t.Skip("no AVX512_BF16 here")
	}
	rng := rand.New(rand.NewPCG(7, 35))
	bf := func(x float32) float64 { return float64(math.Float32frombits(uint32(bf16Bits(x)) << 16)) }
	type shape struct{ w, h, c, f int }
	for _, s := range []shape{{8, 8, 32, 32}, {6, 6, 11, 13}, {7, 7, 32, 48}, {5, 3, 3, 64}, {8, 8, 7, 33}} {
		g := Grid{s.w, s.h}
		nn := g.NN()
		for _, gather := range []bool{true, false} {
			for variant := range 8 {
				bias, res, relu := variant&1 != 0, variant&2 != 0, variant&4 != 0
				o := &Linear{rows: 2 * nn, f: s.f, block: nn, bias: bias, res: res, relu: relu, bf16: true}
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
								if n := g.Neighbours()[sq*9+t]; n >= 0 {
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
