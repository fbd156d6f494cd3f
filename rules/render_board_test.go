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
