package mcts

import (
	"context"
	"reflect"
	"testing"

	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/solver"
)

// solverModes are the MCTS-Solver configurations the known-answer tests
// run: both searches, leaf batching under virtual loss, with and without
// the endgame solver at the leaves.
var solverModes = []struct {
	name string
	cfg  func() Config
}{
	{"puct", func() Config { c := DefaultConfig(); c.SolveNodes = 0; return c }},
	{"gumbel", func() Config { c := DefaultConfig(); c.Gumbel, c.SolveNodes = true, 0; return c }},
	{"puct batch 8", func() Config { c := DefaultConfig(); c.LeafBatch, c.SolveNodes = 8, 0; return c }},
	{"gumbel batch 8", func() Config { c := DefaultConfig(); c.Gumbel, c.LeafBatch, c.SolveNodes = true, 8, 0; return c }},
	{"puct endgame", func() Config { c := DefaultConfig(); c.SolveNodes, c.SolveStones = 200, 14; return c }},
}

// checkProofs checks every proven node of s's tree against the exact
// solver, that a proven root's Result says so, and that Best is a
// winning move of a won root and never a move proven to lose while
// another is not. It returns whether the root is proven.
func checkProofs(t *testing.T, where string, s *Search, res Result, ex *solver.Solver) bool {
	t.Helper()
	ctx := context.Background()
	for i := range s.t.nodes {
		nd := &s.t.nodes[i]
		if nd.proof == 0 {
			continue
		}
		win, err := ex.Solve(ctx, nd.pos)
		if err != nil {
			t.Fatal(err)
		}
		if win != (nd.proof > 0) {
			t.Fatalf("%s: node %d proven %+d, solver says win=%v:\n%v", where, i, nd.proof, win, nd.pos)
		}
		if nd.proof > 0 && nd.win != rules.NoMove {
			if lose, _ := ex.Solve(ctx, nd.pos.Play(nd.win)); lose {
				t.Fatalf("%s: node %d: winning move %v does not win", where, i, nd.win)
			}
		}
	}
	root := &s.t.nodes[0]
	if res.Proven != (root.proof != 0) || res.Proven && res.Value != float32(root.proof) {
		t.Fatalf("%s: result proven %v value %v, root proof %+d", where, res.Proven, res.Value, root.proof)
	}
	best := indexOf(res.Moves, res.Best)
	edges := s.t.children(0)
	if res.Proven && res.Value > 0 {
		if !s.t.provenWin(&edges[best]) {
			t.Fatalf("%s: proven win, but Best %v is not a proven winning move", where, res.Best)
		}
	}
	if s.t.provenLoss(&edges[best]) {
		for i := range edges {
			if !s.t.provenLoss(&edges[i]) {
				t.Fatalf("%s: Best %v is proven to lose, %v is not", where, res.Best, edges[i].move)
			}
		}
	}
	for i, p := range res.Policy {
		if p > 0 && s.t.provenLoss(&edges[i]) && !(res.Proven && res.Value < 0) {
			t.Fatalf("%s: policy %v on %v, proven to lose", where, p, res.Moves[i])
		}
	}
	return res.Proven
}

