//go:build measure

package train

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/rules/rulestest"
	"github.com/konanezero/konane/solver"
)

// solvedSamples labels random 5x5 positions with the solver: value +1 when
// the side to move wins, policy uniform over the winning moves (over all
// moves when none wins).
func solvedSamples(t *testing.T, count int, seed uint64) []net.Sample {
	s := solver.New()
	var out []net.Sample
	for _, p := range rulestest.Positions(rand.New(rand.NewPCG(seed, 1)), 5, count) {
		res, err := s.Analyze(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		smp := net.Sample{Position: p, Value: -1}
		for _, r := range res {
			if r.Wins {
				smp.Value = 1
			}
		}
		for _, r := range res {
			if r.Wins || smp.Value < 0 {
				smp.Policy = append(smp.Policy, net.ActionProb{Action: int32(rules.ActionIndex(r.Move, 5)), Prob: 1})
			}
		}
		out = append(out, smp)
	}
	return out
}

// TestMeasureArchitectures trains variants of the network on the same
// solver-labelled 5x5 positions and reports held-out losses: global
// pooling on/off, the mobility planes on/off, and sizes of the tower.
// It takes minutes of CPU, so it is built only with a tag:
//
//	go test -tags measure -run MeasureArch -timeout 30m -v ./net/train
func TestMeasureArchitectures(t *testing.T) {
	train := solvedSamples(t, 6000, 1)
	test := solvedSamples(t, 1000, 2)
	wins := 0
	for _, s := range test {
		if s.Value > 0 {
			wins++
		}
	}
	t.Logf("held-out: %d positions, %.0f%% won by the side to move", len(test), 100*float64(wins)/float64(len(test)))
	for _, v := range []struct {
		name     string
		cfg      net.Config
		mobility bool
	}{
		{"32x2 gp", net.Config{Size: 5, Filters: 32, Blocks: 2, ValueHidden: 32, GlobalPool: true}, true},
		{"32x2 no-gp", net.Config{Size: 5, Filters: 32, Blocks: 2, ValueHidden: 32}, true},
		{"32x2 gp, no mobility planes", net.Config{Size: 5, Filters: 32, Blocks: 2, ValueHidden: 32, GlobalPool: true}, false},
		{"32x3 gp", net.Config{Size: 5, Filters: 32, Blocks: 3, ValueHidden: 32, GlobalPool: true}, true},
		{"48x2 gp", net.Config{Size: 5, Filters: 48, Blocks: 2, ValueHidden: 32, GlobalPool: true}, true},
	} {
		opts := net.TrainOptions{Batch: 64, LR: 0.02, Momentum: 0.9, WeightDecay: 1e-4, WarmupSteps: 20,
			DecaySteps: []int64{500}, DecayFactor: 0.1, Augment: true, Seed: 1}
		tr, err := New(mustModel(t, v.cfg, 1), opts)
		if err != nil {
			t.Fatal(err)
		}
		if !v.mobility {
			tr.zeroPlanes = []int{5, 6} // the mobility planes, 6th and 7th of net.EncodingOrigins
		}
		for step := 0; step < 600; step++ {
			i := (step * 64) % (len(train) - 64)
			if _, err := tr.Step(train[i : i+64]); err != nil {
				t.Fatal(err)
			}
		}
		m, _ := tr.Model(net.Metadata{})
		// Held-out losses through the training graph at learning rate ~0.
		ev, _ := New(m, net.TrainOptions{Batch: 100, LR: 1e-12})
		ev.zeroPlanes = tr.zeroPlanes
		var pol, val float64
		for i := 0; i < len(test); i += 100 {
			l, err := ev.Step(test[i : i+100])
			if err != nil {
				t.Fatal(err)
			}
			pol += l.Policy / 10
			val += l.Value / 10
		}
		t.Logf("%-28s params %6d  held-out policy CE %.4f  value MSE %.4f", v.name, m.NumParams(), pol, val)
	}
}
