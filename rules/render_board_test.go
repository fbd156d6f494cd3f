package rules

import "testing"

// TestRenderRectangle: Render draws a rectangle with its own files and
// ranks (7x6 after the first jump of the gap start).
func TestRenderRectangle(t *testing.T) {
	p, err := Board{W: 7, H: 6, Start: Gap}.Position()
	if err != nil {
		t.Fatal(err)
	}
	m, err := ParseMove(p, "d6-d4")
	if err != nil {
		t.Fatal(err)
	}
	const want = `6 o x o[.]o x o
5 x o x . x o x
4 o x o[x]o x o
3 x o x . x o x
2 o x o x o x o
1 x o x o x o x
  a b c d e f g
white to move
`
	if got := Render(p.Play(m), m); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestRenderWide: RenderWide draws the boards Position holds as Render
// does, and the large ones with right-aligned rank numbers and files to p
// (15x12 after its first jump).
func TestRenderWide(t *testing.T) {
	for _, name := range []string{"8", "7x6", "5x8", "4"} {
		b, _ := ParseBoard(name)
		p, _ := b.Position()
		_, ms := Playout(newRand(3), p, 5)
		for _, m := range ms {
			p = p.Play(m)
		}
		if got, want := RenderWide(p.Wide(), ms[len(ms)-1].Wide()), Render(p, ms[len(ms)-1]); got != want {
			t.Errorf("%s: got\n%s\nwant\n%s", name, got, want)
		}
		if got, want := RenderWide(p.Wide(), NoWideMove), Render(p, NoMove); got != want {
			t.Errorf("%s without a last move: got\n%s\nwant\n%s", name, got, want)
		}
	}
	p, _ := Board{W: 15, H: 12, Start: Gap}.WidePosition()
	m, err := ParseWideMove(p, "h4-h6")
	if err != nil {
		t.Fatal(err)
	}
	const want = `12 o x o x o x o x o x o x o x o
11 x o x o x o x o x o x o x o x
10 o x o x o x o x o x o x o x o
 9 x o x o x o x o x o x o x o x
 8 o x o x o x o x o x o x o x o
 7 x o x o x o x . x o x o x o x
 6 o x o x o x o[x]o x o x o x o
 5 x o x o x o x . x o x o x o x
 4 o x o x o x o[.]o x o x o x o
 3 x o x o x o x o x o x o x o x
 2 o x o x o x o x o x o x o x o
 1 x o x o x o x o x o x o x o x
   a b c d e f g h i j k l m n o
white to move
`
	if got := RenderWide(p.Play(m), m); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
