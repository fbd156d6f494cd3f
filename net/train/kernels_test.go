package train

import (
	"math"
	"testing"

	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/net/internal/kernel"
	"github.com/konanezero/konane/net/internal/nettestutil"
)

// TestKernelsSameTraining: a training step of the default network gives
// bit-identical weights with every kernel.
func TestKernelsSameTraining(t *testing.T) {
	m := perturbed(mustModel(t, net.DefaultConfig(6), 5), 0.05, 2)
	samples := randomSamples(6, net.DefaultTrainOptions().Batch, 4)
	weights := nettestutil.EachKernel(t, func() []float32 {
		tr, err := New(m, net.DefaultTrainOptions())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tr.Step(samples); err != nil {
			t.Fatal(err)
		}
		tm, err := tr.Model(net.Metadata{})
		if err != nil {
			t.Fatal(err)
		}
		var all []float32
		for _, name := range []string{"stem.w", "block1.conv1.w", "block1.conv2.w"} {
			all = append(all, tm.Weight(name)...)
		}
		return all
	})
	for i := 1; i < len(weights); i++ {
		for j := range weights[0] {
			if math.Float32bits(weights[i][j]) != math.Float32bits(weights[0][j]) {
				t.Errorf("%v: trained weight %d differs from %v", kernel.Kernels()[i], j, kernel.Kernels()[0])
				break
			}
		}
	}
}
