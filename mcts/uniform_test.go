package mcts

import (
	"context"
	"math"
	"reflect"
	"testing"

	"github.com/konanezero/konane/rules"
	"golang.org/x/sync/errgroup"
)

// TestUniform: equal priors summing to 1, value 0, and for a finished game
// no priors and value -1.
func TestUniform(t *testing.T) {
	ps := samplePositions(6, 2, 1)
	ps = append(ps, rules.NewPosition(8))
	lost := finishedGame()
	ps = append(ps, lost)
	preds, err := Uniform{}.Evaluate(context.Background(), ps)
	if err != nil || len(preds) != len(ps) {
		t.Fatalf("%d predictions, %v", len(preds), err)
	}
	for i, p := range ps {
		n := p.CountMoves()
		pr := preds[i]
		if len(pr.Policy) != n {
			t.Fatalf("%d priors for %d moves", len(pr.Policy), n)
		}
		if n == 0 {
			if pr.Value != -1 {
				t.Errorf("finished game: value %v, want -1", pr.Value)
			}
			continue
		}
		var s float64
		for _, x := range pr.Policy {
			s += float64(x)
			if x != pr.Policy[0] {
				t.Errorf("unequal priors %v", pr.Policy)
			}
		}
		if math.Abs(s-1) > 1e-5 || pr.Value != 0 {
			t.Errorf("priors sum to %v, value %v", s, pr.Value)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (Uniform{}).Evaluate(ctx, ps); err == nil {
		t.Error("cancelled context: no error")
	}
}

// finishedGame plays random moves to the end of a 5x5 game.
func finishedGame() rules.Position {
	ps := samplePositions(5, 1, 2)
	last := ps[len(ps)-1]
	return last.Play(last.LegalMoves(nil)[0])
}

// TestRandomRollout: values are ±1 averages in [-1,1], a pure function of
// (seed, position); the seed matters; a won position is worth 1; bad
// Rollouts is an error.
func TestRandomRollout(t *testing.T) {
	ctx := context.Background()
	ps := samplePositions(7, 3, 4)
	a, err := RandomRollout{Seed: 1, Rollouts: 3}.Evaluate(ctx, ps)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := RandomRollout{Seed: 1, Rollouts: 3}.Evaluate(ctx, ps)
	c, _ := RandomRollout{Seed: 2, Rollouts: 3}.Evaluate(ctx, ps)
	if !reflect.DeepEqual(a, b) {
		t.Error("same seed, different values")
	}
	if reflect.DeepEqual(a, c) {
		t.Error("seeds 1 and 2 give the same values everywhere")
	}
	for _, pr := range a {
		v := pr.Value * 3
		if math.Abs(float64(v-float32(math.Round(float64(v))))) > 1e-5 || v < -3 || v > 3 {
			t.Errorf("value %v is not an average of three ±1", pr.Value)
		}
	}
	// One position alone gets the value it gets in a batch.
	single, _ := RandomRollout{Seed: 1, Rollouts: 3}.Evaluate(ctx, ps[5:6])
	if single[0].Value != a[5].Value {
		t.Errorf("value depends on the batch: %v alone, %v in a batch", single[0].Value, a[5].Value)
	}
	// Black's only move wins at once: every playout is a win.
	won := rules.Position{Size: 4, Turn: rules.Black, Black: rules.SquareAt(0, 1).Bit(),
		White: rules.SquareAt(0, 2).Bit() | rules.SquareAt(1, 0).Bit()}
	if pr, _ := (RandomRollout{Rollouts: 5}).Evaluate(ctx, []rules.Position{won}); pr[0].Value != 1 {
		t.Errorf("won position: value %v, want 1", pr[0].Value)
	}
	if _, err := (RandomRollout{Rollouts: -1}).Evaluate(ctx, ps); err == nil {
		t.Error("negative rollouts: no error")
	}
}

// TestConcurrentSearches: many Searches in goroutines sharing one
// evaluator give exactly the results they give one after another.
func TestConcurrentSearches(t *testing.T) {
	ev := RandomRollout{Seed: 9}
	ps := samplePositions(6, 8, 21)
	game := func(i int) ([]Result, error) {
		cfg := modes[i%2].cfg()
		cfg.LeafBatch = 1 + i%4
		s, err := New(ev, cfg, uint64(i))
		if err != nil {
			return nil, err
		}
		p := ps[i*3]
		var out []Result
		for p.HasMoves() && len(out) < 5 {
			res, err := s.Run(context.Background(), p, RunOptions{Sims: 40, Noise: true})
			if err != nil {
				return nil, err
			}
			out = append(out, res)
			p = p.Play(res.Best)
		}
		return out, nil
	}
	const games = 8
	want := make([][]Result, games)
	for i := range games {
		r, err := game(i)
		if err != nil {
			t.Fatal(err)
		}
		want[i] = r
	}
	got := make([][]Result, games)
	var g errgroup.Group
	for i := range games {
		g.Go(func() error {
			r, err := game(i)
			got[i] = r
			return err
		})
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	for i := range games {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("game %d differs when run concurrently", i)
		}
	}
}
