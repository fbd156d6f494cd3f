package train

import (
	"context"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/konanezero/konane/mcts"
	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/rules/rulestest"
)

// The trainer's tests draw their networks and samples as net's own tests
// do (net/helpers_test.go), through net's exported API.

// randomSamples returns samples of count random positions of a size with
// random target policies over their legal moves and random values.
func randomSamples(size, count int, seed uint64) []net.Sample {
	rng := rand.New(rand.NewPCG(seed, 2))
	var buf [rules.MaxMoves]rules.Move
	var out []net.Sample
	for _, p := range rulestest.Positions(rand.New(rand.NewPCG(seed, 1)), size, count) {
		s := net.Sample{Position: p, Value: float32(rng.IntN(2)*2 - 1)}
		for _, m := range p.LegalMoves(buf[:0]) {
			s.Policy = append(s.Policy, net.ActionProb{Action: int32(rules.ActionIndex(m, size)), Prob: rng.Float32()})
		}
		out = append(out, s)
	}
	return out
}

// randomBoardSamples is randomSamples on board b, from its start (wide
// samples on a board no Position holds).
func randomBoardSamples(t testing.TB, b rules.Board, count int, seed uint64) []net.Sample {
	t.Helper()
	if !b.Narrow() {
		start, err := b.WidePosition()
		if err != nil {
			t.Fatal(err)
		}
		prng := rand.New(rand.NewPCG(seed, 1))
		var ps []rules.WidePosition
		for len(ps) < count {
			game, _ := rules.WidePlayout(prng, start, -1)
			ps = append(ps, game[:min(len(game)-1, count-len(ps))]...) // the last has no move
		}
		rng := rand.New(rand.NewPCG(seed, 2))
		var out []net.Sample
		for _, p := range ps {
			s := net.Sample{Wide: p, Value: float32(rng.IntN(2)*2 - 1)}
			for _, m := range p.LegalMoves(nil) {
				s.Policy = append(s.Policy, net.ActionProb{Action: int32(rules.WideActionIndex(m, b.W, b.H)), Prob: rng.Float32()})
			}
			out = append(out, s)
		}
		return out
	}
	start, err := b.Position()
	if err != nil {
		t.Fatal(err)
	}
	prng := rand.New(rand.NewPCG(seed, 1))
	var ps []rules.Position
	for len(ps) < count {
		game, _ := rules.Playout(prng, start, -1)
		ps = append(ps, game[:min(len(game)-1, count-len(ps))]...) // the last has no move
	}
	rng := rand.New(rand.NewPCG(seed, 2))
	var buf [rules.MaxMoves]rules.Move
	var out []net.Sample
	for _, p := range ps {
		s := net.Sample{Position: p, Value: float32(rng.IntN(2)*2 - 1)}
		for _, m := range p.LegalMoves(buf[:0]) {
			s.Policy = append(s.Policy, net.ActionProb{Action: int32(rules.ActionIndex(m, int(p.Size))), Prob: rng.Float32()})
		}
		out = append(out, s)
	}
	return out
}

// tinyConfig is a small network for fast tests.
func tinyConfig(size int) net.Config {
	return net.Config{Size: size, Filters: 8, Blocks: 1, ValueHidden: 8, GlobalPool: true}
}

func mustModel(t testing.TB, cfg net.Config, seed uint64) *net.Model {
	t.Helper()
	m, err := net.New(cfg, seed)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// perturbed returns a copy of m with noise added to every weight, so that
// no path of the network is zero (New zero-initialises some layers).
func perturbed(m *net.Model, scale float64, seed uint64) *net.Model {
	rng := rand.New(rand.NewPCG(seed, 3))
	w := weightsOf(m)
	for _, k := range slices.Sorted(maps.Keys(w)) { // not map order: the same noise every run
		for i := range w[k] {
			w[k][i] += float32(rng.NormFloat64() * scale)
		}
	}
	p, err := net.FromWeights(m.Config(), m.Meta(), w)
	if err != nil {
		panic(err)
	}
	return p
}

// weightsOf returns a copy of m's weights by name.
func weightsOf(m *net.Model) map[string][]float32 {
	w := make(map[string][]float32)
	for _, p := range m.Config().Params() {
		w[p.Name] = m.Weight(p.Name)
	}
	return w
}

// multiConfig is a tiny multi-board network with the auxiliary heads.
func multiConfig() net.Config {
	c := tinyConfig(0)
	c.Hops, c.Captures, c.Aux = net.MultiBoardHops, true, net.AuxOwnership|net.AuxMovesLeft
	return c
}

// evaluate returns m's predictions of the positions, from an evaluator
// of batch 8.
func evaluate(t *testing.T, m *net.Model, ps []rules.Position) []mcts.Prediction {
	t.Helper()
	e, err := net.NewEvaluator(m, net.EvalOptions{Batch: 8})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- e.Run(ctx) }()
	defer func() { cancel(); <-done }()
	preds, err := e.Evaluate(ctx, ps)
	if err != nil {
		t.Fatal(err)
	}
	return preds
}
