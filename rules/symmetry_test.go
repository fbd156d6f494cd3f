package rules

import (
	"fmt"
	"testing"
)

// TestSymmetrySquares pins where each symmetry sends a1 and b1 on 8x8
// (rotations counterclockwise), and that every symmetry permutes the
// squares of every size.
func TestSymmetrySquares(t *testing.T) {
	for _, tc := range []struct {
		sym     Symmetry
		a1, b1  string
		inverse Symmetry
	}{
		{Identity, "a1", "b1", Identity},
		{Rotate90, "h1", "h2", Rotate270},
		{Rotate180, "h8", "g8", Rotate180},
		{Rotate270, "a8", "a7", Rotate90},
		{FlipFiles, "h1", "g1", FlipFiles},
		{FlipRanks, "a8", "b8", FlipRanks},
		{Transpose, "a1", "a2", Transpose},
		{AntiTranspose, "h8", "h7", AntiTranspose},
	} {
		t.Run(tc.sym.String(), func(t *testing.T) {
			for _, sq := range []struct{ from, want string }{{"a1", tc.a1}, {"b1", tc.b1}} {
				s, _ := ParseSquare(sq.from, 8)
				if got := tc.sym.Square(s, 8).String(); got != sq.want {
					t.Errorf("%v sends %s to %s, want %s", tc.sym, sq.from, got, sq.want)
				}
			}
			if tc.sym.Inverse() != tc.inverse {
				t.Errorf("inverse %v, want %v", tc.sym.Inverse(), tc.inverse)
			}
		})
	}
	for n := MinSize; n <= MaxSize; n++ {
		for s := Symmetry(0); s < NumSymmetries; s++ {
			seen := Bitboard(0)
			for r := 0; r < n; r++ {
				for c := 0; c < n; c++ {
					img := s.Square(SquareAt(r, c), n)
					if ValidMask(n)&img.Bit() == 0 || seen&img.Bit() != 0 {
						t.Fatalf("%dx%d %v: %v goes to %v, off the board or taken twice", n, n, s, SquareAt(r, c), img)
					}
					seen |= img.Bit()
					if back := s.Inverse().Square(img, n); back != SquareAt(r, c) {
						t.Fatalf("%dx%d %v: inverse sends %v back to %v", n, n, s, img, back)
					}
				}
			}
			if s.Bitboard(ValidMask(n), n) != ValidMask(n) {
				t.Fatalf("%dx%d %v: the board is not mapped onto itself", n, n, s)
			}
		}
	}
}

// TestSymmetryCommutesWithRules: for every symmetry and every sample
// position, the legal moves of the image are the images of the legal
// moves, playing commutes with the symmetry, the inverse undoes it, and
// stone counts, phase and side to move are kept.
func TestSymmetryCommutesWithRules(t *testing.T) {
	ps := testPositions(t, 5)
	var buf, symBuf [MaxMoves]Move
	for _, p := range ps {
		n := int(p.Size)
		moves := p.LegalMoves(buf[:0])
		for s := Symmetry(0); s < NumSymmetries; s++ {
			q := s.Position(p)
			if back := s.Inverse().Position(q); back != p {
				t.Fatalf("%v then its inverse changed\n%v\ninto\n%v", s, p, back)
			}
			if q.Turn != p.Turn || q.Phase() != p.Phase() || q.Validate() != nil {
				t.Fatalf("%v of\n%v\nis\n%v", s, p, q)
			}
			qb, qw := q.StoneCount()
			if pb, pw := p.StoneCount(); qb != pb || qw != pw {
				t.Fatalf("%v changed the stone counts of\n%v", s, p)
			}
			images := make([]Move, len(moves))
			for i, m := range moves {
				images[i] = s.Move(m, n)
				if back := s.Inverse().Move(images[i], n); back != m {
					t.Fatalf("%v: move %v maps back to %v", s, m, back)
				}
				if got, want := q.Play(images[i]), s.Position(p.Play(m)); got != want {
					t.Fatalf("%v: playing %v in the image of\n%v\ngives\n%v\nwant the image of the result\n%v", s, images[i], p, got, want)
				}
			}
			if got := q.LegalMoves(symBuf[:0]); !sameMoveSet(got, images) {
				t.Fatalf("%v of\n%v\nlegal moves %v, images of the moves %v", s, p, moveStrings(got), moveStrings(images))
			}
		}
	}
}

// TestHashNoCollisions hashes thousands of distinct positions (including
// every symmetric image, both sides to move and every size) and expects no
// two to share a hash; equal positions must hash equally.
func TestHashNoCollisions(t *testing.T) {
	seen := map[uint64]Position{}
	for _, p := range testPositions(t, 6) {
		for s := Symmetry(0); s < NumSymmetries; s++ {
			for _, turn := range []Color{Black, White} {
				q := s.Position(p)
				q.Turn = turn
				h := q.Hash()
				if h != q.Hash() {
					t.Fatal("Hash is not deterministic")
				}
				if old, ok := seen[h]; ok && old != q {
					t.Fatalf("hash %#x shared by\n%v\nand\n%v", h, old, q)
				}
				seen[h] = q
			}
		}
	}
	if len(seen) < 10000 {
		t.Fatalf("only %d distinct positions hashed", len(seen))
	}
	// The same stones on boards of different sizes are different positions.
	a := Position{Black: 1, White: 2, Size: 4}
	b := a
	b.Size = 5
	if a.Hash() == b.Hash() {
		t.Fatal("size is not part of the hash")
	}
	t.Logf("%d distinct positions, no collision", len(seen))
}

func ExampleSymmetry_Move() {
	m := Move{SquareAt(3, 1), SquareAt(3, 3)} // b4-d4
	for _, s := range []Symmetry{Rotate90, FlipFiles, Transpose} {
		fmt.Println(s, s.Move(m, 8))
	}
	// Output:
	// rot90 e2-e4
	// flip-files g4-e4
	// transpose d2-d4
}

// TestCanonical: every symmetric image of a position has the same
// canonical image, which is one of the images.
func TestCanonical(t *testing.T) {
	for _, p := range testPositions(t, 11) {
		c := p.Canonical()
		isImage := false
		for s := Symmetry(0); s < NumSymmetries; s++ {
			q := s.Position(p)
			isImage = isImage || q == c
			if q.Canonical() != c {
				t.Fatalf("the %v image of\n%v\nhas another canonical image", s, p)
			}
		}
		if !isImage {
			t.Fatalf("the canonical image of\n%v\nis not one of its images", p)
		}
	}
}
