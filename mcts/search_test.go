package mcts

import (
	"context"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/konanezero/konane/rules"
)

// TestNodeSize pins the memory of the tree: a node is 56 bytes and an
// edge (an untried move) 12; on WidePositions 104 and 12.
func TestNodeSize(t *testing.T) {
	if got := unsafe.Sizeof(node[rules.Position, rules.Move]{}); got != 56 {
		t.Errorf("node is %d bytes, want 56", got)
	}
	if got := unsafe.Sizeof(edge[rules.Move]{}); got != 12 {
		t.Errorf("edge is %d bytes, want 12", got)
	}
	if got := unsafe.Sizeof(node[rules.WidePosition, rules.WideMove]{}); got != 104 {
		t.Errorf("wide node is %d bytes, want 104", got)
	}
	if got := unsafe.Sizeof(edge[rules.WideMove]{}); got != 12 {
		t.Errorf("wide edge is %d bytes, want 12", got)
	}
}

// TestResultInvariants checks the shape and the consistency of a Result
// for both modes, with and without noise, on every size.
func TestResultInvariants(t *testing.T) {
	for _, mode := range modes {
		for _, noise := range []bool{false, true} {
			for size := rules.MinSize; size <= rules.MaxSize; size++ {
				p := samplePositions(size, 1, uint64(size))[1] // a jump in
				s := mustSearch(t, Uniform{}, mode.cfg(), 1)
				const sims = 100
				res := mustRun(t, s, p, RunOptions{Sims: sims, Noise: noise})
				where := mode.name + " " + p.String()
				legal := p.LegalMoves(nil)
				if !reflect.DeepEqual(res.Moves, legal) {
					t.Fatalf("%s: moves %v, want LegalMoves %v", where, res.Moves, legal)
				}
				n := len(legal)
				if len(res.Visits) != n || len(res.Q) != n || len(res.Prior) != n || len(res.Policy) != n {
					t.Fatalf("%s: slice lengths %d %d %d %d, want %d", where, len(res.Visits), len(res.Q), len(res.Prior), len(res.Policy), n)
				}
				if res.Sims != sims {
					t.Errorf("%s: %d sims, want %d", where, res.Sims, sims)
				}
				total, pol := 0, 0.0
				for i := range n {
					total += res.Visits[i]
					pol += float64(res.Policy[i])
					if res.Q[i] < -1 || res.Q[i] > 1 || res.Policy[i] < 0 {
						t.Errorf("%s: move %v: Q %v, policy %v", where, res.Moves[i], res.Q[i], res.Policy[i])
					}
					if math.Abs(float64(res.Prior[i])-1/float64(n)) > 1e-6 {
						t.Errorf("%s: prior %v, want uniform 1/%d", where, res.Prior[i], n)
					}
				}
				if total != sims {
					t.Errorf("%s: visits sum to %d, want %d", where, total, sims)
				}
				if math.Abs(pol-1) > 1e-5 {
					t.Errorf("%s: policy sums to %v", where, pol)
				}
				if res.Value < -1 || res.Value > 1 {
					t.Errorf("%s: value %v", where, res.Value)
				}
				if indexOf(res.Moves, res.Best) < 0 || len(res.PV) == 0 || res.PV[0] != res.Best {
					t.Errorf("%s: best %v, pv %v", where, res.Best, res.PV)
				}
				// The PV is a legal line.
				q := p
				for _, m := range res.PV {
					if !q.Legal(m) {
						t.Fatalf("%s: pv %v: %v is illegal", where, res.PV, m)
					}
					q = q.Play(m)
				}
				if !mode.cfg().Gumbel {
					best := indexOf(res.Moves, res.Best)
					for i := range n {
						if res.Visits[i] > res.Visits[best] {
							t.Errorf("%s: best %v has %d visits, %v has %d", where, res.Best, res.Visits[best], res.Moves[i], res.Visits[i])
						}
					}
				}
			}
		}
	}
}

