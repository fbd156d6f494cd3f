package agent_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/agent/agenttest"
	"github.com/konanezero/konane/arena"
	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/rules/rulestest"
	"github.com/konanezero/konane/solver"
)

// forcedMove returns the one move of p that wins at once (the opponent
// is left without a move) when exactly one does, or, when none does, the
// one move after which the opponent cannot win at once, when exactly one
// is; ok is false otherwise.
func forcedMove(p rules.Position) (m rules.Move, ok bool) {
	var wins, escapes []rules.Move
	for _, m := range p.LegalMoves(nil) {
		c := p.Play(m)
		if !c.HasMoves() {
			wins = append(wins, m)
		}
		if !slices.ContainsFunc(c.LegalMoves(nil), func(r rules.Move) bool { return !c.Play(r).HasMoves() }) {
			escapes = append(escapes, m)
		}
	}
	switch {
	case len(wins) == 1:
		return wins[0], true
	case len(wins) == 0 && len(escapes) == 1:
		return escapes[0], true
	}
	return rules.NoMove, false
}

// TestWeakestLevelPlaysForcedMoves: on positions of random 6x6 and 8x8
// games with exactly one move that wins at once or escapes an immediate
// loss (at least 500 in all; -short fewer), the weakest level plays it
// at least 90% of the time, though it draws its other moves.
func TestWeakestLevelPlaysForcedMoves(t *testing.T) {
	want := 500
	if testing.Short() {
		want = 100
	}
	es := agenttest.RunEngines(t)
	weakest := agent.Levels()[0]
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(45, 1))
	played, total := 0, 0
	for total < want {
		for _, size := range []int{6, 8} {
			e, err := es.Get(size)
			if err != nil {
				t.Fatal(err)
			}
			a, err := e.NewAgent(rng.Uint64())
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range rulestest.Games(rng, size, 1) {
				m, ok := forcedMove(p)
				if !ok {
					continue
				}
				an, err := a.Move(ctx, p, weakest.Limits())
				if err != nil {
					t.Fatal(err)
				}
				total++
				if an.Best == m {
					played++
				}
			}
		}
	}
	if share := float64(played) / float64(total); share < 0.9 {
		t.Errorf("level %s played the one winning or saving move in %d of %d positions (%.0f%%), want at least 90%%", weakest.Name, played, total, 100*share)
	}
	t.Logf("level %s played the one winning or saving move in %d of %d positions", weakest.Name, played, total)
}

// TestWeakestLevelDraws: the weakest level's games on 8x8 vary with the
// agent's seed, and the same seed gives the same game.
func TestWeakestLevelDraws(t *testing.T) {
	es := agenttest.RunEngines(t)
	e, err := es.Get(8)
	if err != nil {
		t.Fatal(err)
	}
	s := agent.Levels()[0].Limits()
	a, b := playOut(t, e, 3, s, false), playOut(t, e, 3, s, true)
	if !slices.Equal(a, b) {
		t.Errorf("seed 3 played two games:\n%s\n%s", rules.MovesText(a), rules.MovesText(b))
	}
	if c := playOut(t, e, 4, s, false); slices.Equal(a, c) {
		t.Errorf("seeds 3 and 4 played the same game: %s", rules.MovesText(a))
	}
}

