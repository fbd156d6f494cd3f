package player

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/konanezero/konane/mcts"
	"github.com/konanezero/konane/rules"
)

// TestAnalyzeAgreesWithMove: Analyze recommends the move that Move plays
// with the same seed and settings, its principal line starts with that
// move and is a legal sequence, and it reports the simulations it ran.
func TestAnalyzeAgreesWithMove(t *testing.T) {
	ctx := context.Background()
	eval := mcts.RandomRollout{Seed: 3}
	p := rules.NewPosition(5)
	for _, m := range []string{"c3", "c4", "a3-c3"} {
		next, err := rules.ParseMove(p, m)
		if err != nil {
			t.Fatal(err)
		}
		p = p.Play(next)
	}
	a, err := NewNeural(eval, mcts.DefaultConfig(), Limits{Sims: 50}, 7)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := NewNeural(eval, mcts.DefaultConfig(), Limits{Sims: 50}, 7)
	res, err := a.Analyze(ctx, p, a.Limits())
	if err != nil {
		t.Fatal(err)
	}
	m, err := b.Move(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	if res.Best != m || len(res.PV) == 0 || res.PV[0] != m {
		t.Errorf("Analyze: best %v, PV %v; Move played %v", res.Best, res.PV, m)
	}
	if res.Sims != 50 && !(res.Proven && res.Sims < 50) {
		t.Errorf("Analyze ran %d simulations (root proven: %v), want 50 or, proven, fewer", res.Sims, res.Proven)
	}
	if !(res.Value >= -1 && res.Value <= 1) {
		t.Errorf("value %v outside [-1, 1]", res.Value)
	}
	q := p
	for i, m := range res.PV {
		if !q.Legal(m) {
			t.Fatalf("PV %v: move %d (%v) is illegal", res.PV, i+1, m)
		}
		q = q.Play(m)
	}
	if !slices.Contains(res.Moves, res.Best) {
		t.Errorf("best %v is not among the root moves %v", res.Best, res.Moves)
	}
}

// TestAnalyzeTimeLimit: a time-limited analysis runs whole chunks until
// the time is up, and at most Sims simulations when both are set.
func TestAnalyzeTimeLimit(t *testing.T) {
	ctx := context.Background()
	p := rules.NewPosition(6)
	n, err := NewNeural(mcts.Uniform{}, mcts.DefaultConfig(), Limits{Sims: 1}, 1)
	if err != nil {
		t.Fatal(err)
	}
	res, err := n.Analyze(ctx, p, Limits{Time: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if res.Sims < timeChunk {
		t.Errorf("time-limited analysis ran %d simulations, want at least one chunk of %d", res.Sims, timeChunk)
	}
	res, err = n.Analyze(ctx, p.Play(res.Best), Limits{Sims: 20, Time: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if res.Sims > 20 {
		t.Errorf("analysis with sims=20 and a time limit ran %d simulations", res.Sims)
	}
}

func TestAnalyzeErrors(t *testing.T) {
	n, err := NewNeural(mcts.Uniform{}, mcts.DefaultConfig(), Limits{Sims: 10}, 1)
	if err != nil {
		t.Fatal(err)
	}
	over, err := rules.ParsePosition("4 x . . .\n3 . . . .\n2 . . . .\n1 . . . o\n  a b c d\nblack to move")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := n.Analyze(context.Background(), over, n.Limits()); !errors.Is(err, ErrNoMoves) {
		t.Errorf("finished game: %v, want ErrNoMoves", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := n.Analyze(ctx, rules.NewPosition(4), n.Limits()); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v", err)
	}
	if _, err := n.Analyze(context.Background(), rules.NewPosition(4), Limits{}); err == nil {
		t.Error("no simulations and no time: no error")
	}
	if _, err := NewNeural(mcts.Uniform{}, mcts.DefaultConfig(), Limits{}, 1); err == nil {
		t.Error("NewNeural without limits: no error")
	}
	gumbel := mcts.DefaultConfig()
	gumbel.Gumbel = true
	g, err := NewNeural(mcts.Uniform{}, gumbel, Limits{Sims: 10}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Analyze(context.Background(), rules.NewPosition(4), Limits{Time: time.Millisecond}); err == nil || !strings.Contains(err.Error(), "Gumbel") {
		t.Errorf("a Gumbel search limited by time: %v", err)
	}
}

// TestAnalyzeStopsEarly: a time-limited search stops at once when the
// root is proven (here a win in one, found before any simulation), so
// that a minute's budget is not spent on a decided move.
func TestAnalyzeStopsEarly(t *testing.T) {
	// Black to move; b1-d1 captures c1 and leaves White's a2 without a jump.
	p := rules.Position{Size: 4, Turn: rules.Black}
	p.Black = rules.SquareAt(0, 1).Bit()
	p.White = rules.SquareAt(0, 2).Bit() | rules.SquareAt(1, 0).Bit()
	n, err := NewNeural(mcts.Uniform{}, mcts.DefaultConfig(), Limits{Time: time.Minute}, 1)
	if err != nil {
		t.Fatal(err)
	}
	res, err := n.Analyze(context.Background(), p, n.Limits())
	if err != nil {
		t.Fatal(err)
	}
	if !res.Proven || res.Value != 1 || res.Best.String() != "b1-d1" || res.Sims != 0 {
		t.Errorf("win in one: proven %v value %v best %v after %d sims", res.Proven, res.Value, res.Best, res.Sims)
	}
}

// TestDecided: the search may stop when no other move can catch up with
// the most visited one in the simulations left.
func TestDecided(t *testing.T) {
	a, b, c := rules.Move{From: 1, To: 3}, rules.Move{From: 2, To: 4}, rules.Move{From: 5, To: 7}
	res := mcts.Result{Moves: []rules.Move{a, b, c}, Visits: []int{10, 40, 25}, Best: b}
	for _, tc := range []struct {
		left float64
		want bool
	}{{0, true}, {14.5, true}, {15, false}, {100, false}} {
		if got := decided(res, tc.left); got != tc.want {
			t.Errorf("visits %v, best %v, %v left: decided %v, want %v", res.Visits, res.Best, tc.left, got, tc.want)
		}
	}
}

// TestAnalyzeNoSolver: Limits.NoSolver searches without proofs, with its
// own tree, and the solver's search is still there for the next call.
func TestAnalyzeNoSolver(t *testing.T) {
	p := rules.Position{Size: 4, Turn: rules.Black}
	p.Black = rules.SquareAt(0, 1).Bit()
	p.White = rules.SquareAt(0, 2).Bit() | rules.SquareAt(1, 0).Bit()
	n, err := NewNeural(mcts.Uniform{}, mcts.DefaultConfig(), Limits{Sims: 10}, 1)
	if err != nil {
		t.Fatal(err)
	}
	res, err := n.Analyze(context.Background(), p, Limits{Sims: 10, NoSolver: true})
	if err != nil || res.Proven || res.Sims != 10 {
		t.Fatalf("without the solver: proven %v after %d sims, %v", res.Proven, res.Sims, err)
	}
	if res, err = n.Analyze(context.Background(), p, Limits{Sims: 10}); err != nil || !res.Proven {
		t.Fatalf("with the solver: proven %v, %v", res.Proven, err)
	}
}