// TestSolverKnownAnswers runs MCTS-Solver with the Uniform evaluator on
// 4x4, 5x5 and late 6x6 positions and checks every proof against the
// exact solver.
func TestSolverKnownAnswers(t *testing.T) {
	ex := solver.New(solver.WithTableEntries(1 << 16))
	for _, mode := range solverModes {
		for _, tc := range []struct {
			size, maxMoves, every, sims int
			minProven                   int
		}{{4, 64, 3, 400, 10}, {5, 14, 3, 1000, 10}, {6, 10, 3, 1000, 10}} {
			var ps []rules.Position // positions with at most maxMoves moves of both sides
			for _, p := range samplePositions(tc.size, 6, uint64(tc.size)) {
				if p.Mobility(rules.Black)+p.Mobility(rules.White) <= tc.maxMoves {
					ps = append(ps, p)
				}
			}
			proven, runs := 0, 0
			for i := 0; i < len(ps); i += tc.every {
				s := mustSearch(t, Uniform{}, mode.cfg(), uint64(i))
				res := mustRun(t, s, ps[i], RunOptions{Sims: tc.sims, Noise: i%2 == 0})
				runs++
				if checkProofs(t, mode.name+" "+ps[i].String(), s, res, ex) {
					proven++
					if res.Sims >= tc.sims {
						t.Errorf("%s: root proven, yet all %d simulations run", mode.name, res.Sims)
					}
				}
			}
			t.Logf("%s %dx%d: %d of %d roots proven", mode.name, tc.size, tc.size, proven, runs)
			if proven < tc.minProven {
				t.Errorf("%s %dx%d: %d of %d roots proven, want at least %d", mode.name, tc.size, tc.size, proven, runs, tc.minProven)
			}
		}
	}
}

// TestSolverGameWithReuse plays 5x5 games with tree reuse: the proofs of
// the kept subtrees stay exact and a proven win is kept to the end.
func TestSolverGameWithReuse(t *testing.T) {
	ex := solver.New(solver.WithTableEntries(1 << 16))
	for _, mode := range solverModes {
		s := mustSearch(t, Uniform{}, mode.cfg(), 3)
		p := samplePositions(5, 1, 7)[0]
		won := false
		for p.HasMoves() {
			res := mustRun(t, s, p, RunOptions{Sims: 300})
			checkProofs(t, mode.name+" "+p.String(), s, res, ex)
			if won && !(res.Proven && res.Value > 0) {
				t.Fatalf("%s: the side that had a proven win no longer has one:\n%v", mode.name, p)
			}
			won = res.Proven && res.Value > 0
			p = p.Play(res.Best)
			if p.HasMoves() {
				// The opponent's reply: with a proven loss, the searcher's
				// own choice (any move loses).
				res = mustRun(t, s, p, RunOptions{Sims: 300})
				checkProofs(t, mode.name+" "+p.String(), s, res, ex)
				if won && !(res.Proven && res.Value < 0) {
					t.Fatalf("%s: after a proven winning move the opponent's position is not proven lost:\n%v", mode.name, p)
				}
				p = p.Play(res.Best)
			}
		}
	}
}

// TestSolverSkipsProvenLosses runs one simulation at a time and checks
// that no move proven to lose, at an unproven node, gains a visit.
func TestSolverSkipsProvenLosses(t *testing.T) {
	for _, mode := range solverModes[:2] {
		s := mustSearch(t, Uniform{}, mode.cfg(), 5)
		p := samplePositions(5, 1, 11)[2]
		seen := 0
		for step := 0; step < 3000; step++ {
			res := mustRun(t, s, p, RunOptions{Sims: 1})
			if res.Proven {
				break
			}
			type frozen struct{ node, n int32 }
			var losses []frozen
			for i := range s.t.nodes {
				nd := &s.t.nodes[i]
				if nd.state != stateExpanded || nd.proof != 0 {
					continue
				}
				for _, e := range s.t.children(int32(i)) {
					if s.t.provenLoss(&e) {
						losses = append(losses, frozen{e.child, s.t.nodes[e.child].n})
					}
				}
			}
			seen += len(losses)
			mustRun(t, s, p, RunOptions{Sims: 1})
			for _, f := range losses {
				if got := s.t.nodes[f.node].n; got != f.n {
					t.Fatalf("%s: step %d: node %d, proven to lose, went from %d to %d visits", mode.name, step, f.node, f.n, got)
				}
			}
		}
		if seen == 0 {
			t.Errorf("%s: no move was ever proven to lose: the test does not test", mode.name)
		}
	}
}

