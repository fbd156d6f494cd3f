package solver

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/rules/rulestest"
)

// refWin is the specification the solver is checked against: plain
// negamax over every move, with no table and no move ordering.
func refWin(p rules.Position) bool {
	var buf [rules.MaxMoves]rules.Move
	for _, m := range p.LegalMoves(buf[:0]) {
		if !refWin(p.Play(m)) {
			return true
		}
	}
	return false
}

// randomPositions plays count seeded random games on a size×size board
// and returns the position after a random number of plies in [lo, hi] of
// each (or its last position if the game ends before).
func randomPositions(size, count, lo, hi int, seed uint64) []rules.Position {
	return rulestest.AtPlies(rand.New(rand.NewPCG(seed, uint64(size))), size, count, lo, hi)
}

func TestSolveMatchesReference(t *testing.T) {
	// The ply ranges keep the reference search to about a second per case.
	tests := []struct {
		name         string
		size, count  int
		lo, hi       int // plies played from the start
		seed         uint64
		tableEntries int
	}{
		{"4x4 any stage", 4, 300, 0, 12, 1, DefaultTableEntries},
		{"5x5 any stage", 5, 200, 2, 16, 1, DefaultTableEntries},
		{"6x6 late", 6, 100, 14, 28, 2, DefaultTableEntries},
		// A table of one bucket: nearly every store evicts another
		// position, and the answers must stay exact.
		{"5x5 tiny table", 5, 100, 2, 16, 3, 2},
		{"6x6 tiny table", 6, 60, 14, 28, 2, 2},
		{"7x7 late", 7, 30, 22, 34, 5, DefaultTableEntries},
		{"8x8 late", 8, 40, 34, 50, 6, DefaultTableEntries},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := New(WithTableEntries(tc.tableEntries))
			for j, p := range randomPositions(tc.size, tc.count, tc.lo, tc.hi, tc.seed) {
				got, err := s.Solve(context.Background(), p)
				if err != nil {
					t.Fatal(err)
				}
				if want := refWin(p); got != want {
					t.Fatalf("position %d %+v: Solve = %v, reference negamax = %v", j, p, got, want)
				}
			}
		})
	}
}

func TestAnalyzeMatchesSolveAndReference(t *testing.T) {
	s := New()
	ctx := context.Background()
	positions := append(randomPositions(4, 100, 0, 10, 7), randomPositions(5, 60, 0, 14, 8)...)
	positions = append(positions, randomPositions(6, 30, 14, 30, 9)...)
	for j, p := range positions {
		results, err := s.Analyze(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		moves := p.LegalMoves(nil)
		if len(results) != len(moves) {
			t.Fatalf("position %d: %d results for %d legal moves", j, len(results), len(moves))
		}
		anyWin := false
		for i, r := range results {
			if r.Move != moves[i] {
				t.Fatalf("position %d: result %d is %v, want %v (LegalMoves order)", j, i, r.Move, moves[i])
			}
			if want := !refWin(p.Play(r.Move)); r.Wins != want {
				t.Fatalf("position %d: move %v wins = %v, reference %v", j, r.Move, r.Wins, want)
			}
			anyWin = anyWin || r.Wins
		}
		win, err := s.Solve(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		if win != anyWin {
			t.Fatalf("position %d: Solve = %v but some move wins = %v", j, win, anyWin)
		}
		m, ok, err := s.WinningMove(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		if ok != win {
			t.Fatalf("position %d: WinningMove ok = %v, Solve = %v", j, ok, win)
		}
		if ok && !results[indexOf(moves, m)].Wins {
			t.Fatalf("position %d: WinningMove %v does not win", j, m)
		}
		if !ok && m != rules.NoMove {
			t.Fatalf("position %d: lost position, WinningMove = %v, want NoMove", j, m)
		}
	}
}

func indexOf(moves []rules.Move, m rules.Move) int {
	for i, x := range moves {
		if x == m {
			return i
		}
	}
	return -1
}

// Known results: 4x4 is a win for White, 5x5 a win for Black after every
// pair of removals. Each opening is checked against the reference too.
func TestSolveStartSmallBoards(t *testing.T) {
	for _, tc := range []struct {
		size      int
		blackWins bool
	}{{4, false}, {5, true}} {
		s := New()
		var reported []OpeningResult
		start, err := s.SolveStart(context.Background(), tc.size, func(r OpeningResult) { reported = append(reported, r) })
		if err != nil {
			t.Fatal(err)
		}
		if start.BlackWins != tc.blackWins {
			t.Errorf("%dx%d: black wins = %v, want %v", tc.size, tc.size, start.BlackWins, tc.blackWins)
		}
		openings := rules.Openings(tc.size)
		if len(start.Openings) != len(openings) || len(reported) != len(openings) {
			t.Fatalf("%dx%d: %d results, %d reported, want %d", tc.size, tc.size, len(start.Openings), len(reported), len(openings))
		}
		for i, r := range start.Openings {
			if r.Black != openings[i].Black || r.White != openings[i].White || reported[i] != r {
				t.Fatalf("%dx%d: result %d is %v %v, want %v %v", tc.size, tc.size, i, r.Black, r.White, openings[i].Black, openings[i].White)
			}
			if want := refWin(r.Position); r.BlackWins != want {
				t.Errorf("%dx%d %v %v: black wins = %v, reference %v", tc.size, tc.size, r.Black, r.White, r.BlackWins, want)
			}
			if tc.size == 5 && !r.BlackWins {
				t.Errorf("5x5 %v %v: white wins, but Black wins every 5x5 opening", r.Black, r.White)
			}
		}
		win, err := New().Solve(context.Background(), rules.NewPosition(tc.size))
		if err != nil {
			t.Fatal(err)
		}
		if win != start.BlackWins {
			t.Errorf("%dx%d: Solve(start) = %v, SolveStart value = %v", tc.size, tc.size, win, start.BlackWins)
		}
		if want := refWin(rules.NewPosition(tc.size)); win != want {
			t.Errorf("%dx%d: Solve(start) = %v, reference %v", tc.size, tc.size, win, want)
		}
	}
}

func TestWinningMoves(t *testing.T) {
	a, b, c := rules.Move{From: 1, To: 3}, rules.Move{From: 2, To: 4}, rules.Move{From: 5, To: 7}
	got := WinningMoves([]MoveResult{{a, true}, {b, false}, {c, true}})
	if len(got) != 2 || got[0] != a || got[1] != c {
		t.Fatalf("WinningMoves = %v, want [%v %v]", got, a, c)
	}
	if WinningMoves([]MoveResult{{b, false}}) != nil {
		t.Fatal("no winning move should give nil")
	}
}

// TestSolvable: 4x4 and 5x5 always; above, up to maxStones stones.
func TestSolvable(t *testing.T) {
	if !Solvable(rules.NewPosition(5), 0) {
		t.Error("the 5x5 start is not solvable")
	}
	start8 := rules.NewPosition(8) // 64 stones
	if Solvable(start8, DefaultMaxStones) || !Solvable(start8, 64) {
		t.Error("the 8x8 start: solvable with the default limit, or not with 64")
	}
}
