package player

import (
	"context"
	"math/bits"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/rules/rulestest"
	"github.com/konanezero/konane/solver"
)

// TestPVSAgreesWithSolver: searched to the end, the PVS engine (without
// the solver's help) finds the same result as the exact solver, and its
// move keeps a win.
func TestPVSAgreesWithSolver(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	s := solver.New(solver.WithTableEntries(1 << 16))
	count := 60
	if testing.Short() {
		count = 20
	}
	for i := 0; i < count; i++ {
		size := 4 + i%2
		p := rulestest.Opening(rng, size, rng.IntN(6)+2)
		if !p.HasMoves() {
			continue
		}
		e := NewPVS(0, 0, uint64(i))
		e.SolveStones = 0
		res := e.Search(context.Background(), p, 0)
		solved, wins, _ := res.Solved()
		if !solved {
			t.Fatalf("%dx%d position %d: not solved: %v", size, size, i, res)
		}
		want, err := s.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if wins != want {
			t.Fatalf("%dx%d position %d: search says win=%v, solver %v\n%v", size, size, i, wins, want, p)
		}
		if wins {
			opp, err := s.Solve(context.Background(), p.Play(res.PV[0]))
			if err != nil {
				t.Fatal(err)
			}
			if opp {
				t.Fatalf("%dx%d position %d: move %v throws the win away", size, size, i, res.PV[0])
			}
		}
	}
}

// TestPVSFixedDepthDeterministic: two engines with the same seed give the
// same fixed-depth result, and so does one engine searching twice.
func TestPVSFixedDepthDeterministic(t *testing.T) {
	p := benchPosition()
	a, b := NewPVS(5, 0, 3), NewPVS(5, 0, 3)
	ra := a.Search(context.Background(), p, 5)
	rb := b.Search(context.Background(), p, 5)
	if ra.String() != rb.String() || ra.Nodes != rb.Nodes {
		t.Fatalf("same seed, different searches:\n%v (%d nodes)\n%v (%d nodes)", ra, ra.Nodes, rb, rb.Nodes)
	}
}

// endgame returns an 8x8 position of at most stones stones, from a game
// of the engine at depth 2 against itself.
func endgame(stones int) rules.Position {
	e := NewPVS(2, 0, 1)
	e.SolveStones = 0
	p := rules.NewPosition(8)
	for bits.OnesCount64(p.Black|p.White) > stones && p.HasMoves() {
		p = p.Play(e.Search(context.Background(), p, 2).PV[0])
	}
	return p
}

// TestPVSTimeLimit: a time-limited move comes back within its budget plus
// a margin (the machine may be loaded), in the middle game and in an
// endgame that goes to the solver first.
func TestPVSTimeLimit(t *testing.T) {
	for _, p := range []rules.Position{benchPosition(), endgame(DefaultSolveStones)} {
		e := NewPVS(0, 100*time.Millisecond, 1)
		start := time.Now()
		m, err := e.Move(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if el := time.Since(start); el > 600*time.Millisecond {
			t.Errorf("move took %v with a 100ms budget in\n%v", el, p)
		}
		if !p.Legal(m) {
			t.Errorf("illegal move %v", m)
		}
	}
}

// TestPVSPlaysProvenWin: in a small endgame the solver's proven win is
// reported and played.
func TestPVSPlaysProvenWin(t *testing.T) {
	s := solver.New(solver.WithTableEntries(1 << 18))
	for stones := 14; stones <= 20; stones += 2 {
		p := endgame(stones)
		if !p.HasMoves() {
			continue
		}
		wins, err := s.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		r := NewPVS(4, 0, 1).Search(context.Background(), p, 4)
		solved, rwins, _ := r.Solved()
		if wins && (!solved || !rwins) {
			t.Fatalf("%d stones: solver says won, search %v", stones, r)
		}
		if wins {
			if opp, _ := s.Solve(context.Background(), p.Play(r.PV[0])); opp {
				t.Fatalf("%d stones: %v throws the win away", stones, r.PV[0])
			}
		}
	}
}

// FuzzPVS plays a game chosen by the fuzzer's bytes (each picks a legal
// move) on a board and a depth it also chooses, and checks that the
// engine returns a legal move and never panics.
func FuzzPVS(f *testing.F) {
	f.Add([]byte{0, 0, 1, 2, 3}, uint8(4), uint8(3))
	f.Add([]byte{3, 1, 4, 1, 5, 9, 2, 6}, uint8(8), uint8(5))
	f.Add([]byte{}, uint8(6), uint8(1))
	f.Fuzz(func(t *testing.T, path []byte, size, depth uint8) {
		n := rules.MinSize + int(size)%(rules.MaxSize-rules.MinSize+1)
		d := 1 + int(depth)%6
		p := rules.NewPosition(n)
		var buf [rules.MaxMoves]rules.Move
		for _, b := range path {
			moves := p.LegalMoves(buf[:0])
			if len(moves) == 0 {
				return
			}
			p = p.Play(moves[int(b)%len(moves)])
		}
		if !p.HasMoves() {
			return
		}
		e := newPVS(d, 0, uint64(len(path)), 10, 1<<12)
		if d%2 == 0 {
			e.Eval.Region = 4 // the region reserve's flood fill too
		}
		m, err := e.Move(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if !p.Legal(m) {
			t.Fatalf("illegal move %v in\n%v", m, p)
		}
	})
}
