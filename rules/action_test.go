package rules

import (
	"fmt"
	"testing"
)

// TestActionBijection checks exhaustively, for every board shape Position
// holds (squares and rectangles), that ActionMove and ActionIndex are
// inverse bijections between 0..NumActions-1 and the set of all removals
// and on-board straight jumps of an even length up to 2*MaxHops of the
// longer side, enumerated here independently from every pair of squares.
func TestActionBijection(t *testing.T) {
	for _, n := range allShapes() {
		bw, bh := ShapeDims(n)
		valid := validMasks[n]
		want := 0
		for a := Square(0); a < 64; a++ {
			for b := Square(0); b < 64; b++ {
				m := Move{a, b}
				onBoard := valid&a.Bit() != 0 && valid&b.Bit() != 0
				dr, dc := abs(a.Row()-b.Row()), abs(a.Col()-b.Col())
				isMove := onBoard && (a == b || (dr == 0) != (dc == 0) && (dr+dc)%2 == 0 && (dr+dc)/2 <= MaxHops(max(bw, bh)))
				idx := ActionIndex(m, n)
				if !isMove {
					if idx != -1 {
						t.Fatalf("size %d: %v is no move but has action %d", n, m, idx)
					}
					continue
				}
				want++
				if idx < 0 || idx >= NumActions(n) {
					t.Fatalf("size %d: move %v has action %d outside 0..%d", n, m, idx, NumActions(n)-1)
				}
				if back := ActionMove(idx, n); back != m {
					t.Fatalf("size %d: ActionMove(ActionIndex(%v)) = %v", n, m, back)
				}
			}
		}
		if NumActions(n) != want {
			t.Fatalf("size %d: NumActions = %d, want %d", n, NumActions(n), want)
		}
		for a := 0; a < NumActions(n); a++ {
			if got := ActionIndex(ActionMove(a, n), n); got != a {
				t.Fatalf("size %d: ActionIndex(ActionMove(%d)) = %d", n, a, got)
			}
		}
		// Out-of-range actions and bad sizes give NoMove / -1 / 0.
		for _, a := range []int{-1, NumActions(n), 1 << 20} {
			if m := ActionMove(a, n); m != NoMove {
				t.Errorf("size %d: ActionMove(%d) = %v, want NoMove", n, a, m)
			}
		}
		if ActionIndex(NoMove, n) != -1 {
			t.Errorf("size %d: ActionIndex(NoMove) != -1", n)
		}
	}
	for _, n := range []int{0, 3, 9, 16*9 + 8, 16*4 + 3, -1, 256} {
		if NumActions(n) != 0 || ActionIndex(Move{0, 0}, n) != -1 || ActionMove(0, n) != NoMove {
			t.Errorf("unsupported shape %d accepted", n)
		}
	}
}

// allShapes returns the shape codes of every board Position holds.
func allShapes() []int {
	var out []int
	for w := MinSize; w <= MaxSize; w++ {
		for h := MinSize; h <= MaxSize; h++ {
			out = append(out, ShapeCode(w, h))
		}
	}
	return out
}

// TestShapeCode checks ShapeCode and ShapeDims against Position's Size.
func TestShapeCode(t *testing.T) {
	for w := MinSize; w <= MaxSize; w++ {
		for h := MinSize; h <= MaxSize; h++ {
			p, err := Board{W: w, H: h, Start: DefaultStart(w, h)}.Position()
			if err != nil {
				t.Fatal(err)
			}
			if c := ShapeCode(w, h); c != int(p.Size) {
				t.Errorf("ShapeCode(%d, %d) = %d, want %d", w, h, c, p.Size)
			}
			if gw, gh := ShapeDims(int(p.Size)); gw != w || gh != h {
				t.Errorf("ShapeDims(%d) = %d, %d, want %d, %d", p.Size, gw, gh, w, h)
			}
		}
	}
	// Every board up to MaxSide has its own code, read back by ShapeDims;
	// those a Position does not hold have none of Position's codes.
	seen := map[int]string{}
	for w := MinSide; w <= MaxSide; w++ {
		for h := MinSide; h <= MaxSide; h++ {
			c := ShapeCode(w, h)
			if c == 0 || seen[c] != "" {
				t.Fatalf("ShapeCode(%d, %d) = %d (already %q)", w, h, c, seen[c])
			}
			seen[c] = fmt.Sprintf("%dx%d", w, h)
			if gw, gh := ShapeDims(c); gw != w || gh != h {
				t.Errorf("ShapeDims(ShapeCode(%d, %d)) = %d, %d", w, h, gw, gh)
			}
			if narrow := w <= MaxSize && h <= MaxSize; narrow != (c < 256) || !narrow && NumActions(c) != 0 {
				t.Errorf("ShapeCode(%d, %d) = %d: a Position's code %v, %d actions", w, h, c, c < 256, NumActions(c))
			}
		}
	}
	if ShapeCode(3, 4) != 0 || ShapeCode(17, 8) != 0 {
		t.Error("ShapeCode accepted a board outside MinSide..MaxSide")
	}
	if w, h := ShapeDims(256 + 32*3 + 8); w != 0 || h != 0 {
		t.Errorf("ShapeDims of 3x8's would-be code = %d, %d", w, h)
	}
	if w, h := ShapeDims(256 + 32*8 + 8); w != 0 || h != 0 {
		t.Errorf("ShapeDims of a wide code for 8x8 = %d, %d", w, h)
	}
	if w, h := ShapeDims(0x98); w != 0 || h != 0 {
		t.Errorf("ShapeDims(0x98) = %d, %d", w, h)
	}
}

