package net

import (
	"math/bits"

	"github.com/konanezero/konane/rules"
)

// The input planes (EncodingVersion 1), each N×N, square (row, col) at
// index row*N + col, all relative to the side to move:
const (
	planeOwn          = iota // stones of the side to move
	planeOpp                 // stones of the opponent
	planeEmpty               // empty squares
	planeRemoveFirst         // all ones during the first removal
	planeRemoveSecond        // all ones during the second removal
	planeOwnFrom             // origins of the side to move's legal moves (removal squares during the removals)
	planeOppFrom             // origins of the opponent's jumps, were it to move (jumping phase only)
	// NumPlanes is the number of input planes.
	NumPlanes
)

// EncodedLen returns the length of one encoded position of a size×size
// board: NumPlanes × size × size.
func EncodedLen(size int) int { return NumPlanes * size * size }

// Encode writes the input planes of p into dst, which must have length
// EncodedLen(p.Size), and returns dst. Every entry is 0 or 1. Because the
// planes name stones by side to move rather than colour, applying any of
// the 8 symmetries to p permutes the squares of every plane and nothing
// else (see TestEncodeSymmetry).
func Encode(p rules.Position, dst []float32) []float32 {
	n := int(p.Size)
	nn := n * n
	clear(dst[:NumPlanes*nn])
	own, opp := p.Stones(p.Turn), p.Stones(p.Turn.Other())
	setBits(dst[planeOwn*nn:], own, n)
	setBits(dst[planeOpp*nn:], opp, n)
	setBits(dst[planeEmpty*nn:], p.Empty(), n)
	var buf [rules.MaxMoves]rules.Move
	var from rules.Bitboard
	for _, m := range p.LegalMoves(buf[:0]) {
		from |= m.From.Bit()
	}
	setBits(dst[planeOwnFrom*nn:], from, n)
	switch p.Phase() {
	case rules.RemoveBlack:
		fill(dst[planeRemoveFirst*nn : (planeRemoveFirst+1)*nn])
	case rules.RemoveWhite:
		fill(dst[planeRemoveSecond*nn : (planeRemoveSecond+1)*nn])
	default:
		q := p
		q.Turn = p.Turn.Other()
		from = 0
		for _, m := range q.LegalMoves(buf[:0]) {
			from |= m.From.Bit()
		}
		setBits(dst[planeOppFrom*nn:], from, n)
	}
	return dst
}

// setBits sets plane[row*n+col] = 1 for every square of b.
func setBits(plane []float32, b rules.Bitboard, n int) {
	for b != 0 {
		s := rules.Square(trailingZeros(b))
		b &= b - 1
		plane[s.Row()*n+s.Col()] = 1
	}
}

func fill(plane []float32) {
	for i := range plane {
		plane[i] = 1
	}
}

// slotTables[size][a] is the index, in the policy output row of a size×size
// network, of action a: plane*N*N + row*N + col of its origin, where plane
// is 0 for a removal and 1 + direction*MaxHops + hops-1 for a jump.
var slotTables [rules.MaxSize + 1][]int32

func init() {
	for n := rules.MinSize; n <= rules.MaxSize; n++ {
		t := make([]int32, rules.NumActions(n))
		for a := range t {
			m := rules.ActionMove(a, n)
			plane := 0
			if !m.IsRemoval() {
				plane = 1 + int(m.Direction())*rules.MaxHops(n) + m.Hops() - 1
			}
			t[a] = int32(plane*n*n + m.From.Row()*n + m.From.Col())
		}
		slotTables[n] = t
	}
}

// actionSlot returns the policy-row index of action a on a size×size board.
func actionSlot(a, size int) int { return int(slotTables[size][a]) }

func trailingZeros(b uint64) int { return bits.TrailingZeros64(b) }