// TestTerminal: a position without moves is refused with ErrNoMoves; a
// move that ends the game is valued exactly +1 for its player, and the
// root of a lost position values -1.
func TestTerminal(t *testing.T) {
	// Black to move; its only move b1-d1 captures c1 and leaves White's
	// a2 without a jump.
	//   2 o . . .
	//   1 . x o .
	p := rules.Position{Size: 4, Turn: rules.Black}
	p.Black = rules.SquareAt(0, 1).Bit()
	p.White = rules.SquareAt(0, 2).Bit() | rules.SquareAt(1, 0).Bit()
	if got := p.LegalMoves(nil); len(got) != 1 || got[0].String() != "b1-d1" {
		t.Fatalf("setup: moves %v", got)
	}
	after := p.Play(p.LegalMoves(nil)[0])
	for _, mode := range modes {
		s := mustSearch(t, Uniform{}, mode.cfg(), 1)
		res := mustRun(t, s, p, RunOptions{Sims: 10})
		if res.Q[0] != 1 || res.Visits[0] != 10 || res.Best.String() != "b1-d1" {
			t.Errorf("%s: winning move: Q %v visits %v best %v, want 1, 10, b1-d1", mode.name, res.Q[0], res.Visits[0], res.Best)
		}
		// Value: the root evaluation (0) and ten wins.
		if want := float32(10) / 11; math.Abs(float64(res.Value-want)) > 1e-6 {
			t.Errorf("%s: root value %v, want %v", mode.name, res.Value, want)
		}
		if _, err := s.Run(context.Background(), after, RunOptions{}); !errors.Is(err, ErrNoMoves) {
			t.Errorf("%s: run on a finished game: %v, want ErrNoMoves", mode.name, err)
		}
	}
}

// TestLostPosition: when every move of the side to move lets the opponent
// win at once, every Q tends to -1 and so does the root value.
func TestLostPosition(t *testing.T) {
	var lost rules.Position
	found := false
	for _, p := range samplePositions(5, 200, 3) {
		if p.CountMoves() >= 2 && !forcesWithin(p, 1) && allRepliesWin(p) {
			lost, found = p, true
			break
		}
	}
	if !found {
		t.Fatal("no position where every move loses at once")
	}
	for _, mode := range modes {
		s := mustSearch(t, Uniform{}, mode.cfg(), 1)
		res := mustRun(t, s, lost, RunOptions{Sims: 400})
		if res.Value > -0.5 {
			t.Errorf("%s: value %v of a lost position\n%v", mode.name, res.Value, lost)
		}
		for i, q := range res.Q {
			if res.Visits[i] > 0 && q > -0.5 {
				t.Errorf("%s: move %v: Q %v, want near -1", mode.name, res.Moves[i], q)
			}
		}
	}
}

// allRepliesWin reports whether every move of p gives the opponent a
// move that ends the game.
func allRepliesWin(p rules.Position) bool {
	for _, m := range p.LegalMoves(nil) {
		if !forcesWithin(p.Play(m), 1) {
			return false
		}
	}
	return true
}

// TestReuse: after a Run, a Run from a child or a grandchild of the root
// keeps that subtree's visits; Reuse off and Reset start afresh.
func TestReuse(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			p := samplePositions(6, 1, 4)[2]
			s := mustSearch(t, Uniform{}, mode.cfg(), 1)
			res := mustRun(t, s, p, RunOptions{Sims: 400})
			best := indexOf(res.Moves, res.Best)
			child := p.Play(res.Best)
			kept := res.Visits[best]
			// The child's subtree: its node holds kept visits, of which one
			// expanded it; the rest went to its children.
			res2 := mustRun(t, s, child, RunOptions{Sims: 50})
			total := 0
			for _, v := range res2.Visits {
				total += v
			}
			if total != kept-1+50 {
				t.Errorf("child: visits sum to %d, want %d kept + 50 new", total, kept-1)
			}
			// Grandchild through the PV.
			if len(res2.PV) < 2 {
				t.Fatalf("pv %v too short", res2.PV)
			}
			g := child.Play(res2.PV[0]).Play(res2.PV[1])
			var want int
			{
				// Visits of the grandchild node before the Run.
				r1 := s.t.findDescendant(g)
				if r1 < 0 {
					t.Fatalf("grandchild not in the tree")
				}
				want = int(s.t.nodes[r1].n) - 1 + 30
			}
			res3 := mustRun(t, s, g, RunOptions{Sims: 30})
			total = 0
			for _, v := range res3.Visits {
				total += v
			}
			if total != want {
				t.Errorf("grandchild: visits sum to %d, want %d", total, want)
			}
			// Unrelated position: fresh tree.
			res4 := mustRun(t, s, p, RunOptions{Sims: 20})
			if sum(res4.Visits) != 20 {
				t.Errorf("unrelated position: visits sum to %d, want 20", sum(res4.Visits))
			}
			// Same root again: everything kept.
			res5 := mustRun(t, s, p, RunOptions{Sims: 20})
			if sum(res5.Visits) != 40 {
				t.Errorf("same root: visits sum to %d, want 40", sum(res5.Visits))
			}
			s.Reset()
			if res6 := mustRun(t, s, p, RunOptions{Sims: 20}); sum(res6.Visits) != 20 {
				t.Errorf("after Reset: visits sum to %d, want 20", sum(res6.Visits))
			}
			cfg := mode.cfg()
			cfg.Reuse = false
			s = mustSearch(t, Uniform{}, cfg, 1)
			mustRun(t, s, p, RunOptions{Sims: 20})
			if res7 := mustRun(t, s, p, RunOptions{Sims: 20}); sum(res7.Visits) != 20 {
				t.Errorf("Reuse off: visits sum to %d, want 20", sum(res7.Visits))
			}
		})
	}
}