// TestRectangleActions pins 7x6's action space (42 removals; hops up to
// 3 along the files, up to 2 along the ranks) and checks that the legal
// moves of random games on every rectangle, both starts, are actions that
// map back to them.
func TestRectangleActions(t *testing.T) {
	// Per direction and hop count k: north/south 7*(6-2k), east/west 6*(7-2k).
	want := 42 + 2*(7*4+7*2+0) + 2*(6*5+6*3+6*1)
	if got := NumActions(ShapeCode(7, 6)); got != want {
		t.Errorf("NumActions(7x6) = %d, want %d", got, want)
	}
	var buf [MaxMoves]Move
	for w := MinSize; w <= MaxSize; w++ {
		for h := MinSize; h <= MaxSize; h++ {
			for _, st := range []Start{Removal, Gap} {
				b := Board{W: w, H: h, Start: st}
				p, err := b.Position()
				if err != nil {
					continue // gap not defined here
				}
				for ply := 0; ; ply++ {
					moves := p.LegalMoves(buf[:0])
					if len(moves) == 0 {
						break
					}
					for _, m := range moves {
						if a := ActionIndex(m, int(p.Size)); a < 0 || ActionMove(a, int(p.Size)) != m {
							t.Fatalf("%v: legal move %v has action %d", b, m, a)
						}
					}
					p = p.Play(moves[(ply*5+w*h)%len(moves)])
				}
			}
		}
	}
}

// TestActionSizes pins the action-space sizes: N*N removals plus, per
// direction and hop count h, N*(N-2h) jumps.
func TestActionSizes(t *testing.T) {
	for _, tc := range []struct{ size, want int }{
		{4, 16 + 4*(4*2)},
		{5, 25 + 4*(5*3+5*1)},
		{6, 36 + 4*(6*4+6*2)},
		{7, 49 + 4*(7*5+7*3+7*1)},
		{8, 64 + 4*(8*6+8*4+8*2)},
	} {
		if got := NumActions(tc.size); got != tc.want {
			t.Errorf("NumActions(%d) = %d, want %d", tc.size, got, tc.want)
		}
	}
}

// TestLegalMovesAreActions plays random-ish games on every size and checks
// that every legal move has an action that maps back to it.
func TestLegalMovesAreActions(t *testing.T) {
	var buf [MaxMoves]Move
	for n := MinSize; n <= MaxSize; n++ {
		for _, o := range Openings(n) {
			p := o.Position
			for ply := 0; ; ply++ {
				moves := p.LegalMoves(buf[:0])
				if len(moves) == 0 {
					break
				}
				for _, m := range moves {
					a := ActionIndex(m, n)
					if a < 0 || ActionMove(a, n) != m {
						t.Fatalf("size %d: legal move %v has action %d", n, m, a)
					}
				}
				p = p.Play(moves[(ply*7+int(o.White.From))%len(moves)])
			}
		}
	}
}

// a3-a1 is a jump south by one hop: after the 36 removals, the 24+12
// jumps north and the 24+12 jumps east, the first origin of the southward
// single hops.
func ExampleActionIndex() {
	p := Openings(6)[0].Position
	var buf [MaxMoves]Move
	m := p.LegalMoves(buf[:0])[0]
	a := ActionIndex(m, 6)
	fmt.Println(NumActions(6), m, a, ActionMove(a, 6))
	// Output: 180 a3-a1 108 a3-a1
}