// TestSolverBoardLevels: on 5x5, where the exact solver plays, the top
// level never gives a won position away and the weakest level does, but
// only in about its share of random moves.
func TestSolverBoardLevels(t *testing.T) {
	es := agenttest.RunEngines(t)
	e, err := es.Get(5)
	if err != nil {
		t.Fatal(err)
	}
	levels := agent.Levels()
	top, weakest := levels[len(levels)-1], levels[0]
	if !top.Perfect() || weakest.Perfect() {
		t.Fatalf("top level perfect %v, weakest %v", top.Perfect(), weakest.Perfect())
	}
	sv := solver.New(solver.WithTableEntries(1 << 16))
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(5, 5))
	n := 200
	if testing.Short() {
		n = 60
	}
	var won, lostTop, lostWeak int
	for _, p := range rulestest.Positions(rng, 5, 4*n) {
		if won == n {
			break
		}
		res, err := sv.Analyze(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		if len(solver.WinningMoves(res)) == 0 || len(solver.WinningMoves(res)) == len(res) {
			continue // lost, or every move wins: nothing to give away
		}
		won++
		for _, tc := range []struct {
			l    agent.Level
			lost *int
		}{{top, &lostTop}, {weakest, &lostWeak}} {
			a, err := e.NewAgent(rng.Uint64())
			if err != nil {
				t.Fatal(err)
			}
			an, err := a.Move(ctx, p, tc.l.Limits())
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(solver.WinningMoves(res), an.Best) {
				*tc.lost++
			}
		}
	}
	if lostTop > 0 {
		t.Errorf("level %s gave away %d of %d won positions", top.Name, lostTop, won)
	}
	// At most its share of random moves, and some.
	if lostWeak == 0 || float64(lostWeak) > weakest.Noise*float64(won)+3 {
		t.Errorf("level %s gave away %d of %d won positions, want some and at most %.0f%%", weakest.Name, lostWeak, won, 100*weakest.Noise)
	}
}

// TestSolverBoardLadder measures the levels where the exact solver plays
// (4x4, 5x5): newcomer, easy, medium and max against greedy and random,
// 60 games per pair in a round robin (not with -short), the tables
// logged (go test -run TestSolverBoardLadder -v ./agent; the figures of
// docs/results/2026-12-07-levels.md). It checks what must hold on any
// run: newcomer beats random, and max scores at least as well as
// newcomer against greedy.
func TestSolverBoardLadder(t *testing.T) {
	if testing.Short() {
		t.Skip("a match of 600 games per board")
	}
	es := agenttest.RunEngines(t)
	for _, size := range []int{4, 5} {
		e, err := es.Get(size)
		if err != nil {
			t.Fatal(err)
		}
		var entrants []arena.Entrant
		for _, name := range []string{"newcomer", "easy", "medium", "max"} {
			l, err := agent.ParseLevel(name)
			if err != nil {
				t.Fatal(err)
			}
			f, err := e.Players(fmt.Sprintf("%d-%s", l.Number, l.Name), agent.SearchConfig(size), l.Limits())
			if err != nil {
				t.Fatal(err)
			}
			entrants = append(entrants, f)
		}
		for _, spec := range []string{"greedy", "random"} {
			s, err := agent.ParseSpec(spec)
			if err != nil {
				t.Fatal(err)
			}
			f, err := agent.NewFactory(s)
			if err != nil {
				t.Fatal(err)
			}
			entrants = append(entrants, f)
		}
		res, err := arena.Run(context.Background(), arena.MatchConfig{Board: rules.SquareBoard(size), Games: 60, Parallel: 2, RandomPlies: 2, Seed: 45}, entrants)
		if err != nil {
			t.Fatal(err)
		}
		var out strings.Builder
		r := arena.NewReport(res, 0, 1)
		if err := r.WriteText(&out); err != nil {
			t.Fatal(err)
		}
		t.Logf("%dx%d:\n%s", size, size, out.String())
		score := func(a, b int) float64 { // a's score against b
			for _, p := range res.Pairs {
				switch {
				case p.A == a && p.B == b:
					return float64(p.WinsA) / float64(p.Games())
				case p.A == b && p.B == a:
					return float64(p.WinsB) / float64(p.Games())
				}
			}
			t.Fatalf("no pair %d-%d", a, b)
			return 0
		}
		const newcomer, max, greedy, random = 0, 3, 4, 5
		if s := score(newcomer, random); s <= 0.5 {
			t.Errorf("%dx%d: newcomer scores %.2f against random, want more than half", size, size, s)
		}
		if score(max, greedy) < score(newcomer, greedy) {
			t.Errorf("%dx%d: max scores %.2f against greedy, newcomer %.2f", size, size, score(max, greedy), score(newcomer, greedy))
		}
	}
}
