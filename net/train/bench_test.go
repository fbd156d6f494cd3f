package train

import (
	"testing"

	"github.com/konanezero/konane/net"
)

// BenchmarkTrainStep measures training samples per second of the default
// 8x8 net at the default batch, augmentation on.
func BenchmarkTrainStep(b *testing.B) {
	opts := net.DefaultTrainOptions()
	tr, err := New(mustModel(b, net.DefaultConfig(8), 1), opts)
	if err != nil {
		b.Fatal(err)
	}
	batch := randomSamples(8, opts.Batch, 1)
	// Warm up: the first step allocates the graph's buffers.
	if _, err := tr.Step(batch); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := tr.Step(batch); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*opts.Batch)/b.Elapsed().Seconds(), "samples/s")
}
