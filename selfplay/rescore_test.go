package selfplay

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"strings"
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
		plain := uniformGame(t, cfg, seed)
		cfg.RescoreStones = maxStones
		g := uniformGame(t, cfg, seed)
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

// TestRescoreChildren: with GameConfig.RescoreChildren, each rescored
// sample brings up to that many value-only samples of its children, each
// with the solver's value for its side to move; the game and its own
// samples are those without children, and the same seed gives the same
// children.
func TestRescoreChildren(t *testing.T) {
	cfg := DefaultConfig(5).Game
	cfg.MCTS.Solver = false
	cfg.Cap = mcts.PlayoutCap{FullSims: 8, FastSims: 4, FullFraction: 1}
	cfg.RescoreStones = 14
	ex := solver.New(solver.WithTableEntries(1 << 16))
	added := 0
	for seed := uint64(1); seed <= 4; seed++ {
		cfg.RescoreChildren = 0
		plain := uniformGame(t, cfg, seed)
		cfg.RescoreChildren = 2
		g, again := uniformGame(t, cfg, seed), uniformGame(t, cfg, seed)
		if !reflect.DeepEqual(g.Samples, again.Samples) {
			t.Fatalf("seed %d: the same game gave other children", seed)
		}
		n := len(plain.Samples)
		if !reflect.DeepEqual(g.Samples[:n], plain.Samples) || !reflect.DeepEqual(g.Record.Moves, plain.Record.Moves) {
			t.Fatalf("seed %d: children changed the game or its samples", seed)
		}
		parents := map[rules.Position]int{} // child -> how many rescored samples it is a child of
		rescored := 0
		for _, s := range plain.Samples {
			if b, w := s.Position.StoneCount(); b+w > cfg.RescoreStones {
				continue
			}
			rescored++
			for _, m := range s.Position.LegalMoves(nil) {
				parents[s.Position.Play(m)]++
			}
		}
		kids := g.Samples[n:]
		if len(kids) > 2*rescored || (rescored > 0 && len(kids) == 0) {
			t.Fatalf("seed %d: %d children for %d rescored samples (up to 2 each)", seed, len(kids), rescored)
		}
		for i, k := range kids {
			if len(k.Policy) != 0 || parents[k.Position] == 0 {
				t.Fatalf("seed %d child %d: policy %v, a child of a rescored sample: %v", seed, i, k.Policy, parents[k.Position] > 0)
			}
			win, err := ex.Solve(context.Background(), k.Position)
			if err != nil {
				t.Fatal(err)
			}
			if want := map[bool]float32{true: 1, false: -1}[win]; k.Value != want {
				t.Fatalf("seed %d child %d: value %v, exact %v:\n%v", seed, i, k.Value, want, k.Position)
			}
		}
		added += len(kids)
		if tag := g.Record.Tag("Rescored"); !strings.Contains(tag, fmt.Sprintf("%d value-only children", len(kids))) {
			t.Errorf("seed %d: Rescored tag %q does not count the %d children", seed, tag, len(kids))
		}
	}
	if added == 0 {
		t.Fatal("no child samples in four games")
	}
}

// TestRescoreChildPolicy: with RescoreChildPolicy, the children are the
// same and a child whose side to move wins gets exactly its winning moves,
// alike, as its policy target (checked against a solver of its own); a
// lost child stays value-only.
func TestRescoreChildPolicy(t *testing.T) {
	cfg := DefaultConfig(5).Game
	cfg.MCTS.Solver = false
	cfg.Cap = mcts.PlayoutCap{FullSims: 8, FastSims: 4, FullFraction: 1}
	cfg.RescoreStones, cfg.RescoreChildren = 14, 3
	ex := solver.New(solver.WithTableEntries(1 << 16))
	withPolicy := 0
	for seed := uint64(1); seed <= 4; seed++ {
		cfg.RescoreChildPolicy = false
		plain := uniformGame(t, cfg, seed)
		cfg.RescoreChildPolicy = true
		g := uniformGame(t, cfg, seed)
		if len(g.Samples) != len(plain.Samples) {
			t.Fatalf("seed %d: %d samples with children's policies, %d without", seed, len(g.Samples), len(plain.Samples))
		}
		kids, won := 0, 0 // children (value-only without the option), and those given a policy
		for i := range g.Samples {
			k, want := g.Samples[i], plain.Samples[i]
			if len(want.Policy) == 0 {
				kids++
			}
			if k.Position != want.Position || k.Value != want.Value {
				t.Fatalf("seed %d sample %d: position or value changed", seed, i)
			}
			if len(want.Policy) > 0 || k.Value < 0 {
				if !reflect.DeepEqual(k.Policy, want.Policy) {
					t.Fatalf("seed %d sample %d: policy %v, want %v", seed, i, k.Policy, want.Policy)
				}
				continue
			}
			// A won child: its target is its winning moves, alike.
			results, err := ex.Analyze(context.Background(), k.Position)
			if err != nil {
				t.Fatal(err)
			}
			wins := solver.WinningMoves(results)
			if len(wins) == 0 || len(k.Policy) != len(wins) {
				t.Fatalf("seed %d child %d: policy %v for winning moves %v", seed, i, k.Policy, wins)
			}
			for j, m := range wins {
				ap := k.Policy[j]
				if ap.Action != int32(rules.ActionIndex(m, 5)) || math.Abs(float64(ap.Prob)-1/float64(len(wins))) > 1e-6 {
					t.Fatalf("seed %d child %d: policy %v for winning moves %v", seed, i, k.Policy, wins)
				}
			}
			won++
		}
		withPolicy += won
		if tag := g.Record.Tag("Rescored"); !strings.Contains(tag, fmt.Sprintf("%d children (%d with policies)", kids, won)) {
			t.Errorf("seed %d: Rescored tag %q does not count the %d children, %d with policies", seed, tag, kids, won)
		}
	}
	if withPolicy == 0 {
		t.Fatal("no won child in four games")
	}
	cfg.RescoreChildren = 0
	if err := cfg.Validate(); err == nil {
		t.Error("children's policies without children: no error")
	}
}

// uniformGame plays the self-play game of seed with a uniform evaluator.
func uniformGame(t *testing.T, cfg GameConfig, seed uint64) Game {
	t.Helper()
	g, err := PlayGame(context.Background(), mcts.Uniform{}, cfg, seed)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestMeanEntropyValueOnly: value-only samples (no policy) do not count in
// the mean entropy of the policy targets.
func TestMeanEntropyValueOnly(t *testing.T) {
	p := rules.NewPosition(4)
	half := net.Sample{Position: p, Policy: []net.ActionProb{{Action: 0, Prob: 0.5}, {Action: 1, Prob: 0.5}}}
	valueOnly := net.Sample{Position: p, Value: 1}
	if got := meanEntropy([]net.Sample{half, valueOnly, valueOnly}); math.Abs(got-math.Ln2) > 1e-9 {
		t.Errorf("mean entropy %v, want ln 2 = %v (the value-only samples left out)", got, math.Ln2)
	}
	if got := meanEntropy([]net.Sample{valueOnly}); got != 0 {
		t.Errorf("mean entropy of value-only samples %v, want 0", got)
	}
}
