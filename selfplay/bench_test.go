package selfplay

import (
	"context"
	"testing"
	"time"

	"github.com/konanezero/konane/net"
)

// BenchmarkSelfplay8x8 measures self-play throughput on 8x8 at the default
// settings of konane train (a fresh default network): games per hour and
// network evaluations per second. Each iteration plays one round of
// Parallel games at once.
func BenchmarkSelfplay8x8(b *testing.B) {
	cfg := DefaultConfig(8)
	model, err := net.New(cfg.Net, 1)
	if err != nil {
		b.Fatal(err)
	}
	eval, err := net.NewEvaluator(model, net.EvalOptions{Batch: cfg.EvalBatch, Wait: time.Millisecond, CacheSize: cfg.CacheSize})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go eval.Run(ctx)
	seeds := make([]uint64, cfg.Parallel)
	b.ResetTimer()
	start := time.Now()
	games := 0
	for i := 0; i < b.N; i++ {
		for j := range seeds {
			seeds[j] = uint64(i*len(seeds) + j)
		}
		err := PlayGames(ctx, eval, cfg.Game, seeds, cfg.Parallel, func(int, Game) error { games++; return nil })
		if err != nil {
			b.Fatal(err)
		}
	}
	secs := time.Since(start).Seconds()
	st := eval.Stats()
	b.ReportMetric(float64(games)/secs*3600, "games/hour")
	b.ReportMetric(float64(st.NetPositions)/secs, "evals/s")
	b.ReportMetric(st.HitRate()*100, "cache-hit-%")
	b.ReportMetric(st.AvgBatch(), "avg-batch")
}
