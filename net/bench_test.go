package net

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkEvaluate measures the network's throughput through the
// evaluator (encoding, batching, softmax over legal moves; cache off) for
// the default 8x8 net, one Evaluate call of a full batch per iteration.
func BenchmarkEvaluate(b *testing.B) {
	cfg := DefaultConfig(8)
	m := mustModel(b, cfg, 1)
	ps := randomPositions(8, 64, 1)
	for _, batch := range []int{1, 16, 64} {
		b.Run(fmt.Sprintf("batch=%d", batch), func(b *testing.B) {
			e, err := NewEvaluator(m, EvalOptions{Batch: batch})
			if err != nil {
				b.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- e.Run(ctx) }()
			defer func() { cancel(); <-done }()
			in := ps[:batch]
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := e.Evaluate(ctx, in); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*batch)/b.Elapsed().Seconds(), "positions/s")
			b.ReportMetric(float64(cfg.FLOPs()), "flops/position")
		})
	}
}

// BenchmarkTrainStep measures training samples per second of the default
// 8x8 net at the default batch, augmentation on.
func BenchmarkTrainStep(b *testing.B) {
	opts := DefaultTrainOptions()
	tr, err := NewTrainer(mustModel(b, DefaultConfig(8), 1), opts)
	if err != nil {
		b.Fatal(err)
	}
	batch := randomSamples(8, opts.Batch, 1)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := tr.Step(batch); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*opts.Batch)/b.Elapsed().Seconds(), "samples/s")
}

// BenchmarkEncode measures the input encoding alone.
func BenchmarkEncode(b *testing.B) {
	ps := randomPositions(8, 64, 1)
	dst := make([]float32, EncodedLen(8))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		Encode(ps[i%len(ps)], dst)
	}
}
