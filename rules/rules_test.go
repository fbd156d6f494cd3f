package rules

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// One named test per line of the rules. Positions are drawn as diagrams
// (see ParsePosition) so that each case reads like the rule it pins.

// Black's first move removes a Black stone from a corner or a central
// square: the middle 2x2 block of an even board, the middle square of an
// odd one. The lists are worked out by hand from a1 being Black.
func TestRuleBlackRemovalSquares(t *testing.T) {
	for _, tc := range []struct {
		size int
		want []string
	}{
		{4, []string{"a1", "b2", "c3", "d4"}},       // a1, d4 corners; b2, c3 of the middle 2x2
		{5, []string{"a1", "a5", "c3", "e1", "e5"}}, // all four corners and the centre
		{6, []string{"a1", "c3", "d4", "f6"}},
		{7, []string{"a1", "a7", "d4", "g1", "g7"}},
		{8, []string{"a1", "d4", "e5", "h8"}},
	} {
		t.Run(fmt.Sprintf("%dx%d", tc.size, tc.size), func(t *testing.T) {
			p := NewPosition(tc.size)
			if p.Phase() != RemoveBlack || p.Turn != Black {
				t.Fatalf("start: phase %v, %v to move", p.Phase(), p.Turn)
			}
			if got := moveStrings(p.LegalMoves(nil)); !slices.Equal(got, tc.want) {
				t.Fatalf("Black's removals %v, want %v", got, tc.want)
			}
			for _, text := range tc.want {
				after := mustPlay(t, p, text)
				if after.Phase() != RemoveWhite || after.Turn != White {
					t.Fatalf("after %s: phase %v, %v to move", text, after.Phase(), after.Turn)
				}
				if b, w := after.StoneCount(); b != (tc.size*tc.size+1)/2-1 || w != tc.size*tc.size/2 {
					t.Fatalf("after %s: %d black and %d white stones", text, b, w)
				}
			}
		})
	}
}

// White's first move removes a White stone orthogonally adjacent to the
// hole Black made, and nothing else.
func TestRuleWhiteRemovalAdjacentToHole(t *testing.T) {
	for _, tc := range []struct {
		size  int
		black string
		want  []string
	}{
		{8, "a1", []string{"a2", "b1"}},
		{8, "h8", []string{"g8", "h7"}},
		{8, "d4", []string{"c4", "d3", "d5", "e4"}},
		{8, "e5", []string{"d5", "e4", "e6", "f5"}},
		{5, "c3", []string{"b3", "c2", "c4", "d3"}},
		{5, "e1", []string{"d1", "e2"}},
		{4, "b2", []string{"a2", "b1", "b3", "c2"}},
		{7, "g7", []string{"f7", "g6"}},
	} {
		t.Run(fmt.Sprintf("%dx%d %s", tc.size, tc.size, tc.black), func(t *testing.T) {
			p := mustPlay(t, NewPosition(tc.size), tc.black)
			if got := moveStrings(p.LegalMoves(nil)); !slices.Equal(got, tc.want) {
				t.Fatalf("White's removals %v, want %v", got, tc.want)
			}
		})
	}
	// On every size and after every Black removal: exactly the on-board
	// neighbours of the hole (all White by the colouring).
	for n := MinSize; n <= MaxSize; n++ {
		start := NewPosition(n)
		for _, bm := range start.LegalMoves(nil) {
			p := start.Play(bm)
			var want []Move
			for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
				r, c := bm.From.Row()+d[0], bm.From.Col()+d[1]
				if r >= 0 && r < n && c >= 0 && c < n {
					want = append(want, Move{SquareAt(r, c), SquareAt(r, c)})
				}
			}
			if got := p.LegalMoves(nil); !sameMoveSet(got, want) {
				t.Errorf("%dx%d after %v: White's removals %v, want %v", n, n, bm, moveStrings(got), moveStrings(want))
			}
		}
	}
}

// A stone may keep jumping in the same direction over further enemy
// stones into empty squares; every stopping point is a separate move.
func TestRuleMultiHopEachStopIsAMove(t *testing.T) {
	p := mustDiagram(t, `
		8 . . . . . . . .
		7 . . . . . . . .
		6 . . . . . . . .
		5 . . . . . . . .
		4 . . . . . . . .
		3 . . . . . . . .
		2 . . . . . . . .
		1 x o . o . o . o
		  a b c d e f g h
		black to move`)
	want := []string{"a1-c1", "a1-e1", "a1-g1"} // the chain ends at g1: beyond h1 is the edge
	if got := moveStrings(p.LegalMoves(nil)); !slices.Equal(got, want) {
		t.Fatalf("moves %v, want %v", got, want)
	}
	for _, tc := range []struct {
		move     string
		hops     int
		captured []string
	}{
		{"a1-c1", 1, []string{"b1"}},
		{"a1-e1", 2, []string{"b1", "d1"}},
		{"a1-g1", 3, []string{"b1", "d1", "f1"}},
	} {
		m := mustMove(t, p, tc.move)
		if m.Hops() != tc.hops {
			t.Errorf("%s: %d hops, want %d", tc.move, m.Hops(), tc.hops)
		}
		after := p.Play(m)
		for _, sq := range tc.captured {
			s, _ := ParseSquare(sq, 8)
			if _, ok := after.At(s); ok {
				t.Errorf("%s: %s not captured", tc.move, sq)
			}
		}
		if _, w := after.StoneCount(); w != 4-tc.hops {
			t.Errorf("%s: %d White stones left, want %d", tc.move, w, 4-tc.hops)
		}
		if c, ok := after.At(m.To); !ok || c != Black {
			t.Errorf("%s: the jumping stone is not on %v", tc.move, m.To)
		}
	}
	// A gap stops the chain: the second hop needs an enemy stone right
	// after the first landing.
	q := mustDiagram(t, `
		4 . . . .
		3 . . . .
		2 . . . .
		1 o x . .
		  a b c d
		white to move`)
	if got := moveStrings(q.LegalMoves(nil)); !slices.Equal(got, []string{"a1-c1"}) {
		t.Fatalf("moves %v, want [a1-c1]", got)
	}
}

