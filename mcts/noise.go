package mcts

import (
	"math"
	"math/rand/v2"
)

// dirichlet appends to buf a sample of the symmetric Dirichlet
// distribution of n components with concentration alpha, and returns it.
// It works in log space, so that a small alpha (many legal moves) never
// underflows to all zeros.
func dirichlet(rng *rand.Rand, alpha float64, buf []float64, n int) []float64 {
	maxLog := math.Inf(-1)
	for range n {
		l := logGamma(rng, alpha)
		buf = append(buf, l)
		maxLog = max(maxLog, l)
	}
	return expNormalize(buf, maxLog)
}

// expNormalize turns logs (up to a common constant) into probabilities in
// place: exp(x - top), divided by the sum. top is the largest element, so
// that nothing overflows.
func expNormalize(logs []float64, top float64) []float64 {
	var sum float64
	for i := range logs {
		logs[i] = math.Exp(logs[i] - top)
		sum += logs[i]
	}
	for i := range logs {
		logs[i] /= sum
	}
	return logs
}

// logGamma returns the logarithm of a Gamma(alpha, 1) variate, by
// Marsaglia and Tsang's method; for alpha < 1 it uses
// Gamma(alpha) = Gamma(alpha+1) · U^(1/alpha).
func logGamma(rng *rand.Rand, alpha float64) float64 {
	boost := 0.0
	if alpha < 1 {
		boost = math.Log(openUniform(rng)) / alpha
		alpha++
	}
	d := alpha - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := rng.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := openUniform(rng)
		if math.Log(u) < 0.5*x*x+d-d*v+d*math.Log(v) {
			return math.Log(d*v) + boost
		}
	}
}

// sampleGumbel returns a standard Gumbel variate -log(-log U).
func sampleGumbel(rng *rand.Rand) float64 {
	return -math.Log(-math.Log(openUniform(rng)))
}

// openUniform returns a uniform number in (0, 1).
func openUniform(rng *rand.Rand) float64 {
	for {
		if u := rng.Float64(); u > 0 {
			return u
		}
	}
}
