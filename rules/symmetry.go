package rules

// Symmetry is one of the 8 symmetries of the square (the dihedral group
// D4). Applying one to a position moves every stone; it keeps colors, so a
// quarter turn of an even board puts Black stones on squares of the other
// parity. The rules are defined without reference to parity (corners and
// central squares holding a Black stone), so a transformed position is
// played exactly like the original, move for transformed move.
type Symmetry uint8

// The 8 symmetries. Rotations are counterclockwise.
const (
	Identity      Symmetry = iota
	Rotate90               // (row, col) → (col, N-1-row)
	Rotate180              // (row, col) → (N-1-row, N-1-col)
	Rotate270              // (row, col) → (N-1-col, row)
	FlipFiles              // mirror left-right: (row, col) → (row, N-1-col)
	FlipRanks              // mirror top-bottom: (row, col) → (N-1-row, col)
	Transpose              // main diagonal a1-h8: (row, col) → (col, row)
	AntiTranspose          // anti-diagonal: (row, col) → (N-1-col, N-1-row)
)

// NumSymmetries is the order of the group.
const NumSymmetries = 8

var symNames = [...]string{"identity", "rot90", "rot180", "rot270", "flip-files", "flip-ranks", "transpose", "anti-transpose"}

func (s Symmetry) String() string { return symNames[s] }

// Inverse returns the symmetry that undoes s.
func (s Symmetry) Inverse() Symmetry {
	switch s {
	case Rotate90:
		return Rotate270
	case Rotate270:
		return Rotate90
	}
	return s
}

// symSquare[size][sym][square] is the image of a square.
var symSquare [MaxSize + 1][NumSymmetries][64]Square

func init() {
	for n := MinSize; n <= MaxSize; n++ {
		for s := Symmetry(0); s < NumSymmetries; s++ {
			for sq := range symSquare[n][s] {
				symSquare[n][s][sq] = NoSquare
			}
			for r := 0; r < n; r++ {
				for c := 0; c < n; c++ {
					symSquare[n][s][SquareAt(r, c)] = transform(s, n, r, c)
				}
			}
		}
	}
}

func transform(s Symmetry, n, r, c int) Square {
	m := n - 1
	switch s {
	case Rotate90:
		r, c = c, m-r
	case Rotate180:
		r, c = m-r, m-c
	case Rotate270:
		r, c = m-c, r
	case FlipFiles:
		c = m - c
	case FlipRanks:
		r = m - r
	case Transpose:
		r, c = c, r
	case AntiTranspose:
		r, c = m-c, m-r
	}
	return SquareAt(r, c)
}

// Square maps a square of a size×size board.
func (s Symmetry) Square(sq Square, size int) Square { return symSquare[size][s][sq] }

// Bitboard maps every square of b.
func (s Symmetry) Bitboard(b Bitboard, size int) Bitboard {
	if s == Identity {
		return b
	}
	t := &symSquare[size][s]
	var out Bitboard
	for b != 0 {
		out |= t[popLSB(&b)].Bit()
	}
	return out
}

// Position maps every stone of p; the side to move is unchanged.
func (s Symmetry) Position(p Position) Position {
	n := int(p.Size)
	p.Black = s.Bitboard(p.Black, n)
	p.White = s.Bitboard(p.White, n)
	return p
}

// Canonical returns the least of p's 8 symmetric images (comparing the
// Black bitboards, then the White ones): the same position for every
// image of p, so that symmetric positions are counted or stored once.
func (p Position) Canonical() Position {
	best := p
	for s := Symmetry(1); s < NumSymmetries; s++ {
		q := s.Position(p)
		if q.Black < best.Black || q.Black == best.Black && q.White < best.White {
			best = q
		}
	}
	return best
}

// Move maps a move of a size×size board.
func (s Symmetry) Move(m Move, size int) Move {
	return Move{s.Square(m.From, size), s.Square(m.To, size)}
}