func sum(v []int) int {
	t := 0
	for _, x := range v {
		t += x
	}
	return t
}

// TestReuseMatchesSubtree: promoting a child copies exactly its subtree:
// every node keeps its position, counts and children.
func TestReuseMatchesSubtree(t *testing.T) {
	p := samplePositions(6, 1, 5)[1]
	s := mustSearch(t, Uniform{}, DefaultConfig(), 1)
	res := mustRun(t, s, p, RunOptions{Sims: 300})
	child := p.Play(res.Best)
	r := s.t.findDescendant(child)
	before := snapshot(&s.t, r)
	s.t.promote(r)
	after := snapshot(&s.t, 0)
	if !reflect.DeepEqual(before, after) {
		t.Fatalf("subtree changed by promote:\n%v\n%v", before, after)
	}
	if len(s.t.nodes) != len(before) {
		t.Errorf("tree holds %d nodes, the subtree %d", len(s.t.nodes), len(before))
	}
}

// snapshot lists the nodes of the subtree of r depth-first (positions
// and counts), independent of indices.
func snapshot(t *tree[rules.Position, rules.Move], r int32) []string {
	var out []string
	var walk func(i int32, depth int)
	walk = func(i int32, depth int) {
		nd := t.nodes[i]
		out = append(out, strings.Repeat(" ", depth)+nd.pos.String()+" "+string(rune('0'+nd.state))+" "+itoa(int(nd.n)))
		if nd.state != stateExpanded {
			return
		}
		for _, e := range t.children(i) {
			if e.child != 0 {
				walk(e.child, depth+1)
			}
		}
	}
	walk(r, 0)
	return out
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// TestDeterminism: the same seed gives the same results, in both modes,
// with noise, leaf batching and tree reuse; another seed gives other
// noise.
func TestDeterminism(t *testing.T) {
	play := func(cfg Config, seed uint64) []Result {
		s := mustSearch(t, RandomRollout{Seed: 3}, cfg, seed)
		p := samplePositions(6, 1, 6)[0]
		var out []Result
		for range 6 {
			res := mustRun(t, s, p, RunOptions{Sims: 64, Noise: true})
			out = append(out, res)
			p = p.Play(res.Best)
			if !p.HasMoves() {
				break
			}
		}
		return out
	}
	for _, mode := range modes {
		cfg := mode.cfg()
		cfg.LeafBatch = 4
		a, b, c := play(cfg, 42), play(cfg, 42), play(cfg, 43)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: two runs with seed 42 differ", mode.name)
		}
		if reflect.DeepEqual(a, c) {
			t.Errorf("%s: seeds 42 and 43 give identical searches", mode.name)
		}
	}
}

// TestLeafBatch: with LeafBatch k the evaluator sees batches of at most k
// positions, the budget is used exactly, and the search still finds the
// solver-verified wins of TestForcedWin's first case set.
func TestLeafBatch(t *testing.T) {
	for _, mode := range modes {
		for _, k := range []int{1, 3, 8} {
			cfg := mode.cfg()
			cfg.LeafBatch = k
			ev := &countingEval{}
			s := mustSearch(t, ev, cfg, 1)
			p := samplePositions(8, 1, 7)[0]
			res := mustRun(t, s, p, RunOptions{Sims: 200})
			if res.Sims != 200 || sum(res.Visits) != 200 {
				t.Errorf("%s batch %d: %d sims, %d visits, want 200", mode.name, k, res.Sims, sum(res.Visits))
			}
			if ev.maxBatch > k {
				t.Errorf("%s batch %d: evaluator saw a batch of %d", mode.name, k, ev.maxBatch)
			}
			if k > 1 && ev.calls >= 200 {
				t.Errorf("%s batch %d: %d evaluator calls for 200 sims", mode.name, k, ev.calls)
			}
			t.Logf("%s batch %d: %d calls, largest %d", mode.name, k, ev.calls, ev.maxBatch)
			for i := range s.t.nodes {
				if s.t.nodes[i].vl != 0 {
					t.Fatalf("%s batch %d: node %d keeps %d virtual losses", mode.name, k, i, s.t.nodes[i].vl)
				}
			}
		}
	}
}

