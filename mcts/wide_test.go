package mcts

import (
	"context"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/konanezero/konane/rules"
)

// narrowResult is a WideResult with its moves on Position's layout.
func narrowResult(r WideResult) Result {
	out := Result{Visits: r.Visits, Q: r.Q, Prior: r.Prior, Policy: r.Policy, Value: r.Value, Proven: r.Proven, Best: r.Best.Narrow(), Sims: r.Sims}
	for _, m := range r.Moves {
		out.Moves = append(out.Moves, m.Narrow())
	}
	for _, m := range r.PV {
		out.PV = append(out.PV, m.Narrow())
	}
	return out
}

// TestWideSearchAgrees checks that a WideSearch finds, on positions both
// types hold, exactly what a Search finds: every mode, with and without
// noise, proofs on (the endgame solver off: the wide search has none),
// several Runs in a row reusing the tree.
func TestWideSearchAgrees(t *testing.T) {
	ctx := context.Background()
	cfgs := map[string]Config{"puct": plainConfig(), "gumbel": gumbelConfig()}
	proofs := DefaultConfig()
	proofs.SolveNodes = 0
	cfgs["solver"] = proofs
	for name, cfg := range cfgs {
		for _, b := range []rules.Board{rules.SquareBoard(6), {W: 7, H: 6, Start: rules.Gap}, rules.SquareBoard(8)} {
			start, err := b.Position()
			if err != nil {
				t.Fatal(err)
			}
			ps, ms := rules.Playout(rand.New(rand.NewPCG(uint64(b.W*b.H), 2)), start, -1)
			s := mustSearch(t, hashEval{}, cfg, 5)
			ws, err := NewWide(hashEval{}, cfg, 5)
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i+1 < len(ps); i += 3 {
				opts := RunOptions{Sims: 60, Noise: i%2 == 0}
				want := mustRun(t, s, ps[i], opts)
				got, err := ws.Run(ctx, ps[i].Wide(), opts)
				if err != nil {
					t.Fatal(err)
				}
				if g := narrowResult(got); !reflect.DeepEqual(g, want) {
					t.Fatalf("%s %v ply %d (%v): wide %+v, narrow %+v", name, b, i, ms[i], g, want)
				}
			}
		}
	}
}

// TestWideSearch15x12 checks the search on a board no Position holds: on
// 15x12 a Run returns a legal move, and the same seed gives the same
// result.
func TestWideSearch15x12(t *testing.T) {
	start, err := rules.Board{W: 15, H: 12, Start: rules.Gap}.WidePosition()
	if err != nil {
		t.Fatal(err)
	}
	ps, _ := rules.WidePlayout(rand.New(rand.NewPCG(1512, 3)), start, 20)
	for _, cfg := range []Config{DefaultConfig(), gumbelConfig()} {
		var results []WideResult
		for range 2 {
			s, err := NewWide(hashEval{}, cfg, 7)
			if err != nil {
				t.Fatal(err)
			}
			var r WideResult
			for _, p := range []rules.WidePosition{start, ps[len(ps)-1]} {
				if r, err = s.Run(context.Background(), p, RunOptions{Sims: 100, Noise: true}); err != nil {
					t.Fatal(err)
				}
				if !p.Legal(r.Best) || r.Sims != 100 {
					t.Fatalf("15x12: best move %v (legal %v) after %d simulations", r.Best, p.Legal(r.Best), r.Sims)
				}
			}
			results = append(results, r)
		}
		if !reflect.DeepEqual(results[0], results[1]) {
			t.Errorf("15x12, the same seed: %+v, then %+v", results[0], results[1])
		}
	}
}

// hashEval is an Evaluator and a WideEvaluator whose priors and value
// are drawn from the position's hash (the hash of its Position when one
// holds it): deterministic, not uniform, and the same for a position of
// either type.
type hashEval struct{}

func (hashEval) Evaluate(_ context.Context, ps []rules.Position) ([]Prediction, error) {
	out := make([]Prediction, len(ps))
	for i, p := range ps {
		out[i] = hashPrediction(p.Hash(), p.CountMoves())
	}
	return out, nil
}

func (hashEval) EvaluateWide(_ context.Context, ps []rules.WidePosition) ([]Prediction, error) {
	out := make([]Prediction, len(ps))
	for i, p := range ps {
		h := p.Hash()
		if q, err := p.Narrow(); err == nil {
			h = q.Hash()
		}
		out[i] = hashPrediction(h, p.CountMoves())
	}
	return out, nil
}

// hashPrediction draws n priors and a value from the key h.
func hashPrediction(h uint64, n int) Prediction {
	rng := rand.New(rand.NewPCG(h, 4))
	pred := Prediction{Policy: make([]float32, n), Value: -1}
	if n == 0 {
		return pred
	}
	var sum float32
	for k := range pred.Policy {
		pred.Policy[k] = rng.Float32() + 0.01
		sum += pred.Policy[k]
	}
	for k := range pred.Policy {
		pred.Policy[k] /= sum
	}
	pred.Value = 2*rng.Float32() - 1
	return pred
}
