package net

import (
	"testing"

	"github.com/konanezero/konane/net/internal/nettestutil"
	"github.com/konanezero/konane/rules"
)

// symPlanes applies a symmetry to every plane of an encoding.
func symPlanes(enc []float32, sym rules.Symmetry, n int) []float32 {
	out := make([]float32, len(enc))
	for c := 0; c < len(enc)/(n*n); c++ {
		for r := 0; r < n; r++ {
			for col := 0; col < n; col++ {
				t := sym.Square(rules.SquareAt(r, col), n)
				out[c*n*n+t.Row()*n+t.Col()] = enc[c*n*n+r*n+col]
			}
		}
	}
	return out
}

func TestEncodeSymmetry(t *testing.T) {
	for _, e := range []Encoding{EncodingOrigins, EncodingCaptures} {
		for n := rules.MinSize; n <= rules.MaxSize; n++ {
			for _, p := range nettestutil.Positions(n, 60, uint64(n)) {
				enc := e.Encode(p, make([]float32, e.EncodedLen(n)))
				for sym := rules.Symmetry(0); sym < rules.NumSymmetries; sym++ {
					got := e.Encode(sym.Position(p), make([]float32, e.EncodedLen(n)))
					want := symPlanes(enc, sym, n)
					for i := range got {
						if got[i] != want[i] {
							t.Fatalf("encoding %d, size %d %v: encode(sym(p)) differs from sym(encode(p)) at plane %d square %d", e, n, sym, i/(n*n), i%(n*n))
						}
					}
				}
			}
		}
	}
}

// TestEncodePlanes checks the planes of known positions.
func TestEncodePlanes(t *testing.T) {
	count := func(enc []float32, plane, n int) int {
		c := 0
		for _, v := range enc[plane*n*n : (plane+1)*n*n] {
			if v != 0 && v != 1 {
				t.Fatalf("plane %d holds %v", plane, v)
			}
			c += int(v)
		}
		return c
	}
	start := rules.NewPosition(6)
	afterBlack := start.Play(rules.Move{From: 0, To: 0}) // a1 removed
	o := rules.Openings(6)[0].Position
	for _, tc := range []struct {
		name string
		p    rules.Position
		want [planesCaptures]int
	}{
		// own, opp, empty, first removal, second removal, own origins, opp
		// origins; the capture and landing planes are empty until the jumps
		{"start", start, [planesCaptures]int{18, 18, 0, 36, 0, 4, 0}},
		{"white removal", afterBlack, [planesCaptures]int{18, 17, 1, 0, 36, 2, 0}},
		{"first jump", o, [planesCaptures]int{17, 17, 2, 0, 0, o.CountMoves(), 0}},
	} {
		enc := EncodingCaptures.Encode(tc.p, make([]float32, EncodingCaptures.EncodedLen(6)))
		for plane, want := range tc.want {
			if tc.name == "first jump" && plane >= planeOwnFrom {
				continue // origins counted below
			}
			if got := count(enc, plane, 6); got != want {
				t.Errorf("%s: plane %d has %d ones, want %d", tc.name, plane, got, want)
			}
		}
	}
	// Own/opp follow the side to move: White to move after Black's removal.
	enc := EncodingOrigins.Encode(afterBlack, make([]float32, EncodingOrigins.EncodedLen(6)))
	if enc[planeOwn*36+1] != 1 || enc[planeOpp*36+0] != 0 || enc[planeEmpty*36+0] != 1 {
		t.Error("white to move: b1 (white) should be own, a1 empty")
	}
	// In the jumping phase the origin planes mark exactly the jump origins.
	var buf [rules.MaxMoves]rules.Move
	for _, p := range nettestutil.Positions(6, 200, 9) {
		if p.Phase() != rules.Jumping {
			continue
		}
		enc := EncodingOrigins.Encode(p, make([]float32, EncodingOrigins.EncodedLen(6)))
		for side, plane := range []int{planeOwnFrom, planeOppFrom} {
			q := p
			if side == 1 {
				q.Turn = p.Turn.Other()
			}
			var from rules.Bitboard
			for _, m := range q.LegalMoves(buf[:0]) {
				from |= m.From.Bit()
			}
			for s := rules.Square(0); s < 64; s++ {
				if !p.OnBoard(s) {
					continue
				}
				want := float32(0)
				if from&s.Bit() != 0 {
					want = 1
				}
				if enc[plane*36+s.Row()*6+s.Col()] != want {
					t.Fatalf("plane %d square %v = %v, want %v", plane, s, enc[plane*36+s.Row()*6+s.Col()], want)
				}
			}
		}
	}
}

