package solver

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/konanezero/konane/rules"
)

// boardPositions plays count seeded random games from b's start and
// returns the position after a random number of plies in [lo, hi] of each
// (or the last one when the game ends before).
func boardPositions(t *testing.T, b rules.Board, count, lo, hi int, seed uint64) []rules.Position {
	t.Helper()
	start, err := b.Position()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, uint64(b.W*16+b.H)))
	var out []rules.Position
	for range count {
		ps, _ := rules.Playout(rng, start, lo+rng.IntN(hi-lo+1))
		out = append(out, ps[len(ps)-1])
	}
	return out
}

// On rectangles, from both starts, the solver agrees with plain negamax;
// one solver (one table) serves all the boards in turn.
func TestSolveRectanglesMatchesReference(t *testing.T) {
	s := New()
	for _, tc := range []struct {
		board  string
		count  int
		lo, hi int
	}{
		{"4x5", 80, 0, 14},
		{"4x5/removal", 80, 0, 14},
		{"5x4", 80, 0, 14},
		{"5x4/removal", 80, 0, 14},
		{"4x6", 60, 2, 16},
		{"6x5", 40, 10, 24},
		{"7x6", 20, 16, 32},
		{"8x5/removal", 20, 14, 30},
	} {
		b, err := rules.ParseBoard(tc.board)
		if err != nil {
			t.Fatal(err)
		}
		for j, p := range boardPositions(t, b, tc.count, tc.lo, tc.hi, 11) {
			got, err := s.Solve(context.Background(), p)
			if err != nil {
				t.Fatalf("%s: %v", tc.board, err)
			}
			if want := refWin(p); got != want {
				t.Fatalf("%s position %d %+v: Solve = %v, reference negamax = %v", tc.board, j, p, got, want)
			}
		}
	}
}

// Positions with the same stones on different boards are different
// entries of the table.
func TestTableKeysTellBoardsApart(t *testing.T) {
	tt := newTable(3)
	var ps []rules.Position
	for _, name := range []string{"4", "4x5", "5x4", "8x7", "7x8", "8"} {
		b, err := rules.ParseBoard(name)
		if err != nil {
			t.Fatal(err)
		}
		p, err := b.Position()
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, rules.Position{Black: 0b101, White: 0b010, Size: p.Size, Turn: rules.White})
	}
	tt.store(ps[0], ps[0].Hash(), true, 1<<20)
	tt.store(ps[1], ps[1].Hash(), false, 1<<19)
	for i, p := range ps {
		e, ok := tt.probe(p, p.Hash())
		switch {
		case i >= 2 && ok:
			t.Errorf("%s: found the entry of another board", p.Dims())
		case i < 2 && (!ok || e.win() != (i == 0)):
			t.Errorf("%s: probe = %v, %v", p.Dims(), e.win(), ok)
		}
	}
}

func TestSolveBoard(t *testing.T) {
	s := New()
	ctx := context.Background()
	// A square board's start as SolveStart solves it.
	sq, err := s.SolveBoard(ctx, rules.SquareBoard(5), nil)
	if err != nil {
		t.Fatal(err)
	}
	old, err := s.SolveStart(ctx, 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sq.BlackWins != old.BlackWins || len(sq.Openings) != len(old.Openings) {
		t.Fatalf("SolveBoard(5x5) = %v with %d openings; SolveStart %v with %d", sq.BlackWins, len(sq.Openings), old.BlackWins, len(old.Openings))
	}
	for i := range sq.Openings {
		if sq.Openings[i].Black != old.Openings[i].Black || sq.Openings[i].White != old.Openings[i].White || sq.Openings[i].BlackWins != old.Openings[i].BlackWins {
			t.Errorf("opening %d differs: %+v vs %+v", i, sq.Openings[i], old.Openings[i])
		}
	}
	// Gap and removal starts of rectangles agree with plain negamax.
	for _, name := range []string{"4x5", "5x4", "4x5/removal", "5x4/removal", "6x4"} {
		b, _ := rules.ParseBoard(name)
		res, err := s.SolveBoard(ctx, b, nil)
		if err != nil {
			t.Fatal(err)
		}
		start, _ := b.Position()
		if want := refWin(start); res.BlackWins != want {
			t.Errorf("%s: SolveBoard says black wins %v; negamax %v", name, res.BlackWins, want)
		}
		if (b.Start == rules.Gap) != (len(res.Openings) == 0) {
			t.Errorf("%s: %d openings", name, len(res.Openings))
		}
	}
	for _, name := range []string{"9x8", "16x16"} {
		b, _ := rules.ParseBoard(name)
		if _, err := s.SolveBoard(ctx, b, nil); err == nil {
			t.Errorf("%s: solved a board the solver does not hold", name)
		}
	}
}

func TestSolvableRectangles(t *testing.T) {
	for _, tc := range []struct {
		board string
		want  bool
	}{{"4x5", true}, {"5x5", true}, {"4x6", true}, {"5x6", false}, {"6x6", false}, {"7x6", false}} {
		b, _ := rules.ParseBoard(tc.board)
		p, _ := b.Position()
		if got := Solvable(p, 10); got != tc.want {
			t.Errorf("Solvable(%s start, 10) = %v; want %v", tc.board, got, tc.want)
		}
	}
}
