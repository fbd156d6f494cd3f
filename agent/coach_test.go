package agent

import (
	"context"
	"testing"

	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/solver"
)

// TestJudge: on 5x5 (the exact solver's board, so every figure is
// exact), along a game of the solver's moves, Judge has no verdict on
// the search's best move and on every winning move (no drop), and on
// each losing move in a won position a blunder from 100% to 0% with a
// winning move as the better one; the solver confirms each (-short:
// up to the first won position with a losing move).
func TestJudge(t *testing.T) {
	e, err := NewSolverEngine(5)
	if err != nil {
		t.Fatal(err)
	}
	a, err := e.NewAgent(1)
	if err != nil {
		t.Fatal(err)
	}
	l, err := ParseLevel(AdviceLevel)
	if err != nil {
		t.Fatal(err)
	}
	limits := AdviceLimits(l.Limits())
	ctx := context.Background()
	g, err := rules.NewGame(5)
	if err != nil {
		t.Fatal(err)
	}
	blunders := 0
	for !g.Over() {
		p := g.Position()
		res, err := solver.New().Analyze(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		wins := map[rules.Move]bool{}
		for _, r := range res {
			if r.Wins {
				wins[r.Move] = true
			}
		}
		for _, r := range res {
			v, ok, err := a.Judge(ctx, p, r.Move, limits)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case len(wins) == 0: // lost whatever: nothing to say
				if ok {
					t.Errorf("%v in a lost position: %+v", r.Move, v)
				}
			case r.Wins:
				if ok && v.Blunder() {
					t.Errorf("the winning %v judged a blunder: %+v", r.Move, v)
				}
			default:
				if !ok || !v.Blunder() || v.From != 1 || v.To != 0 || !wins[v.Better] || v.Move != r.Move {
					t.Errorf("the losing %v (winning moves %v): %+v, %v", r.Move, wins, v, ok)
				}
				blunders++
			}
		}
		if testing.Short() && blunders > 0 {
			break // one won position's moves, in -short
		}
		m, err := a.Move(ctx, p, limits)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(m.Best); err != nil {
			t.Fatal(err)
		}
	}
	if blunders == 0 {
		t.Fatal("no losing move in a won position along the game: nothing tested")
	}
}
