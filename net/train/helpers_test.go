package train

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/konanezero/konane/mcts"
	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/net/internal/nettestutil"
	"github.com/konanezero/konane/rules"
)

// The trainer's tests draw their positions, targets and weight noise
// from nettestutil, as net's own tests do (net/helpers_test.go).

// randomSamples returns samples of count random positions of a size with
// random target policies over their legal moves and random values.
func randomSamples(size, count int, seed uint64) []net.Sample {
	return samplesOf(nettestutil.Targets[net.ActionProb](size, count, seed))
}

// randomBoardSamples is randomSamples on board b, from its start (wide
// samples on a board no Position holds).
func randomBoardSamples(t testing.TB, b rules.Board, count int, seed uint64) []net.Sample {
	t.Helper()
	return samplesOf(nettestutil.BoardTargets[net.ActionProb](t, b, count, seed))
}

// samplesOf returns the samples of drawn targets.
func samplesOf(ts []nettestutil.Target[net.ActionProb]) []net.Sample {
	var out []net.Sample
	for _, x := range ts {
		out = append(out, net.Sample{Position: x.Position, Wide: x.Wide, Value: x.Value, Policy: x.Policy})
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
	w := weightsOf(m)
	nettestutil.Perturb(w, scale, seed)
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
	nettestutil.Run(t, e.Run)
	preds, err := e.Evaluate(context.Background(), ps)
	if err != nil {
		t.Fatal(err)
	}
	return preds
}

// reloaded is a new trainer of cfg (other initial weights) that has loaded
// tr's checkpoint, saved to a temporary file.
func reloaded(t *testing.T, tr *Trainer, cfg net.Config, opts net.TrainOptions) *Trainer {
	t.Helper()
	path := filepath.Join(t.TempDir(), "ckpt.safetensors")
	if err := tr.SaveCheckpoint(path); err != nil {
		t.Fatal(err)
	}
	back, err := New(mustModel(t, cfg, 2), opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := back.LoadCheckpoint(path); err != nil {
		t.Fatal(err)
	}
	return back
}
