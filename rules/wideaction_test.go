package rules

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestWideActions checks the wide action space: on every board Position
// holds each move's wide action is its action (and back), and on every
// board up to 16x16 WideActionIndex and WideActionMove are inverse
// bijections between 0..NumWideActions-1 and the removals and on-board
// jumps of up to MaxHops of the longer side, enumerated here from every
// pair of squares.
func TestWideActions(t *testing.T) {
	for w := MinSide; w <= MaxSide; w++ {
		for h := MinSide; h <= MaxSide; h++ {
			n := NumWideActions(w, h)
			if shape := ShapeCode(w, h); shape < 256 {
				if n != NumActions(shape) {
					t.Fatalf("%dx%d: %d wide actions, %d actions", w, h, n, NumActions(shape))
				}
				for a := range n {
					m := ActionMove(a, shape)
					if wm := WideActionMove(a, w, h); wm != m.Wide() || WideActionIndex(m.Wide(), w, h) != a {
						t.Fatalf("%dx%d action %d: wide move %v, narrow %v", w, h, a, wm, m)
					}
				}
			}
			want := 0
			for fr := range h {
				for fc := range w {
					for tr := range h {
						for tc := range w {
							dist := abs(tr-fr) + abs(tc-fc)
							m := WideMove{WideSquareAt(fr, fc), WideSquareAt(tr, tc)}
							ok := dist == 0 || (fr == tr || fc == tc) && dist%2 == 0 && dist/2 <= MaxHops(max(w, h))
							a := WideActionIndex(m, w, h)
							if ok != (a >= 0) || ok && (a >= n || WideActionMove(a, w, h) != m) {
								t.Fatalf("%dx%d %v: action %d of %d (a move: %v)", w, h, m, a, n, ok)
							}
							if ok {
								want++
							}
						}
					}
				}
			}
			if want != n || WideActionMove(n, w, h) != NoWideMove || WideActionMove(-1, w, h) != NoWideMove {
				t.Fatalf("%dx%d: %d moves, %d actions", w, h, want, n)
			}
		}
	}
}

// TestWideSymmetries checks the symmetries of the wide layout: on boards
// Position holds they map as Position's do; on 15x12 and 16x16 a mapped
// position's legal moves are its legal moves mapped, in some order.
func TestWideSymmetries(t *testing.T) {
	for _, b := range []Board{{W: 7, H: 6, Start: Gap}, SquareBoard(8), {W: 15, H: 12, Start: Gap}, SquareBoard(16)} {
		start, err := b.WidePosition()
		if err != nil {
			t.Fatal(err)
		}
		ps, _ := WidePlayout(rand.New(rand.NewPCG(uint64(b.W), 5)), start, 30)
		for _, p := range ps {
			for s := Symmetry(0); s < NumSymmetries; s++ {
				if !b.Square() && s.SwapsAxes() && b.Narrow() {
					continue
				}
				q := s.WidePosition(p)
				if b.Narrow() {
					np, _ := p.Narrow()
					if q != s.Position(np).Wide() {
						t.Fatalf("%v %v: wide image differs from the narrow one", b, s)
					}
				}
				var got []WideMove
				for _, m := range p.LegalMoves(nil) {
					got = append(got, s.WideMove(m, b.W, b.H))
				}
				want := q.LegalMoves(nil)
				slices.SortFunc(got, cmpWide)
				slices.SortFunc(want, cmpWide)
				if !slices.Equal(got, want) {
					t.Fatalf("%v %v: mapped moves %v, moves of the image %v", b, s, got, want)
				}
			}
		}
	}
}

func cmpWide(a, b WideMove) int {
	return int(a.From)<<8 + int(a.To) - int(b.From)<<8 - int(b.To)
}