// A multi-hop jump keeps one direction: the stone cannot turn a corner.
func TestRuleNoDirectionChange(t *testing.T) {
	// After a1 over b1 to c1, a turn north over c2 into c3 would be a
	// second hop; it is not a move.
	q := mustDiagram(t, `
		5 . . . . .
		4 . . . . .
		3 . . . . .
		2 . . o . .
		1 x o . . .
		  a b c d e
		black to move`)
	if got := moveStrings(q.LegalMoves(nil)); !slices.Equal(got, []string{"a1-c1"}) {
		t.Fatalf("with White on c2: moves %v, want only [a1-c1] (no turn to c3)", got)
	}
	if _, err := ParseMove(q, "a1-c3"); err == nil || !strings.Contains(err.Error(), "straight") {
		t.Fatalf("a1-c3 accepted or wrong reason: %v", err)
	}
}

// Jumps are orthogonal only: never diagonal.
func TestRuleNoDiagonalJump(t *testing.T) {
	p := mustDiagram(t, `
		4 . . . .
		3 . . . .
		2 . o . .
		1 x . . .
		  a b c d
		black to move`)
	if got := p.LegalMoves(nil); len(got) != 0 {
		t.Fatalf("moves %v, want none (b2 is only diagonal to a1)", moveStrings(got))
	}
	if _, err := ParseMove(p, "a1-c3"); err == nil || !strings.Contains(err.Error(), "straight") {
		t.Fatalf("a1-c3: %v, want a 'straight' error", err)
	}
}

// Only enemy stones are jumped, and only into empty squares.
func TestRuleCannotJumpOwnStonesOrLandOnStones(t *testing.T) {
	p := mustDiagram(t, `
		4 . . . .
		3 x . . .
		2 x . . .
		1 x o x .
		  a b c d
		black to move`)
	// a1 over a2 (own) into a3 (own): no. a1 over b1 into c1 (own stone): no.
	// a2 and a3: nothing to jump. c1 over b1 into a1: a1 is occupied.
	if got := p.LegalMoves(nil); len(got) != 0 {
		t.Fatalf("moves %v, want none", moveStrings(got))
	}
	for _, tc := range []struct{ move, why string }{
		{"a2-a4", "a3 does not hold an enemy stone"},
		{"a1-c1", "landing square c1 is not empty"},
		{"c1-a1", "landing square a1 is not empty"},
	} {
		if _, err := ParseMove(p, tc.move); err == nil || !strings.Contains(err.Error(), tc.why) {
			t.Errorf("%s: %v, want %q", tc.move, err, tc.why)
		}
	}
	// Over an own stone into an empty square is no jump either.
	q := mustDiagram(t, `
		4 . . . .
		3 . . . .
		2 . . . .
		1 o o . .
		  a b c d
		white to move`)
	if got := q.LegalMoves(nil); len(got) != 0 {
		t.Fatalf("moves %v, want none (b1 is White's own)", moveStrings(got))
	}
	// A second hop that would land on a stone is not a move; the first
	// hop still is.
	r := mustDiagram(t, `
		6 . . . . . .
		5 . . . . . .
		4 . . . . . .
		3 . . . . . .
		2 . . . . . .
		1 x o . o o .
		  a b c d e f
		black to move`)
	if got := moveStrings(r.LegalMoves(nil)); !slices.Equal(got, []string{"a1-c1"}) {
		t.Fatalf("moves %v, want [a1-c1]", got)
	}
}

// The side to move with no legal move loses; there are no passes and no
// draws. Play never changes whose turn it would be otherwise.
func TestRuleNoMoveLoses(t *testing.T) {
	p := mustDiagram(t, `
		4 . . . .
		3 . . . .
		2 . . . .
		1 x o x o
		  a b c d
		white to move`)
	// b1 has Black on both sides but nowhere to land (a1 is the edge, d1
	// is White's own); d1 would land on b1, its own stone.
	if p.HasMoves() || p.CountMoves() != 0 || len(p.LegalMoves(nil)) != 0 {
		t.Fatalf("White has moves in\n%v", p)
	}
	// The same stones with Black to move: a1 and c1 would land on each
	// other, and c1 over d1 leaves the board. Black has no move either.
	p.Turn = Black
	if p.HasMoves() {
		t.Fatalf("Black has moves in\n%v", p)
	}
	// Every random game ends with the side to move stuck, and the
	// opponent is the winner that ResultFor names.
	rng := newRand(7)
	for n := MinSize; n <= MaxSize; n++ {
		ps, ms := Playout(rng, NewPosition(n), -1)
		final := ps[len(ps)-1]
		if final.HasMoves() {
			t.Fatalf("%dx%d: playout stopped with moves left", n, n)
		}
		if want := Color(len(ms) % 2); final.Turn != want {
			t.Fatalf("%dx%d: after %d moves %v is to move, want %v (strict alternation)", n, n, len(ms), final.Turn, want)
		}
	}
}

// The phases follow from the number of empty squares.
func TestRulePhases(t *testing.T) {
	p := NewPosition(6)
	for _, want := range []Phase{RemoveBlack, RemoveWhite, Jumping, Jumping} {
		if p.Phase() != want {
			t.Fatalf("phase %v, want %v\n%v", p.Phase(), want, p)
		}
		p = p.Play(p.LegalMoves(nil)[0])
	}
}