// countingEval is Uniform that records its batches (not concurrency-safe:
// for single-search tests).
type countingEval struct {
	calls, maxBatch int
}

func (c *countingEval) Evaluate(ctx context.Context, ps []rules.Position) ([]Prediction, error) {
	c.calls++
	c.maxBatch = max(c.maxBatch, len(ps))
	return Uniform{}.Evaluate(ctx, ps)
}

// TestRunErrors: bad positions, budgets, evaluators and a cancelled
// context each give one clear error, and the Search recovers.
func TestRunErrors(t *testing.T) {
	good := samplePositions(5, 1, 8)[0]
	bad := good
	bad.White |= bad.Black & -bad.Black // a square with two stones
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name string
		eval Evaluator
		ctx  context.Context
		pos  rules.Position
		sims int
		want string
	}{
		{"invalid position", Uniform{}, context.Background(), bad, 10, "holds two stones"},
		{"negative sims", Uniform{}, context.Background(), good, -1, "-1 simulations"},
		{"too many sims", Uniform{}, context.Background(), good, MaxSims + 1, "simulations: want 1.."},
		{"cancelled", Uniform{}, cancelled, good, 10, "context canceled"},
		{"evaluator error", fakeEval(func([]Prediction) error { return errors.New("boom") }), context.Background(), good, 10, "boom"},
		{"short batch", fakeEval(func(p []Prediction) error { return errShort }), context.Background(), good, 10, "predictions for"},
		{"wrong priors", fakeEval(func(p []Prediction) error { p[0].Policy = p[0].Policy[1:]; return nil }), context.Background(), good, 10, "priors for the"},
		{"NaN value", fakeEval(func(p []Prediction) error { p[0].Value = float32(math.NaN()); return nil }), context.Background(), good, 10, "outside [-1, 1]"},
		{"value too big", fakeEval(func(p []Prediction) error { p[0].Value = 2; return nil }), context.Background(), good, 10, "outside [-1, 1]"},
		{"negative prior", fakeEval(func(p []Prediction) error { p[0].Policy[0] = -0.5; return nil }), context.Background(), good, 10, "not a probability"},
		{"zero priors", fakeEval(func(p []Prediction) error { clear(p[0].Policy); return nil }), context.Background(), good, 10, "sum to 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := mustSearch(t, tc.eval, DefaultConfig(), 1)
			_, err := s.Run(tc.ctx, tc.pos, RunOptions{Sims: tc.sims})
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "mcts: ") {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
			if s.Nodes() != 0 {
				t.Errorf("the tree keeps %d nodes after an error", s.Nodes())
			}
			// The same Search works afterwards with a sound evaluator.
			s.eval = Uniform{}.Evaluate
			if _, err := s.Run(context.Background(), good, RunOptions{Sims: 10}); err != nil {
				t.Errorf("after the error: %v", err)
			}
		})
	}
}

var errShort = errors.New("short")

// fakeEval is Uniform with its output altered by f; errShort drops the
// last prediction.
type fakeEval func([]Prediction) error

func (f fakeEval) Evaluate(ctx context.Context, ps []rules.Position) ([]Prediction, error) {
	out, _ := Uniform{}.Evaluate(ctx, ps)
	switch err := f(out); {
	case err == errShort:
		return out[:len(out)-1], nil
	case err != nil:
		return nil, err
	}
	return out, nil
}