// TestSolverPlaysWinAtOnce: a root with a move that leaves the opponent
// without a move, and a root the endgame solver settles, are proven
// before any simulation; a proven loss stops at once too.
func TestSolverPlaysWinAtOnce(t *testing.T) {
	// Black to move; b1-d1 captures c1 and leaves White's a2 without a jump.
	p := rules.Position{Size: 4, Turn: rules.Black}
	p.Black = rules.SquareAt(0, 1).Bit()
	p.White = rules.SquareAt(0, 2).Bit() | rules.SquareAt(1, 0).Bit()
	for _, mode := range solverModes {
		s := mustSearch(t, Uniform{}, mode.cfg(), 1)
		res := mustRun(t, s, p, RunOptions{Sims: 100})
		if !res.Proven || res.Value != 1 || res.Sims != 0 || res.Best.String() != "b1-d1" || res.Policy[0] != 1 {
			t.Errorf("%s: win in one: %+v", mode.name, res)
		}
	}
	ex := solver.New()
	cfg := DefaultConfig()
	cfg.SolveStones = 64
	cfg.SolveNodes = 1 << 20
	for i, q := range samplePositions(5, 3, 4) {
		s := mustSearch(t, Uniform{}, cfg, 1)
		res := mustRun(t, s, q, RunOptions{Sims: 100})
		if !res.Proven || res.Sims != 0 {
			t.Fatalf("position %d: a 5x5 root within the endgame budget is not proven at once: %+v", i, res)
		}
		checkProofs(t, q.String(), s, res, ex)
	}
}

// TestSolverDeterminism: with the endgame solver, the same seed and the
// same Runs give the same Results.
func TestSolverDeterminism(t *testing.T) {
	cfg := DefaultConfig()
	cfg.SolveNodes, cfg.SolveStones, cfg.LeafBatch = 300, 20, 4
	ps := samplePositions(6, 1, 9)
	var runs [2][]Result
	for k := range runs {
		s := mustSearch(t, Uniform{}, cfg, 42)
		for i := 0; i < len(ps); i += 2 {
			runs[k] = append(runs[k], mustRun(t, s, ps[i], RunOptions{Sims: 200, Noise: true}))
		}
	}
	if !reflect.DeepEqual(runs[0], runs[1]) {
		t.Error("two searches with the same seed differ")
	}
}

// TestSolverOff: with Solver false the search is plain MCTS: nothing is
// proven and every run spends its budget.
func TestSolverOff(t *testing.T) {
	s := mustSearch(t, Uniform{}, plainConfig(), 1)
	p := rules.Position{Size: 4, Turn: rules.Black}
	p.Black = rules.SquareAt(0, 1).Bit()
	p.White = rules.SquareAt(0, 2).Bit() | rules.SquareAt(1, 0).Bit()
	res := mustRun(t, s, p, RunOptions{Sims: 10})
	if res.Proven || res.Sims != 10 {
		t.Errorf("plain search: proven %v after %d sims", res.Proven, res.Sims)
	}
}

// TestEndgameStats: a Search counts its endgame solver's tries, the
// proofs among them and the solver's nodes, each try within the budget;
// without the endgame solver it counts none.
func TestEndgameStats(t *testing.T) {
	cfg := DefaultConfig()
	cfg.SolveNodes, cfg.SolveStones = 300, 20
	off := cfg
	off.SolveNodes = 0
	ps := samplePositions(6, 1, 9)
	on, none := mustSearch(t, Uniform{}, cfg, 42), mustSearch(t, Uniform{}, off, 42)
	for i := 0; i < len(ps); i += 2 {
		mustRun(t, on, ps[i], RunOptions{Sims: 200})
		mustRun(t, none, ps[i], RunOptions{Sims: 200})
	}
	st := on.EndgameStats()
	if st.Proved == 0 || st.Proved > st.Tries || st.Nodes < uint64(st.Tries) || st.Nodes > uint64(st.Tries)*300 {
		t.Errorf("endgame stats %+v: want 0 < Proved ≤ Tries ≤ Nodes ≤ 300·Tries", st)
	}
	if st := none.EndgameStats(); st != (EndgameStats{}) {
		t.Errorf("SolveNodes 0: endgame stats %+v, want none", st)
	}
}
