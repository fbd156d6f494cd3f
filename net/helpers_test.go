package net

import (
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/rules/rulestest"
)

// randomPositions returns count positions with legal moves of a size,
// reached by random games from the start (removal phases included).
func randomPositions(size, count int, seed uint64) []rules.Position {
	return rulestest.Positions(rand.New(rand.NewPCG(seed, 1)), size, count)
}

// randomSamples returns samples of random positions with random target
// policies over their legal moves and random values.
func randomSamples(size, count int, seed uint64) []Sample {
	rng := rand.New(rand.NewPCG(seed, 2))
	var buf [rules.MaxMoves]rules.Move
	var out []Sample
	for _, p := range randomPositions(size, count, seed) {
		s := Sample{Position: p, Value: float32(rng.IntN(2)*2 - 1)}
		for _, m := range p.LegalMoves(buf[:0]) {
			s.Policy = append(s.Policy, ActionProb{Action: int32(rules.ActionIndex(m, size)), Prob: rng.Float32()})
		}
		out = append(out, s)
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
	rng := rand.New(rand.NewPCG(seed, 3))
	c := *m
	c.weights = make(map[string][]float32)
	for _, k := range slices.Sorted(maps.Keys(m.weights)) { // not map order: the same noise every run
		w := m.weights[k]
		nw := make([]float32, len(w))
		for i := range w {
			nw[i] = w[i] + float32(rng.NormFloat64()*scale)
		}
		c.weights[k] = nw
	}
	return &c
}

// randomBoardPositions returns count non-terminal positions of random
// games on board b, from its start.
func randomBoardPositions(t testing.TB, b rules.Board, count int, seed uint64) []rules.Position {
	t.Helper()
	start, err := b.Position()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	var out []rules.Position
	for len(out) < count {
		ps, _ := rules.Playout(rng, start, -1)
		out = append(out, ps[:min(len(ps)-1, count-len(out))]...) // the last has no move
	}
	return out
}

// randomBoardSamples is randomSamples on board b (wide samples on a
// board no Position holds).
func randomBoardSamples(t testing.TB, b rules.Board, count int, seed uint64) []Sample {
	rng := rand.New(rand.NewPCG(seed, 2))
	if !b.Narrow() {
		var out []Sample
		for _, p := range wideBoardPositions(t, b, count, seed) {
			s := Sample{Wide: p, Value: float32(rng.IntN(2)*2 - 1)}
			for _, m := range p.LegalMoves(nil) {
				s.Policy = append(s.Policy, ActionProb{Action: int32(rules.WideActionIndex(m, b.W, b.H)), Prob: rng.Float32()})
			}
			out = append(out, s)
		}
		return out
	}
	var buf [rules.MaxMoves]rules.Move
	var out []Sample
	for _, p := range randomBoardPositions(t, b, count, seed) {
		s := Sample{Position: p, Value: float32(rng.IntN(2)*2 - 1)}
		for _, m := range p.LegalMoves(buf[:0]) {
			s.Policy = append(s.Policy, ActionProb{Action: int32(rules.ActionIndex(m, int(p.Size))), Prob: rng.Float32()})
		}
		out = append(out, s)
	}
	return out
}
