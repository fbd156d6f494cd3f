package train

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/net/internal/kernel"
	"gorgonia.org/tensor"
)

// TestGradientFloat32MatchesFloat64 checks the float32 gradients, which
// the training uses, against the float64 ones that TestGradientCheck
// checks numerically: the float32 paths have code of their own (the BLAS
// in blocks of rows and parts of columns, gonum's column parts, relu and
// its gradient on the bits, the operations in parallel blocks). The net
// is large enough for every one of them: 16 positions of 36 rows make
// several blocks of rows, and 24 filters make 216-column products.
func TestGradientFloat32MatchesFloat64(t *testing.T) {
	cfg := net.Config{Size: 6, Filters: 24, Blocks: 1, ValueHidden: 8, GlobalPool: true}
	batch := randomSamples(6, 16, 9)
	m := perturbed(mustModel(t, cfg, 1), 0.1, 2)
	for _, procs := range []int{1, 2} {
		prev := runtime.GOMAXPROCS(procs)
		grads := map[tensor.Dtype][][]float64{}
		for _, dt := range []tensor.Dtype{tensor.Float32, tensor.Float64} {
			gr, err := buildGraph(cfg, cfg.Size, len(batch), weightsOf(m), dt, false, net.DefaultSoftPolicyWeight)
			if err != nil {
				t.Fatal(err)
			}
			fillTrainInputs(t, gr, batch)
			if err := gr.run(); err != nil {
				t.Fatal(err)
			}
			for _, p := range gr.params {
				g, err := p.Grad()
				if err != nil {
					t.Fatal(err)
				}
				grads[dt] = append(grads[dt], floats(g))
			}
			gr.close()
		}
		runtime.GOMAXPROCS(prev)
		for i, s := range cfg.Params() {
			g32, g64 := grads[tensor.Float32][i], grads[tensor.Float64][i]
			var scale float64
			for _, v := range g64 {
				scale = max(scale, math.Abs(v))
			}
			for j := range g64 {
				if math.Abs(g32[j]-g64[j]) > 1e-4*scale+1e-7 {
					t.Fatalf("GOMAXPROCS %d: %s[%d]: float32 gradient %.7g, float64 %.7g (largest %.3g)", procs, s.Name, j, g32[j], g64[j], scale)
				}
			}
		}
	}
}

// TestReluBits checks relu and reluGrad on the bits of float32 against
// their definitions, on signed zeros, subnormals, extremes and random
// values.
func TestReluBits(t *testing.T) {
	xs := []float32{0, float32(math.Copysign(0, -1)), 1, -1, math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32,
		math.MaxFloat32, -math.MaxFloat32, float32(math.Inf(1)), float32(math.Inf(-1)), 1e-30, -1e-30}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		xs = append(xs, float32(rng.NormFloat64()))
	}
	y := append([]float32(nil), xs...)
	kernel.ReLU(y)
	for i, x := range xs {
		want := x
		if x <= 0 {
			want = 0 // +0, also for -0
		}
		if math.Float32bits(y[i]) != math.Float32bits(want) {
			t.Fatalf("relu(%g) = %g, want %g", x, y[i], want)
		}
	}
	g := make([]float32, len(y))
	for i := range g {
		g[i] = float32(rng.NormFloat64())
	}
	out := make([]float32, len(y))
	reluGrad(y, g, out)
	for i := range y {
		want := float32(0)
		if y[i] > 0 {
			want = g[i]
		}
		if math.Float32bits(out[i]) != math.Float32bits(want) {
			t.Fatalf("reluGrad at y = %g, g = %g: %g, want %g", y[i], g[i], out[i], want)
		}
	}
}