// TestEncodeCaptures checks the planes of EncodingCaptures in the jumping
// phase against the moves played out: a stone is marked capturable when
// some legal move of that side removes it, a square as a landing when
// some move ends there; the planes before them are EncodingOrigins'.
func TestEncodeCaptures(t *testing.T) {
	var buf [rules.MaxMoves]rules.Move
	for n := rules.MinSize; n <= rules.MaxSize; n++ {
		nn := n * n
		jumping := 0
		for _, p := range nettestutil.Positions(n, 100, uint64(40+n)) {
			got := EncodingCaptures.Encode(p, make([]float32, EncodingCaptures.EncodedLen(n)))
			v1 := EncodingOrigins.Encode(p, make([]float32, EncodingOrigins.EncodedLen(n)))
			for i, x := range v1 {
				if got[i] != x {
					t.Fatalf("size %d: plane %d square %d is %v, EncodingOrigins has %v", n, i/nn, i%nn, got[i], x)
				}
			}
			want := make([]float32, len(got)-len(v1))
			if p.Phase() == rules.Jumping {
				jumping++
				for side, base := range []int{0, 2} {
					q := p
					if side == 1 {
						q.Turn = p.Turn.Other()
					}
					victims := q.Stones(q.Turn.Other())
					for _, m := range q.LegalMoves(buf[:0]) {
						after := q.Play(m)
						for s := rules.Square(0); s < 64; s++ {
							if victims&s.Bit() != 0 && after.Stones(q.Turn.Other())&s.Bit() == 0 {
								want[base*nn+s.Row()*n+s.Col()] = 1
							}
						}
						want[(base+1)*nn+m.To.Row()*n+m.To.Col()] = 1
					}
				}
			}
			for i, x := range want {
				if got[len(v1)+i] != x {
					t.Fatalf("size %d, %v to move, phase %v: plane %d square %d is %v, want %v", n, p.Turn, p.Phase(), planesOrigins+i/nn, i%nn, got[len(v1)+i], x)
				}
			}
		}
		if jumping < 50 {
			t.Fatalf("size %d: only %d of 100 positions in the jumping phase", n, jumping)
		}
	}
}

// TestSampleTransform checks that a transformed sample's actions are the
// transformed moves, legal in the transformed position.
func TestSampleTransform(t *testing.T) {
	for n := rules.MinSize; n <= rules.MaxSize; n++ {
		for _, s := range randomSamples(n, 30, uint64(n)) {
			for sym := rules.Symmetry(0); sym < rules.NumSymmetries; sym++ {
				ts := s.Transform(sym)
				if _, err := ts.check(DefaultConfig(n), nil); err != nil {
					t.Fatalf("size %d %v: transformed sample invalid: %v", n, sym, err)
				}
				for i, ap := range ts.Policy {
					want := sym.Move(rules.ActionMove(int(s.Policy[i].Action), n), n)
					if rules.ActionMove(int(ap.Action), n) != want || ap.Prob != s.Policy[i].Prob {
						t.Fatalf("size %d %v: entry %d maps to %v, want %v", n, sym, i, rules.ActionMove(int(ap.Action), n), want)
					}
				}
			}
		}
	}
}

// TestActionSlots checks that distinct actions use distinct policy slots.
func TestActionSlots(t *testing.T) {
	for n := rules.MinSize; n <= rules.MaxSize; n++ {
		cfg := DefaultConfig(n)
		seen := make(map[int]int)
		for a := 0; a < rules.NumActions(n); a++ {
			s := int(cfg.slotTable(n)[a])
			if s < 0 || s >= cfg.Slots(n) {
				t.Fatalf("size %d: action %d slot %d outside 0..%d", n, a, s, cfg.Slots(n)-1)
			}
			if b, dup := seen[s]; dup {
				t.Fatalf("size %d: actions %d and %d share slot %d", n, a, b, s)
			}
			seen[s] = a
		}
	}
}
