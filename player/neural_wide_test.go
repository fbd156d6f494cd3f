package player

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/konanezero/konane/mcts"
	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/net/nettest"
	"github.com/konanezero/konane/rules"
)

// newTinyWideNet is a small multi-board network of random weights given
// board b (above 8x8: it evaluates WidePositions), with its evaluator.
func newTinyWideNet(t *testing.T, b rules.Board) tinyNet {
	t.Helper()
	m, err := nettest.TinyMultiBoardModel(t, 1).ForBoard(b)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := net.NewEvaluator(m, net.EvalOptions{Batch: 16, CacheSize: 1 << 10})
	if err != nil {
		t.Fatal(err)
	}
	return tinyNet{ev, m.Shape()}
}

// playWideGame plays a game on board b between two WidePlayers from b's
// start, failing t on an error or an illegal move, and returns the moves.
func playWideGame(t *testing.T, b rules.Board, black, white WidePlayer) []rules.WideMove {
	t.Helper()
	ctx := context.Background()
	p, err := b.WidePosition()
	if err != nil {
		t.Fatal(err)
	}
	var moves []rules.WideMove
	for p.HasMoves() {
		pl := black
		if p.Turn == rules.White {
			pl = white
		}
		m, err := pl.MoveWide(ctx, p)
		if err != nil {
			t.Fatalf("%s on %s after %v: %v", pl.Name(), b, moves, err)
		}
		if !p.Legal(m) {
			t.Fatalf("%s on %s after %v played the illegal move %v", pl.Name(), b, moves, m)
		}
		moves = append(moves, m)
		p = p.Play(m)
	}
	return moves
}

// TestNeuralPlaysWide: a network player plays legal games on the boards
// above 8x8 (MoveWide) within simulations, time, without the solver and
// with a weak level's draw; with a limit of simulations the same seed
// gives the same game. A board other than the network's is refused.
func TestNeuralPlaysWide(t *testing.T) {
	names := []string{"9x8", "15x12"}
	if testing.Short() {
		names = names[:1]
	}
	for _, name := range names {
		b, err := rules.ParseBoard(name)
		if err != nil {
			t.Fatal(err)
		}
		tn := newTinyWideNet(t, b)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- tn.Run(ctx) }()
		for _, limits := range []Limits{{Sims: 8}, {Time: 2 * time.Millisecond}, {Sims: 8, NoSolver: true},
			{Sims: 8, Choice: Choice{Temp: 1, TopK: 4}}} {
			f, err := NewNeuralFactory("net", tn, mcts.DefaultConfig(), limits)
			if err != nil {
				t.Fatal(err)
			}
			if err := f.CheckBoard(b); err != nil {
				t.Fatalf("%s: %v", b, err)
			}
			newWide := func(seed uint64) WidePlayer {
				p, err := f.New(seed)
				if err != nil {
					t.Fatal(err)
				}
				return p.(WidePlayer)
			}
			g1 := playWideGame(t, b, newWide(3), NewRandom(4))
			g2 := playWideGame(t, b, newWide(3), NewRandom(4))
			if limits.Time == 0 && !slices.Equal(g1, g2) {
				t.Errorf("%s, %v: seed 3 played two games:\n%v\n%v", b, limits, g1, g2)
			}
		}
		cancel()
		if err := <-done; err != nil {
			t.Errorf("%s: evaluator: %v", b, err)
		}
	}

	b := rules.Board{W: 9, H: 8, Start: rules.Gap}
	f, err := NewNeuralFactory("net", newTinyWideNet(t, b), mcts.DefaultConfig(), Limits{Sims: 4})
	if err != nil {
		t.Fatal(err)
	}
	other := rules.Board{W: 11, H: 8, Start: rules.Gap}
	if err := f.CheckBoard(other); err == nil || !strings.Contains(err.Error(), "the model plays 9x8, not 11x8") {
		t.Errorf("CheckBoard(11x8): %v", err)
	}
	p, _ := f.New(1)
	wp, _ := other.WidePosition()
	if _, err := p.(WidePlayer).MoveWide(context.Background(), wp); err == nil || !strings.Contains(err.Error(), "the model plays 9x8, not 11x8") {
		t.Errorf("MoveWide on 11x8 with a 9x8 network: %v", err)
	}
}

// TestNeuralWideAgrees: on a board Position holds, the wide search and
// its draw give the narrow ones' moves, limited by simulations or with a
// weak level's draw, along a whole game: without the solver, and with
// MCTS-Solver's proofs (a position without moves is lost, proofs back up
// exactly), which both searches have. The exact endgame solver
// (Config.SolveNodes) is off in both: only the narrow search has one
// (mcts.proveNarrow; the solver package holds Positions only), so with
// it the narrow search proves positions earlier and its moves may differ;
// the front ends search a board a Position holds narrowly
// (agent.Agent.MoveAny), with it.
func TestNeuralWideAgrees(t *testing.T) {
	off := mcts.DefaultConfig()
	off.Solver = false
	proofs := mcts.DefaultConfig()
	proofs.SolveNodes = 0
	for _, cfg := range []mcts.Config{off, proofs} {
		for _, limits := range []Limits{{Sims: 24}, {Sims: 24, Choice: Choice{Temp: 1.5, TopK: 5}}} {
			for _, name := range []string{"6", "7x6"} {
				agree(t, cfg, limits, name)
			}
		}
	}
}

// agree plays a game on board name with a narrow and a wide Neural of
// cfg and limits (see TestNeuralWideAgrees), the opponent's moves random.
func agree(t *testing.T, cfg mcts.Config, limits Limits, name string) {
	t.Helper()
	b, err := rules.ParseBoard(name)
	if err != nil {
		t.Fatal(err)
	}
	narrow, err := NewNeural(mcts.Uniform{}, cfg, limits, 9)
	if err != nil {
		t.Fatal(err)
	}
	wide, _ := NewNeural(mcts.Uniform{}, cfg, limits, 9)
	ctx := context.Background()
	wp, err := b.WidePosition()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 5))
	proven := 0
	for ply := 0; wp.HasMoves(); ply++ {
		np, err := wp.Narrow()
		if err != nil {
			t.Fatal(err)
		}
		res, err := narrow.Analyze(ctx, np, limits)
		if err != nil {
			t.Fatal(err)
		}
		wres, err := wide.AnalyzeWide(ctx, wp, limits)
		if err != nil {
			t.Fatal(err)
		}
		if wres.Best != res.Best.Wide() || wres.Proven != res.Proven || wres.Value != res.Value {
			t.Fatalf("%s, solver %v, %v, ply %d: wide %v (proven %v, value %v), narrow %v (%v, %v)", b, cfg.Solver, limits, ply, wres.Best, wres.Proven, wres.Value, res.Best, res.Proven, res.Value)
		}
		if res.Proven {
			proven++
		}
		m, err := narrow.Move(ctx, np)
		if err != nil {
			t.Fatal(err)
		}
		wm, err := wide.MoveWide(ctx, wp)
		if err != nil {
			t.Fatal(err)
		}
		if wm != m.Wide() {
			t.Fatalf("%s, solver %v, %v, ply %d: wide %v, narrow %v", b, cfg.Solver, limits, ply, wm, m)
		}
		if ply%2 == 1 { // the opponent's moves vary the game
			var buf [rules.WideMaxMoves]rules.WideMove
			moves := wp.LegalMoves(buf[:0])
			wm = moves[rng.IntN(len(moves))]
		}
		wp = wp.Play(wm)
	}
	if cfg.Solver && proven == 0 {
		t.Errorf("%s, %v: no position proven: the proofs were not compared", b, limits)
	}
}
