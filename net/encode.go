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
	var buf [rules.MaxMoves]rules.Move
	n := int(p.Size)
	encode(p, p.LegalMoves(buf[:0]), dst[:NumPlanes*n*n], n*n, 1)
	return dst
}

// encodeRows writes the same planes as Encode in the layout of the
// network's input, one row of NumPlanes numbers per square, given the
// legal moves of p (so that a caller that has them does not generate them
// again).
func encodeRows(p rules.Position, moves []rules.Move, dst []float32) {
	n := int(p.Size)
	encode(p, moves, dst[:NumPlanes*n*n], 1, NumPlanes)
}

// encode writes plane k of square s at dst[k*planeStride+s*squareStride].
func encode(p rules.Position, moves []rules.Move, dst []float32, planeStride, squareStride int) {
	n := int(p.Size)
	nn := n * n
	clear(dst)
	own, opp := p.Stones(p.Turn), p.Stones(p.Turn.Other())
	setBits(dst[planeOwn*planeStride:], own, n, squareStride)
	setBits(dst[planeOpp*planeStride:], opp, n, squareStride)
	setBits(dst[planeEmpty*planeStride:], p.Empty(), n, squareStride)
	var from rules.Bitboard
	for _, m := range moves {
		from |= m.From.Bit()
	}
	setBits(dst[planeOwnFrom*planeStride:], from, n, squareStride)
	switch p.Phase() {
	case rules.RemoveBlack:
		fill(dst[planeRemoveFirst*planeStride:], nn, squareStride)
	case rules.RemoveWhite:
		fill(dst[planeRemoveSecond*planeStride:], nn, squareStride)
	default:
		q := p
		q.Turn = p.Turn.Other()
		var buf [rules.MaxMoves]rules.Move
		from = 0
		for _, m := range q.LegalMoves(buf[:0]) {
			from |= m.From.Bit()
		}
		setBits(dst[planeOppFrom*planeStride:], from, n, squareStride)
	}
}

// setBits sets plane[(row*n+col)*stride] = 1 for every square of b.
func setBits(plane []float32, b rules.Bitboard, n, stride int) {
	for b != 0 {
		s := rules.Square(trailingZeros(b))
		b &= b - 1
		plane[(s.Row()*n+s.Col())*stride] = 1
	}
}

// fill sets count entries of a plane, stride apart, to 1.
func fill(plane []float32, count, stride int) {
	for i := 0; i < count; i++ {
		plane[i*stride] = 1
	}
}

// slotTables[size][a] is the index, in the policy output row of a size×size
// network, of action a: (row*N + col)*planes + plane, where (row, col) is
// its origin, planes is Config.actionPlanes, and plane is 0 for a removal
// and 1 + direction*MaxHops + hops-1 for a jump. (The policy head's last
// product has a row per square and a column per plane.)
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
			t[a] = int32((m.From.Row()*n+m.From.Col())*(1+4*rules.MaxHops(n)) + plane)
		}
		slotTables[n] = t
	}
}

// actionSlot returns the policy-row index of action a on a size×size board.
func actionSlot(a, size int) int { return int(slotTables[size][a]) }

func trailingZeros(b uint64) int { return bits.TrailingZeros64(b) }
