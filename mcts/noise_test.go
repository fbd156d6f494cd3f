package mcts

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestDirichlet checks the shape of the Dirichlet samples: n components
// that are ≥ 0 and sum to 1, with the variance (1/n)(1-1/n)/(nα+1) of a
// symmetric Dirichlet distribution.
func TestDirichlet(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 7, 30, 200} {
		alpha := 10.0 / float64(n) // DefaultConfig's scaling
		const samples = 4000
		var mean, sq float64
		var buf []float64
		for range samples {
			buf = dirichlet(rng, alpha, buf[:0], n)
			if len(buf) != n {
				t.Fatalf("n=%d: %d components", n, len(buf))
			}
			var s float64
			for _, x := range buf {
				if !(x >= 0) {
					t.Fatalf("n=%d: component %v", n, x)
				}
				s += x
			}
			if math.Abs(s-1) > 1e-9 {
				t.Fatalf("n=%d: sum %v", n, s)
			}
			for _, x := range buf { // every component has the same marginal
				mean += x
				sq += x * x
			}
		}
		mean /= samples * float64(n)
		variance := sq/(samples*float64(n)) - mean*mean
		wantMean := 1 / float64(n)
		wantVar := wantMean * (1 - wantMean) / (float64(n)*alpha + 1)
		t.Logf("n=%d: variance %.3g, want %.3g", n, variance, wantVar)
		if n > 1 && math.Abs(variance-wantVar) > 0.05*wantVar {
			t.Errorf("n=%d: variance %v, want %v", n, variance, wantVar)
		}
	}
}

// TestGammaAndGumbelMoments: Gamma(a) has mean a; the standard Gumbel
// distribution has mean γ (Euler's constant) and variance π²/6.
func TestGammaAndGumbelMoments(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const samples = 20000
	for _, a := range []float64{0.05, 0.3, 1, 2.5, 10} {
		var mean float64
		for range samples {
			mean += math.Exp(logGamma(rng, a))
		}
		mean /= samples
		if math.Abs(mean-a) > 0.05*a+0.01 {
			t.Errorf("Gamma(%v): mean %v", a, mean)
		}
	}
	var mean, sq float64
	for range samples {
		g := sampleGumbel(rng)
		mean += g
		sq += g * g
	}
	mean /= samples
	variance := sq/samples - mean*mean
	if math.Abs(mean-0.5772) > 0.03 || math.Abs(variance-math.Pi*math.Pi/6) > 0.08 {
		t.Errorf("Gumbel: mean %v variance %v, want 0.577 and 1.645", mean, variance)
	}
}

// TestRootNoise: Dirichlet noise changes the PUCT search (and differs by
// seed) but never the reported priors; NoiseFraction 0 turns it off.
func TestRootNoise(t *testing.T) {
	p := richPosition(t, 7, 8, 13)
	quiet := mustRun(t, mustSearch(t, Uniform{}, DefaultConfig(), 1), p, RunOptions{Sims: 200})
	noisy := mustRun(t, mustSearch(t, Uniform{}, DefaultConfig(), 1), p, RunOptions{Sims: 200, Noise: true})
	noisy2 := mustRun(t, mustSearch(t, Uniform{}, DefaultConfig(), 2), p, RunOptions{Sims: 200, Noise: true})
	if reflect.DeepEqual(quiet.Visits, noisy.Visits) || reflect.DeepEqual(noisy.Visits, noisy2.Visits) {
		t.Errorf("noise does not change the visits:\n%v\n%v\n%v", quiet.Visits, noisy.Visits, noisy2.Visits)
	}
	if !reflect.DeepEqual(quiet.Prior, noisy.Prior) {
		t.Errorf("noise leaked into the reported priors")
	}
	cfg := DefaultConfig()
	cfg.NoiseFraction = 0
	off := mustRun(t, mustSearch(t, Uniform{}, cfg, 1), p, RunOptions{Sims: 200, Noise: true})
	if !reflect.DeepEqual(quiet, off) {
		t.Errorf("NoiseFraction 0 still changes the search")
	}
}
