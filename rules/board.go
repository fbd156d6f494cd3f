package rules

import (
	"fmt"
	"math/bits"
	"strings"
)

// Bit layout, stated once for the whole project:
//
//	square = row*8 + col, bit 0 (the least significant) = a1, bit 7 = h1,
//	bit 8 = a2, ..., bit 63 = h8.
//
// Row 0 is rank 1 (the bottom), col 0 is file a (the left). The stride is
// 8 for every board, so a board of W files and H ranks uses columns 0..W-1
// of rows 0..H-1 and the other bits are always zero. A Bitboard holds one
// bit per square. It is the representation of every board of at most 8
// files and 8 ranks (Position); larger boards use WideBitboard (wide.go),
// so that the boards of up to 64 squares keep their one-word fast path.
type Bitboard = uint64

// Square board sizes supported by Position and by the packages that take
// a board size N (N×N). Position also holds the rectangles of MinSize..
// MaxSize files and ranks; Board describes every board up to MaxSide.
const (
	MinSize     = 4
	MaxSize     = 8
	DefaultSize = 8
)

// SizeList writes board sizes for people: "6x6, 8x8", or "none".
func SizeList(sizes []int) string {
	if len(sizes) == 0 {
		return "none"
	}
	parts := make([]string, len(sizes))
	for i, n := range sizes {
		parts[i] = fmt.Sprintf("%dx%d", n, n)
	}
	return strings.Join(parts, ", ")
}

// Square is a square index (row*8 + col). NoSquare marks "none".
type Square uint8

// NoSquare is the zero-information square.
const NoSquare Square = 255

// SquareAt returns the square at row and col.
func SquareAt(row, col int) Square { return Square(row*8 + col) }

// Row is the square's row (0 = rank 1).
func (s Square) Row() int { return int(s) >> 3 }

// Col is the square's column (0 = file a).
func (s Square) Col() int { return int(s) & 7 }

// Bit is the square's bitboard.
func (s Square) Bit() Bitboard { return 1 << s }

// String writes the square as file letter and rank number ("d4").
func (s Square) String() string {
	if s >= 64 {
		return "-"
	}
	return fmt.Sprintf("%c%d", 'a'+s.Col(), s.Row()+1)
}

// Color is a side.
type Color uint8

// The two sides; Black moves first.
const (
	Black Color = iota
	White
)

// Other returns the opponent.
func (c Color) Other() Color { return c ^ 1 }

func (c Color) String() string {
	if c == Black {
		return "black"
	}
	return "white"
}

// ValidMask returns the bitboard of the squares of a board of the given size.
func ValidMask(size int) Bitboard { return validMasks[uint8(size)] }

// The shape code of a board of W files and H ranks (both MinSize..MaxSize),
// the value of Position.Size: N on a square board N×N, as it has always
// been, and 16*W + H on a rectangle. Code that handles only square boards
// reads Size as the board size and rejects a rectangle as a size above
// MaxSize; the rules index their tables by the code (a uint8 indexing a
// [256] table needs no bounds check).
func shapeCode(w, h int) uint8 {
	if w == h {
		return uint8(w)
	}
	return uint8(16*w + h)
}

// shapeDims returns the files and ranks of a shape code, as given (no
// validation).
func shapeDims(code uint8) (w, h int) {
	if code < 16 {
		return int(code), int(code)
	}
	return int(code >> 4), int(code & 15)
}

// validMasks[code] is the bitboard of the squares of the board of that
// shape code, 0 for a code that is no board.
var (
	validMasks [256]Bitboard
	fileA      Bitboard = 0x0101010101010101
	fileH      Bitboard = fileA << 7
)

func init() {
	for w := MinSize; w <= MaxSize; w++ {
		for h := MinSize; h <= MaxSize; h++ {
			var m Bitboard
			for r := 0; r < h; r++ {
				for c := 0; c < w; c++ {
					m |= SquareAt(r, c).Bit()
				}
			}
			validMasks[shapeCode(w, h)] = m
		}
	}
}

// Direction is one of the four orthogonal directions of a jump.
type Direction uint8

// The four directions: North = towards higher ranks, East = towards later files.
const (
	North Direction = iota
	East
	South
	West
)

// Directions lists the four directions in generation order.
var Directions = [4]Direction{North, East, South, West}

// Delta is the change of square index for one step in the direction.
func (d Direction) Delta() int {
	switch d {
	case North:
		return 8
	case East:
		return 1
	case South:
		return -8
	default:
		return -1
	}
}

func (d Direction) String() string { return [...]string{"north", "east", "south", "west"}[d] }

// shift moves every bit of b one step in direction d, dropping bits that
// leave a board whose squares are valid.
func shift(b Bitboard, d Direction, valid Bitboard) Bitboard {
	switch d {
	case North:
		return (b << 8) & valid
	case East:
		return (b << 1) &^ fileA & valid
	case South:
		return (b >> 8) & valid
	default:
		return (b >> 1) &^ fileH & valid
	}
}

// popLSB returns the lowest set square of *b and clears it.
func popLSB(b *Bitboard) Square {
	s := Square(bits.TrailingZeros64(*b))
	*b &= *b - 1
	return s
}

func trailingZeros(b Bitboard) int { return bits.TrailingZeros64(b) }
