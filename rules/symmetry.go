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

// symSquare[w][h][sym][square] is the image of a square of a board of w
// files and h ranks; the symmetries that exchange files and ranks map it
// onto an h×w board.
var symSquare [MaxSize + 1][MaxSize + 1][NumSymmetries][64]Square

func init() {
	for w := MinSize; w <= MaxSize; w++ {
		for h := MinSize; h <= MaxSize; h++ {
			for s := Symmetry(0); s < NumSymmetries; s++ {
				for sq := range symSquare[w][h][s] {
					symSquare[w][h][s][sq] = NoSquare
				}
				for r := 0; r < h; r++ {
					for c := 0; c < w; c++ {
						symSquare[w][h][s][SquareAt(r, c)] = transform(s, w, h, r, c)
					}
				}
			}
		}
	}
}

// transform maps (r, c) of a w×h board; for the symmetries that swap the
// axes the image lies on an h×w board.
func transform(s Symmetry, w, h, r, c int) Square {
	return SquareAt(transformRC(s, w, h, r, c))
}

// transformRC is transform giving the image's row and column.
func transformRC(s Symmetry, w, h, r, c int) (int, int) {
	mw, mh := w-1, h-1
	switch s {
	case Rotate90:
		r, c = c, mh-r
	case Rotate180:
		r, c = mh-r, mw-c
	case Rotate270:
		r, c = mw-c, r
	case FlipFiles:
		c = mw - c
	case FlipRanks:
		r = mh - r
	case Transpose:
		r, c = c, r
	case AntiTranspose:
		r, c = mw-c, mh-r
	}
	return r, c
}

// SwapsAxes reports whether s exchanges files and ranks (the quarter turns
// and the two diagonal mirrors): on a W×H board its image is H×W.
func (s Symmetry) SwapsAxes() bool {
	return s == Rotate90 || s == Rotate270 || s == Transpose || s == AntiTranspose
}

// Square maps a square of the board of the shape code size (Position.Size:
// N for N×N; on a rectangle the symmetries that swap the axes map it
// onto the transposed board).
func (s Symmetry) Square(sq Square, size int) Square {
	w, h := shapeDims(uint8(size))
	return symSquare[w][h][s][sq]
}

// Bitboard maps every square of b on the board of the shape code size
// (Position.Size: N for N×N).
func (s Symmetry) Bitboard(b Bitboard, size int) Bitboard {
	w, h := shapeDims(uint8(size))
	return s.bitboard(b, w, h)
}

func (s Symmetry) bitboard(b Bitboard, w, h int) Bitboard {
	if s == Identity {
		return b
	}
	t := &symSquare[w][h][s]
	var out Bitboard
	for b != 0 {
		out |= t[popLSB(&b)].Bit()
	}
	return out
}

// Position maps every stone of p; the side to move is unchanged. On a
// rectangle the symmetries that swap the axes give a position of the
// transposed board (W×H becomes H×W).
func (s Symmetry) Position(p Position) Position {
	w, h := p.Width(), p.Height()
	p.Black = s.bitboard(p.Black, w, h)
	p.White = s.bitboard(p.White, w, h)
	if s.SwapsAxes() {
		p.Size = shapeCode(h, w)
	}
	return p
}

// Canonical returns the least of p's symmetric images on its own board (8
// on a square board, the 4 that keep the axes on a rectangle), comparing
// the Black bitboards, then the White ones: the same position for every
// image of p, so that symmetric positions are counted or stored once.
func (p Position) Canonical() Position {
	best := p
	for s := Symmetry(1); s < NumSymmetries; s++ {
		if !p.Square() && s.SwapsAxes() {
			continue
		}
		q := s.Position(p)
		if q.Black < best.Black || q.Black == best.Black && q.White < best.White {
			best = q
		}
	}
	return best
}

// Move maps a move of the board of the shape code size (Position.Size: N
// for N×N).
func (s Symmetry) Move(m Move, size int) Move {
	return Move{s.Square(m.From, size), s.Square(m.To, size)}
}
