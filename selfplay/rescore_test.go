package selfplay

import (
	"context"
	"math"
	"testing"

	"github.com/konanezero/konane/mcts"
	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/solver"
)

// TestRescoreKnownAnswers: after rescoring, every sample small enough has
// the solver's value as its target and, when won, a policy on winning
// moves only; the others, and the moves played, are those of the same game
// without rescoring.
func TestRescoreKnownAnswers(t *testing.T) {
	cfg := DefaultConfig(5).Game
	cfg.MCTS.Solver = false // targets from rescoring alone
	cfg.Cap = mcts.PlayoutCap{FullSims: 8, FastSims: 4, FullFraction: 1}
	const maxStones = 14
	ex := solver.New(solver.WithTableEntries(1 << 16))
	rescored, wins, untouched := 0, 0, 0
	for seed := uint64(1); seed <= 6; seed++ {
		cfg.RescoreStones = 0
		plain, err := PlayGame(context.Background(), mcts.Uniform{}, cfg, seed)
		if err != nil {
			t.Fatal(err)
		}
		cfg.RescoreStones = maxStones
		g, err := PlayGame(context.Background(), mcts.Uniform{}, cfg, seed)
		if err != nil {
			t.Fatal(err)
		}
		if len(g.Samples) != len(plain.Samples) || len(g.Record.Moves) != len(plain.Record.Moves) {
			t.Fatalf("seed %d: rescoring changed the game: %d samples, %d moves; without it %d, %d",
				seed, len(g.Samples), len(g.Record.Moves), len(plain.Samples), len(plain.Record.Moves))
		}
		for i, s := range g.Samples {
			if b, w := s.Position.StoneCount(); b+w > maxStones {
				if s.Value != plain.Samples[i].Value || len(s.Policy) != len(plain.Samples[i].Policy) {
					t.Fatalf("seed %d sample %d (too many stones) changed by rescoring", seed, i)
				}
				untouched++
				continue
			}
			rescored++
			results, err := ex.Analyze(context.Background(), s.Position)
			if err != nil {
				t.Fatal(err)
			}
			winning := map[int32]bool{}
			for _, m := range solver.WinningMoves(results) {
				winning[int32(rules.ActionIndex(m, 5))] = true
			}
			want := float32(-1)
			if len(winning) > 0 {
				want = 1
				wins++
			}
			if s.Value != want {
				t.Fatalf("seed %d sample %d: value target %v, exact %v:\n%v", seed, i, s.Value, want, s.Position)
			}
			if want < 0 {
				continue
			}
			var sum float64
			for _, ap := range s.Policy {
				if !winning[ap.Action] {
					t.Fatalf("seed %d sample %d: policy target on action %d, which loses", seed, i, ap.Action)
				}
				sum += float64(ap.Prob)
			}
			if math.Abs(sum-1) > 1e-5 {
				t.Fatalf("seed %d sample %d: policy target sums to %v", seed, i, sum)
			}
		}
		if got := g.Record.Tag("Rescored"); got == "" {
			t.Fatalf("seed %d: no Rescored tag on the record", seed)
		}
	}
	if rescored == 0 || wins == 0 || wins == rescored || untouched == 0 {
		t.Fatalf("%d samples rescored (%d won), %d untouched: want some of each", rescored, wins, untouched)
	}
}

// TestExactTargetsPolicy: a won position keeps the search's weights on
// winning moves, renormalized, or spreads the target evenly over them when
// the search gave them nothing; a lost one keeps its policy.
func TestExactTargetsPolicy(t *testing.T) {
	p := rules.NewPosition(4) // its moves are the four removals
	moves := p.LegalMoves(nil)
	if len(moves) < 2 {
		t.Fatalf("want a position with two moves, have %d", len(moves))
	}
	a0, a1 := int32(rules.ActionIndex(moves[0], 4)), int32(rules.ActionIndex(moves[1], 4))

	s := net.Sample{Position: p, Value: -1, Policy: []net.ActionProb{{Action: a0, Prob: 0.2}, {Action: a1, Prob: 0.6}}}
	exactTargets(&s, moves[:1])
	if s.Value != 1 || len(s.Policy) != 1 || s.Policy[0] != (net.ActionProb{Action: a0, Prob: 1}) {
		t.Fatalf("won, search weight on the winner: got value %v policy %v", s.Value, s.Policy)
	}

	s = net.Sample{Position: p, Value: -1, Policy: []net.ActionProb{{Action: a1, Prob: 1}}}
	exactTargets(&s, moves[:1])
	if s.Value != 1 || len(s.Policy) != 1 || s.Policy[0] != (net.ActionProb{Action: a0, Prob: 1}) {
		t.Fatalf("won, no search weight on the winner: got value %v policy %v", s.Value, s.Policy)
	}

	s = net.Sample{Position: p, Value: 1, Policy: []net.ActionProb{{Action: a1, Prob: 1}}}
	exactTargets(&s, nil)
	if s.Value != -1 || len(s.Policy) != 1 || s.Policy[0].Action != a1 {
		t.Fatalf("lost: got value %v policy %v, want -1 and the search's policy", s.Value, s.Policy)
	}
}
