package rules

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/konanezero/konane/internal/golden"
)

// TestRenderGolden draws a set of positions, with and without a last move,
// and compares with testdata/render.golden.
func TestRenderGolden(t *testing.T) {
	type step struct {
		title string
		pos   Position
		last  Move
	}
	var steps []step
	// An 8x8 game: start, both removals and three jumps.
	p := NewPosition(8)
	steps = append(steps, step{"8x8 start", p, NoMove})
	for _, text := range []string{"d4", "e4", "b4-d4", "e6-e4", "g5-e5"} {
		m, err := ParseMove(p, text)
		if err != nil {
			t.Fatal(err)
		}
		p = p.Play(m)
		steps = append(steps, step{"8x8 after " + text, p, m})
	}
	steps = append(steps, step{"8x8 last position, no last move", p, NoMove})
	// Every other size after its first opening, the last move marked.
	for n := MinSize; n < MaxSize; n++ {
		o := Openings(n)[0]
		steps = append(steps, step{fmt.Sprintf("%dx%d after %v %v", n, n, o.Black, o.White), o.Position, o.White})
	}
	// A removal on the right edge: the closing bracket ends the line.
	q := mustPlay(t, NewPosition(5), "e5")
	steps = append(steps, step{"5x5 after e5", q, Move{SquareAt(4, 4), SquareAt(4, 4)}})
	// A jump from the left edge to the right edge of a 7x7 board.
	r := mustDiagram(t, `
		7 . . . . . . .
		6 . . . . . . .
		5 . . . . . . .
		4 x o . o . o .
		3 . . . . . . .
		2 . . . . . . .
		1 . . . . . . .
		  a b c d e f g
		black to move`)
	m := mustMove(t, r, "a4-g4")
	steps = append(steps, step{"7x7 triple jump a4-g4", r.Play(m), m})

	var out bytes.Buffer
	for _, s := range steps {
		fmt.Fprintf(&out, "# %s\n%s\n", s.title, Render(s.pos, s.last))
		// Whatever Render draws, ParsePosition reads back.
		back, err := ParsePosition(Render(s.pos, s.last))
		if err != nil {
			t.Fatalf("%s: %v", s.title, err)
		}
		if back != s.pos {
			t.Fatalf("%s: ParsePosition(Render(p)) = %+v, want %+v", s.title, back, s.pos)
		}
	}
	golden.Check(t, "render.golden", out.Bytes())
}

func mustMove(t testing.TB, p Position, text string) Move {
	t.Helper()
	m, err := ParseMove(p, text)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestRenderLayout pins the layout rules independently of the golden file.
func TestRenderLayout(t *testing.T) {
	p := NewPosition(8)
	lines := strings.Split(p.String(), "\n")
	want := []string{
		"8 o x o x o x o x",
		"7 x o x o x o x o",
		"6 o x o x o x o x",
		"5 x o x o x o x o",
		"4 o x o x o x o x",
		"3 x o x o x o x o",
		"2 o x o x o x o x",
		"1 x o x o x o x o",
		"  a b c d e f g h",
		"black to move",
		"",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Fatalf("start position:\n%s\nwant:\n%s", p, strings.Join(want, "\n"))
	}
	m := mustMove(t, p, "a1")
	after := Render(p.Play(m), m)
	if !strings.Contains(after, "1[.]o x o x o x o\n") {
		t.Errorf("removal of a1 not bracketed:\n%s", after)
	}
	if !strings.HasSuffix(after, "white to move\n") {
		t.Errorf("side to move missing:\n%s", after)
	}
	if got := p.String(); got != Render(p, NoMove) {
		t.Errorf("String differs from Render(p, NoMove)")
	}
	bad := Position{Size: 12}
	if got := bad.String(); !strings.Contains(got, "invalid position") {
		t.Errorf("invalid position drawn as %q", got)
	}
}

// TestParsePositionRoundTrip: String then ParsePosition is the identity
// on game positions and random positions of every size.
func TestParsePositionRoundTrip(t *testing.T) {
	for _, p := range testPositions(t, 4) {
		back, err := ParsePosition(p.String())
		if err != nil {
			t.Fatalf("%v\n%s", err, p)
		}
		if back != p {
			t.Fatalf("round trip of\n%v\ngave\n%v", p, back)
		}
	}
}

func TestParsePositionErrors(t *testing.T) {
	good := "4 o x o x\n3 x o x o\n2 o x o x\n1 x o x o\n  a b c d\nblack to move\n"
	for _, tc := range []struct{ name, text, want string }{
		{"too few lines", "1 x\n  a\nblack to move", "3 lines, want 4..8 ranks"},
		{"too many lines", strings.Repeat("1 x\n", 11), "11 lines"},
		{"wrong rank", strings.Replace(good, "3 x", "5 x", 1), "line 2: want rank 3 first"},
		{"short rank", strings.Replace(good, "3 x o x o", "3 x o x", 1), "line 2: rank 3 has 3 squares, want 4"},
		{"bad cell", strings.Replace(good, "2 o x o x", "2 o x ? x", 1), `line 3: square c2: '?' is not x (black), o (white) or . (empty)`},
		{"bad files", strings.Replace(good, "a b c d", "a b c e", 1), `line 5: file letters "a b c e", want "a b c d"`},
		{"bad turn", strings.Replace(good, "black to move", "black moves", 1), `line 6: "black moves": want "black to move" or "white to move"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParsePosition(tc.text)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "rules: diagram") {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
	if _, err := ParsePosition(good); err != nil {
		t.Fatalf("the good diagram fails: %v", err)
	}
}
