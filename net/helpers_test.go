package net

import (
	"testing"

	"github.com/konanezero/konane/net/internal/nettestutil"
	"github.com/konanezero/konane/rules"
)

// The positions, targets and weight noise of net's and net/train's tests
// come from nettestutil; these wrap them in net's types.

// randomSamples returns samples of random positions with random target
// policies over their legal moves and random values.
func randomSamples(size, count int, seed uint64) []Sample {
	return samplesOf(nettestutil.Targets[ActionProb](size, count, seed))
}

// randomBoardSamples is randomSamples on board b (wide samples on a
// board no Position holds).
func randomBoardSamples(t testing.TB, b rules.Board, count int, seed uint64) []Sample {
	t.Helper()
	return samplesOf(nettestutil.BoardTargets[ActionProb](t, b, count, seed))
}

// samplesOf returns the samples of drawn targets.
func samplesOf(ts []nettestutil.Target[ActionProb]) []Sample {
	var out []Sample
	for _, x := range ts {
		out = append(out, Sample{Position: x.Position, Wide: x.Wide, Value: x.Value, Policy: x.Policy})
	}
	return out
}

// tinyConfig is a small network for fast tests.
func tinyConfig(size int) Config {
	return Config{Size: size, Filters: 8, Blocks: 1, ValueHidden: 8, GlobalPool: true}
}

func mustModel(t testing.TB, cfg Config, seed uint64) *Model {
	t.Helper()
	m, err := New(cfg, seed)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// perturbed returns a copy of m with noise added to every weight, so that
// no path of the network is zero (New zero-initialises some layers).
func perturbed(m *Model, scale float64, seed uint64) *Model {
	c := *m
	c.weights = make(map[string][]float32, len(m.weights))
	for k, w := range m.weights {
		c.weights[k] = append([]float32(nil), w...)
	}
	nettestutil.Perturb(c.weights, scale, seed)
	return &c
}
