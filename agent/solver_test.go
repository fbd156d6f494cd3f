package agent

import (
	"context"
	"slices"
	"testing"

	"github.com/konanezero/konane/player"
	"github.com/konanezero/konane/rules"
)

// TestSolverEngine: on 4x4 and 5x5 the agent needs no
// model and never loses a won position: the agent that moves first in a
// won position (the first the agent's analysis finds) beats a random
// player every time; its analysis is proven.
func TestSolverEngine(t *testing.T) {
	es, err := OpenEngines("")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{4, 5} {
		if !slices.Contains(es.Sizes(), n) || !Perfect(n) {
			t.Fatalf("%dx%d missing from the sizes %v", n, n, es.Sizes())
		}
		e, err := es.Get(n)
		if err != nil {
			t.Fatal(err)
		}
		if e.Model() != nil || e.Size() != n {
			t.Fatalf("%dx%d: engine with model %v, size %d", n, n, e.Model(), e.Size())
		}
		ctx := context.Background()
		s, _ := NewLimits("easy", 0, 0)
		for seed := uint64(1); seed <= 3; seed++ {
			a, err := e.NewAgent(seed)
			if err != nil {
				t.Fatal(err)
			}
			opp := player.NewRandom(seed)
			g, err := rules.NewGame(n)
			if err != nil {
				t.Fatal(err)
			}
			p := g.Position()
			var winner, agentSide rules.Color
			taken := false
			for p.HasMoves() {
				an, err := a.Advise(ctx, p, s)
				if err != nil {
					t.Fatal(err)
				}
				if !an.Proven || (an.Value != 1 && an.Value != -1) {
					t.Fatalf("%dx%d: analysis not proven: %+v", n, n, an)
				}
				if !taken && an.Value == 1 {
					agentSide, taken = p.Turn, true // the agent takes the side that wins from here
				}
				var m rules.Move
				if taken && p.Turn == agentSide {
					an, err := a.Move(ctx, p, s)
					if err != nil {
						t.Fatal(err)
					}
					m = an.Best
				} else if m, err = opp.Move(ctx, p); err != nil {
					t.Fatal(err)
				}
				p = p.Play(m)
				winner = p.Turn.Other()
			}
			if taken && winner != agentSide {
				t.Errorf("%dx%d seed %d: the solver agent lost a won game", n, n, seed)
			}
		}
	}
	if _, err := NewSolverEngine(6); err == nil {
		t.Error("a 6x6 solver engine was made")
	}
}
