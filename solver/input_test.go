package solver

import (
	"context"
	"strings"
	"testing"

	"github.com/konanezero/konane/rules"
)

func TestInvalidPositions(t *testing.T) {
	start := rules.NewPosition(4)
	afterBlack := start.Play(rules.Move{From: 0, To: 0}) // a1 removed
	tests := []struct {
		name string
		p    rules.Position
		want string
	}{
		{"size 3", rules.Position{Size: 3}, "board size 3"},
		{"size 9", rules.Position{Size: 9}, "board size 9"},
		{"stone off the board", rules.Position{Size: 4, Black: rules.SquareAt(0, 5).Bit()}, "off the 4x4 board"},
		{"two stones on a square", rules.Position{Size: 4, Black: 1, White: 1}, "two stones"},
		{"full board, white to move", rules.Position{Black: start.Black, White: start.White, Size: 4, Turn: rules.White}, "black to move"},
		{"one hole, black to move", rules.Position{Black: afterBlack.Black, White: afterBlack.White, Size: 4, Turn: rules.Black}, "white to move"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := New(WithTableEntries(16))
			_, err := s.Solve(context.Background(), tc.p)
			if err == nil || !strings.HasPrefix(err.Error(), "solver: ") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Solve: error %v, want one starting \"solver: \" and containing %q", err, tc.want)
			}
			if _, err := s.Analyze(context.Background(), tc.p); err == nil {
				t.Error("Analyze: no error")
			}
			if _, _, err := s.WinningMove(context.Background(), tc.p); err == nil {
				t.Error("WinningMove: no error")
			}
		})
	}
	for _, size := range []int{3, 9} {
		if _, err := New().SolveStart(context.Background(), size, nil); err == nil || !strings.Contains(err.Error(), "board size") {
			t.Errorf("SolveStart(%d): error %v, want a board size error", size, err)
		}
	}
}

func TestTerminalPosition(t *testing.T) {
	// 4x4, Black: a1; White: d4. Neither stone can jump.
	p := rules.Position{Size: 4, Black: rules.SquareAt(0, 0).Bit(), White: rules.SquareAt(3, 3).Bit()}
	s := New(WithTableEntries(16))
	if win, err := s.Solve(context.Background(), p); err != nil || win {
		t.Errorf("Solve = %v, %v; want false (no move: the side to move loses)", win, err)
	}
	if res, err := s.Analyze(context.Background(), p); err != nil || len(res) != 0 {
		t.Errorf("Analyze = %v, %v; want no results", res, err)
	}
	if m, ok, err := s.WinningMove(context.Background(), p); err != nil || ok || m != rules.NoMove {
		t.Errorf("WinningMove = %v, %v, %v; want NoMove, false", m, ok, err)
	}
}

func TestStatsAndReuse(t *testing.T) {
	s := New(WithTableEntries(1 << 12))
	ctx := context.Background()
	p := rules.NewPosition(5)
	first, err := s.Solve(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	st := s.Stats()
	if st.Nodes == 0 || st.Stores == 0 || st.Stores > st.Nodes || st.Hits > st.Nodes*rules.MaxMoves {
		t.Fatalf("implausible stats after a 5x5 solve: %+v", st)
	}
	// Solved again with the same table: answered at the root.
	again, err := s.Solve(ctx, p)
	if err != nil || again != first {
		t.Fatalf("second Solve = %v, %v; first was %v", again, err, first)
	}
	if st2 := s.Stats(); st2.Nodes != st.Nodes+1 || st2.Hits != st.Hits+1 {
		t.Errorf("second Solve: stats %+v after %+v, want one node answered by the table", st2, st)
	}
	s.ResetStats()
	if st := s.Stats(); st != (Stats{}) {
		t.Errorf("after ResetStats: %+v", st)
	}
	s.Clear()
	cleared, err := s.Solve(ctx, p)
	if err != nil || cleared != first {
		t.Fatalf("Solve after Clear = %v, %v; want %v", cleared, err, first)
	}
	if s.Stats().Nodes != st.Nodes {
		t.Errorf("after Clear the search took %d nodes, the first one %d", s.Stats().Nodes, st.Nodes)
	}
}
