package rules

import (
	"fmt"
	"testing"
)

// TestActionBijection checks exhaustively, for every size, that ActionMove
// and ActionIndex are inverse bijections between 0..NumActions-1 and the
// set of all removals and on-board straight jumps of an even length up to
// 2*MaxHops, enumerated here independently from every pair of squares.
func TestActionBijection(t *testing.T) {
	for n := MinSize; n <= MaxSize; n++ {
		valid := ValidMask(n)
		want := 0
		for a := Square(0); a < 64; a++ {
			for b := Square(0); b < 64; b++ {
				m := Move{a, b}
				onBoard := valid&a.Bit() != 0 && valid&b.Bit() != 0
				dr, dc := abs(a.Row()-b.Row()), abs(a.Col()-b.Col())
				isMove := onBoard && (a == b || (dr == 0) != (dc == 0) && (dr+dc)%2 == 0 && (dr+dc)/2 <= MaxHops(n))
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
	for _, n := range []int{0, 3, 9} {
		if NumActions(n) != 0 || ActionIndex(Move{0, 0}, n) != -1 || ActionMove(0, n) != NoMove {
			t.Errorf("unsupported size %d accepted", n)
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
