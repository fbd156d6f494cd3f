package mcts

import (
	"context"
	"fmt"
	"testing"

	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/solver"
)

// forcedWinCases collects want positions from each of sampled 5x5, 6x6
// and 7x7 games, with at least 5 legal moves, where the side to move can
// force a win within plies plies but not sooner, and where at least one
// move loses; for each it records which moves win (by the exact solver:
// some may win, but only later).
func forcedWinCases(t *testing.T, plies, want int) (ps []rules.Position, good [][]bool) {
	sv := solver.New()
	for _, size := range []int{5, 6, 7} {
		found := 0
		for _, p := range samplePositions(size, 300, uint64(size*10+plies)) {
			if found == want {
				break
			}
			if p.CountMoves() < 5 || plies > 1 && forcesWithin(p, plies-2) || !forcesWithin(p, plies) {
				continue
			}
			res, err := sv.Analyze(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			ok := make([]bool, len(res))
			n := 0
			for i, r := range res {
				ok[i] = r.Wins
				if ok[i] {
					n++
				}
			}
			if n == len(res) {
				continue
			}
			ps, good = append(ps, p), append(good, ok)
			found++
		}
	}
	return ps, good
}

// TestForcedWin: with the Uniform evaluator (no knowledge but the end of
// the game) the search finds a winning move, and knows it (its Q is
// high, which only the end of the game can teach it), in positions with
// a win in one ply, and with a forced win in three plies but none in one,
// where some moves lose.
func TestForcedWin(t *testing.T) {
	for _, tc := range []struct {
		plies, sims, cases int
	}{
		{1, 64, 10},
		{3, 400, 10},
	} {
		ps, good := forcedWinCases(t, tc.plies, tc.cases)
		if len(ps) < 3*tc.cases {
			t.Fatalf("win in %d: only %d sample positions", tc.plies, len(ps))
		}
		moves := 0
		for _, p := range ps {
			moves += p.CountMoves()
		}
		t.Logf("win in %d: %d positions, %.1f legal moves on average", tc.plies, len(ps), float64(moves)/float64(len(ps)))
		for _, mode := range modes {
			t.Run(fmt.Sprintf("%s/win-in-%d", mode.name, tc.plies), func(t *testing.T) {
				cfg := mode.cfg()
				cfg.GumbelSampled = rules.MaxMoves // consider every move: Uniform gives no hint
				for i, p := range ps {
					s := mustSearch(t, Uniform{}, cfg, uint64(i))
					res := mustRun(t, s, p, RunOptions{Sims: tc.sims})
					k := indexOf(res.Moves, res.Best)
					if k < 0 || !good[i][k] {
						t.Errorf("case %d: best %v loses; winning: %v\n%v", i, res.Best, winners(res.Moves, good[i]), p)
					} else if res.Q[k] < 0.5 {
						t.Errorf("case %d: best %v wins but its Q is only %.2f\n%v", i, res.Best, res.Q[k], p)
					}
				}
			})
		}
	}
}

func winners(moves []rules.Move, ok []bool) []rules.Move {
	var out []rules.Move
	for i, m := range moves {
		if ok[i] {
			out = append(out, m)
		}
	}
	return out
}

// TestConvergesToSolver: on sampled positions where some but not all
// moves win (per the exact solver), the search's Best move wins in a large
// fraction of them, in both modes: on 4x4 with the Uniform evaluator
// alone; on 5x5, whose games are too long for terminal-only information at
// a few hundred simulations, with random-playout values (classic MCTS).
func TestConvergesToSolver(t *testing.T) {
	ctx := context.Background()
	sv := solver.New()
	for _, tc := range []struct {
		size, cases, sims int
		eval              Evaluator
		evalName          string
		minRate           float64
	}{
		{4, 40, 200, Uniform{}, "uniform", 0.95},
		{5, 60, 400, RandomRollout{Seed: 7, Rollouts: 4}, "rollout", 0.9},
	} {
		var ps []rules.Position
		var wins [][]bool
		for _, p := range samplePositions(tc.size, 400, uint64(tc.size)) {
			if len(ps) == tc.cases {
				break
			}
			res, err := sv.Analyze(ctx, p)
			if err != nil {
				t.Fatal(err)
			}
			w, k := make([]bool, len(res)), 0
			for i, r := range res {
				w[i] = r.Wins
				if r.Wins {
					k++
				}
			}
			if k > 0 && k < len(res) {
				ps, wins = append(ps, p), append(wins, w)
			}
		}
		if len(ps) < tc.cases {
			t.Fatalf("%dx%d: only %d sample positions", tc.size, tc.size, len(ps))
		}
		for _, mode := range modes {
			t.Run(fmt.Sprintf("%dx%d/%s/%s", tc.size, tc.size, tc.evalName, mode.name), func(t *testing.T) {
				cfg := mode.cfg()
				cfg.GumbelSampled = rules.MaxMoves
				hits := 0
				for i, p := range ps {
					s := mustSearch(t, tc.eval, cfg, uint64(i))
					res := mustRun(t, s, p, RunOptions{Sims: tc.sims})
					if k := indexOf(res.Moves, res.Best); k >= 0 && wins[i][k] {
						hits++
					}
				}
				rate := float64(hits) / float64(len(ps))
				t.Logf("best move wins in %d/%d positions (%.0f%%) at %d sims", hits, len(ps), 100*rate, tc.sims)
				if rate < tc.minRate {
					t.Errorf("best move wins in only %d/%d positions, want ≥ %.0f%%", hits, len(ps), 100*tc.minRate)
				}
			})
		}
	}
}
