package rules

import (
	"strings"
	"testing"
)

// TestPositionValidate: Validate names what is wrong with a position built
// by hand (or decoded from outside).
func TestPositionValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		pos  Position
		want string // "" for valid
	}{
		{"start", NewPosition(6), ""},
		{"empty board", Position{Size: 4}, ""},
		{"size too small", Position{Size: 3}, "rules: board size 3 outside 4..8"},
		{"size too big", Position{Size: 200}, "rules: board size 200 outside 4..8"},
		{"stone off board", Position{Size: 4, Black: SquareAt(0, 5).Bit()}, "rules: stones off the 4x4 board"},
		{"two stones on a square", Position{Size: 8, Black: 1 << 9, White: 1<<9 | 1}, "rules: square b2 holds two stones"},
		{"bad turn", Position{Size: 8, Turn: 2}, "rules: side to move 2 is neither black nor white"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.pos.Validate()
			if (err == nil) != (tc.want == "") || (err != nil && err.Error() != tc.want) {
				t.Fatalf("Validate() = %v, want %q", err, tc.want)
			}
		})
	}
}

// TestPositionBasics pins the start position, At, OnBoard and the names.
func TestPositionBasics(t *testing.T) {
	for n := MinSize; n <= MaxSize; n++ {
		p := NewPosition(n)
		b, w := p.StoneCount()
		if b+w != n*n || b != (n*n+1)/2 || p.Empty() != 0 || p.Turn != Black {
			t.Fatalf("%dx%d start: %d black %d white, empty %#x, %v to move", n, n, b, w, p.Empty(), p.Turn)
		}
		for s := Square(0); s < 64; s++ {
			on := s.Row() < n && s.Col() < n
			if p.OnBoard(s) != on {
				t.Fatalf("%dx%d: OnBoard(%v) = %v", n, n, s, p.OnBoard(s))
			}
			c, ok := p.At(s)
			if ok != on || (on && c != Color((s.Row()+s.Col())%2)) {
				t.Fatalf("%dx%d: At(%v) = %v, %v", n, n, s, c, ok)
			}
		}
		if _, ok := p.At(NoSquare); ok || p.OnBoard(NoSquare) {
			t.Fatalf("NoSquare is on the board")
		}
	}
	for _, tc := range []struct{ got, want string }{
		{Black.String(), "black"}, {White.String(), "white"},
		{RemoveBlack.String(), "black removal"}, {RemoveWhite.String(), "white removal"}, {Jumping.String(), "jumping"},
		{North.String(), "north"}, {East.String(), "east"}, {South.String(), "south"}, {West.String(), "west"},
		{SquareAt(3, 3).String(), "d4"}, {NoSquare.String(), "-"},
	} {
		if tc.got != tc.want {
			t.Errorf("%q, want %q", tc.got, tc.want)
		}
	}
	if Black.Other() != White || White.Other() != Black {
		t.Errorf("Other is not the opponent")
	}
}

// NewPosition panics on an unsupported size: that is a programming error,
// callers validate sizes from outside first.
func TestNewPositionPanicsOnBadSize(t *testing.T) {
	for _, n := range []int{0, 3, 9} {
		func() {
			defer func() {
				r := recover()
				if r == nil || !strings.Contains(r.(string), "outside 4..8") {
					t.Errorf("NewPosition(%d): recovered %v", n, r)
				}
			}()
			NewPosition(n)
		}()
	}
}

// TestCaptured: the stones a move captures are exactly the opponent's
// stones it removes, and none for a removal.
func TestCaptured(t *testing.T) {
	for _, p := range testPositions(t, 5) {
		opp := p.Turn.Other()
		for _, m := range p.LegalMoves(nil) {
			want := p.Stones(opp) &^ p.Play(m).Stones(opp)
			if m.IsRemoval() {
				want = 0
			}
			if got := p.Captured(m); got != want {
				t.Fatalf("%v in\n%v: captured %x, want %x", m, p, got, want)
			}
		}
	}
}
