package rules

import (
	"fmt"
	"math/bits"
)

// Phase is the stage of the game, derived from the number of empty squares:
// none empty = Black's removal, one empty = White's removal, more = jumps.
type Phase uint8

// The three phases of a game.
const (
	RemoveBlack Phase = iota
	RemoveWhite
	Jumping
)

func (ph Phase) String() string {
	return [...]string{"black removal", "white removal", "jumping"}[ph]
}

// Position is a complete game state. It is a small value type: Play returns
// a new Position and never modifies its receiver, so positions can be shared
// freely between goroutines and search trees.
//
// A Position holds every board of MinSize..MaxSize files and ranks; larger
// boards are played as a WidePosition.
//
// It keeps four fields because the compiler holds a struct of at most four
// fields in registers and puts a larger one in memory on the hot path;
// hence the board's shape in one byte.
type Position struct {
	Black Bitboard // squares holding a Black stone
	White Bitboard // squares holding a White stone
	// Size is the board: its size N on a square board N×N (4..8), and
	// 16*W + H on a rectangle of W files and H ranks (MinSize..MaxSize
	// each). Width and Height read it on every board.
	Size uint8
	Turn Color // side to move
}

// NewPosition returns the starting position of a size×size board: every
// square filled, Black on the squares whose row+col is even, Black to move.
func NewPosition(size int) Position {
	if size < MinSize || size > MaxSize {
		panic(fmt.Sprintf("rules: board size %d outside %d..%d", size, MinSize, MaxSize))
	}
	var black Bitboard
	for r := 0; r < size; r++ {
		for c := 0; c < size; c++ {
			if (r+c)%2 == 0 {
				black |= SquareAt(r, c).Bit()
			}
		}
	}
	return Position{Black: black, White: ValidMask(size) &^ black, Size: uint8(size), Turn: Black}
}

// Valid returns the squares of the board.
func (p Position) Valid() Bitboard { return validMasks[p.Size] }

// Empty returns the empty squares of the board.
func (p Position) Empty() Bitboard { return p.Valid() &^ (p.Black | p.White) }

// Width is the number of files W.
func (p Position) Width() int { w, _ := shapeDims(p.Size); return w }

// Height is the number of ranks H.
func (p Position) Height() int { _, h := shapeDims(p.Size); return h }

// Square reports whether p's board is square (Size×Size).
func (p Position) Square() bool { return p.Size < 16 }

// Dims writes the board's dimensions, "7x6".
func (p Position) Dims() string { return fmt.Sprintf("%dx%d", p.Width(), p.Height()) }

// Stones returns the stones of color c.
func (p Position) Stones(c Color) Bitboard {
	if c == Black {
		return p.Black
	}
	return p.White
}

// Phase reports the stage of the game.
func (p Position) Phase() Phase {
	switch bits.OnesCount64(p.Empty()) {
	case 0:
		return RemoveBlack
	case 1:
		return RemoveWhite
	default:
		return Jumping
	}
}

// At reports what stands on square s: Black, White, or ok=false when empty
// or off the board.
func (p Position) At(s Square) (c Color, ok bool) {
	switch {
	case s >= 64:
		return 0, false
	case p.Black&s.Bit() != 0:
		return Black, true
	case p.White&s.Bit() != 0:
		return White, true
	}
	return 0, false
}

// OnBoard reports whether square s lies on this position's board.
func (p Position) OnBoard(s Square) bool { return s < 64 && p.Valid()&s.Bit() != 0 }

// Play returns the position after move m. m must be legal in p (as returned
// by LegalMoves or ParseMove; Legal checks one); Play does not validate.
func (p Position) Play(m Move) Position {
	if m.From == m.To { // removal
		p.Black &^= m.From.Bit()
		p.White &^= m.From.Bit()
		p.Turn ^= 1
		return p
	}
	path := between[m.From][m.To] // captured stones and intermediate landings
	if p.Turn == Black {
		p.Black = p.Black&^m.From.Bit() | m.To.Bit()
		p.White &^= path
	} else {
		p.White = p.White&^m.From.Bit() | m.To.Bit()
		p.Black &^= path
	}
	p.Turn ^= 1
	return p
}

// Captured returns the stones the jump m captures in p: the opponent's
// stones between its origin and its landing square (none for a removal).
func (p Position) Captured(m Move) Bitboard {
	return between[m.From][m.To] & p.Stones(p.Turn.Other())
}

// between[a][b] holds the squares strictly between a and b when they share a
// row or a column, else 0.
var between [64][64]Bitboard

func init() {
	for a := Square(0); a < 64; a++ {
		for b := Square(0); b < 64; b++ {
			if a == b || (a.Row() != b.Row() && a.Col() != b.Col()) {
				continue
			}
			dr, dc := sign(b.Row()-a.Row()), sign(b.Col()-a.Col())
			r, c := a.Row()+dr, a.Col()+dc
			for SquareAt(r, c) != b {
				between[a][b] |= SquareAt(r, c).Bit()
				r, c = r+dr, c+dc
			}
		}
	}
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// StoneCount returns the number of stones of each color.
func (p Position) StoneCount() (black, white int) {
	return bits.OnesCount64(p.Black), bits.OnesCount64(p.White)
}

// Hash returns a 64-bit key of the full position (stones, board, side to
// move) for transposition tables and caches. It is a keyed mix of the
// bitboards, equivalent to Zobrist hashing for our use: two different
// positions collide with probability about 2^-64, and it costs a handful
// of multiplications instead of one table lookup per stone.
func (p Position) Hash() uint64 {
	h := mix64(p.Black ^ 0x9e3779b97f4a7c15)
	h = mix64(h ^ p.White ^ 0xc2b2ae3d27d4eb4f)
	return mix64(h ^ uint64(p.Size)<<1 ^ uint64(p.Turn))
}

// mix64 is the finalizer of MurmurHash3: a bijection with full avalanche.
func mix64(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}

// Validate reports whether p is a position that can be reached in some
// game: a supported board, stones only on the board, no square with two
// stones.
func (p Position) Validate() error {
	if validMasks[p.Size] == 0 {
		if w, h := shapeDims(p.Size); p.Size >= 16 && w != h && w <= MaxSize && h <= MaxSize {
			return fmt.Errorf("rules: board %dx%d outside %dx%d..%dx%d", w, h, MinSize, MinSize, MaxSize, MaxSize)
		}
		return fmt.Errorf("rules: board size %d outside %d..%d", p.Size, MinSize, MaxSize)
	}
	if (p.Black|p.White)&^p.Valid() != 0 {
		return fmt.Errorf("rules: stones off the %s board", p.Dims())
	}
	if p.Black&p.White != 0 {
		return fmt.Errorf("rules: square %s holds two stones", Square(bits.TrailingZeros64(p.Black&p.White)))
	}
	if p.Turn > White {
		return fmt.Errorf("rules: side to move %d is neither black nor white", p.Turn)
	}
	return nil
}