// TestPriorsNormalized: priors that do not sum to 1 are normalized, so
// the search is the same for a scaled policy.
func TestPriorsNormalized(t *testing.T) {
	p := samplePositions(6, 1, 9)[3]
	scaled := fakeEval(func(ps []Prediction) error {
		for _, pr := range ps {
			for i := range pr.Policy {
				pr.Policy[i] *= 3
			}
		}
		return nil
	})
	a := mustRun(t, mustSearch(t, Uniform{}, DefaultConfig(), 1), p, RunOptions{Sims: 50})
	b := mustRun(t, mustSearch(t, scaled, DefaultConfig(), 1), p, RunOptions{Sims: 50})
	if !reflect.DeepEqual(a, b) {
		t.Errorf("scaled priors change the search:\n%+v\n%+v", a, b)
	}
}

// TestPolicyTemp: a search at PolicyTemp T on priors p is the search at
// temperature 1 on priors p^(1/T) (the same visits, values and move),
// while its Result.Prior is still the evaluator's p.
func TestPolicyTemp(t *testing.T) {
	p := richPosition(t, 6, 8, 3)
	var raw Result
	for _, temp := range []float64{0.5, 2, 3} {
		tempered := fakeEval(func(ps []Prediction) error {
			for _, pr := range ps {
				n := float64(len(pr.Policy))
				for i := range pr.Policy {
					pr.Policy[i] = float32(math.Pow((float64(i)+1)/(n*(n+1)/2), 1/temp))
				}
			}
			return nil
		})
		for _, solver := range []bool{false, true} {
			plain := DefaultConfig()
			plain.Solver = solver
			cfg := plain
			cfg.PolicyTemp = temp
			want := mustRun(t, mustSearch(t, tempered, plain, 1), p, RunOptions{Sims: 200})
			got := mustRun(t, mustSearch(t, skewed{}, cfg, 1), p, RunOptions{Sims: 200})
			if raw.Prior == nil {
				raw = mustRun(t, mustSearch(t, skewed{}, DefaultConfig(), 1), p, RunOptions{Sims: 1})
			}
			for i := range got.Prior {
				if math.Abs(float64(got.Prior[i]-raw.Prior[i])) > 1e-6 {
					t.Fatalf("temperature %g: prior of %v is %v, want the evaluator's %v", temp, got.Moves[i], got.Prior[i], raw.Prior[i])
				}
			}
			got.Prior, want.Prior = nil, nil
			if !reflect.DeepEqual(got, want) {
				t.Errorf("temperature %g, solver %v: the search differs from one on tempered priors:\n%+v\n%+v", temp, solver, got, want)
			}
		}
	}
}

// TestNew: New refuses a nil evaluator and a bad config.
func TestNew(t *testing.T) {
	if _, err := New(nil, DefaultConfig(), 1); err == nil || !strings.Contains(err.Error(), "nil evaluator") {
		t.Errorf("nil evaluator: %v", err)
	}
	cfg := DefaultConfig()
	cfg.Sims = 0
	if _, err := New(Uniform{}, cfg, 1); err == nil || !strings.Contains(err.Error(), "Sims") {
		t.Errorf("bad config: %v", err)
	}
	s := mustSearch(t, Uniform{}, DefaultConfig(), 1)
	if s.Config() != DefaultConfig() {
		t.Errorf("Config() = %+v", s.Config())
	}
	// RunOptions.Sims 0 uses Config.Sims.
	s = mustSearch(t, Uniform{}, plainConfig(), 1)
	res := mustRun(t, s, samplePositions(5, 1, 1)[0], RunOptions{})
	if res.Sims != DefaultConfig().Sims {
		t.Errorf("default run: %d sims, want %d", res.Sims, DefaultConfig().Sims)
	}
}

// cancellingEval cancels the run's context on its n-th call.
type cancellingEval struct {
	calls, n int
	cancel   context.CancelFunc
}

func (c *cancellingEval) Evaluate(ctx context.Context, ps []rules.Position) ([]Prediction, error) {
	c.calls++
	if c.calls == c.n {
		c.cancel()
	}
	return Uniform{}.Evaluate(context.Background(), ps)
}

// TestCancelMidRun: a context cancelled during a Run stops it with an
// error that wraps context.Canceled, before the budget is spent.
func TestCancelMidRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	ev := &cancellingEval{n: 5, cancel: cancel}
	s := mustSearch(t, ev, DefaultConfig(), 1)
	_, err := s.Run(ctx, richPosition(t, 6, 5, 1), RunOptions{Sims: 1000})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if ev.calls != 5 {
		t.Errorf("%d evaluator calls after cancelling on the 5th", ev.calls)
	}
}
