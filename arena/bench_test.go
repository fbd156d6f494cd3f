package arena

import (
	"context"
	"math/rand/v2"
	"testing"
)

// BenchmarkFitElo fits 16 players from a round robin of 100 games per pair.
func BenchmarkFitElo(b *testing.B) {
	truth := make([]float64, 16)
	names := make([]string, len(truth))
	for i := range truth {
		truth[i] = float64(40 * i)
		names[i] = string(rune('a' + i))
	}
	pairs := simulate(truth, 100, rand.New(rand.NewPCG(1, 1)))
	for i := 0; i < b.N; i++ {
		if _, err := FitElo(names, pairs, 0, 1); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSampleCritical5x5 reports critical positions sampled and
// labelled per second on 5x5, with one solver.
func BenchmarkSampleCritical5x5(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := SampleCritical(context.Background(), SampleConfig{Size: 5, Positions: 50, Seed: uint64(i), Parallel: 1, SolverEntries: 1 << 18}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(50*b.N)/b.Elapsed().Seconds(), "positions/s")
}
