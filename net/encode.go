package net

import (
	"math/bits"

	"github.com/konanezero/konane/rules"
)

// Encoding is a version of the input planes, each of the board's W×H
// squares, square (row, col) at index row*W + col, all relative to the
// side to move. A gap board starts in the jumping phase: its removal
// planes stay zero. A network is
// built for one (Config.Captures); its file records which.
type Encoding int

const (
	// EncodingOrigins (version 1) has 7 planes: own stones, opponent
	// stones, empty squares, all ones during the first removal, all ones
	// during the second, the origins of the side to move's legal moves
	// (the removal squares during the removals) and the origins of the
	// opponent's jumps, were it to move (jumping phase only).
	EncodingOrigins Encoding = 1
	// EncodingCaptures (version 2) adds 4 planes, jumping phase only: the
	// opponent stones the side to move could capture with one of its
	// legal moves, the squares those moves land on, and the same two for
	// the opponent, were it to move.
	EncodingCaptures Encoding = 2
)

// The planes, in order.
const (
	planeOwn          = iota // stones of the side to move
	planeOpp                 // stones of the opponent
	planeEmpty               // empty squares
	planeRemoveFirst         // all ones during the first removal
	planeRemoveSecond        // all ones during the second removal
	planeOwnFrom             // origins of the side to move's legal moves
	planeOppFrom             // origins of the opponent's jumps
	planeOwnCaptures         // opponent stones the side to move could capture (EncodingCaptures only, as the next three)
	planeOwnLandings         // where the side to move's jumps land
	planeOppCaptures         // own stones the opponent could capture
	planeOppLandings         // where the opponent's jumps land
)

// The number of planes of each encoding.
const (
	planesOrigins  = planeOppFrom + 1
	planesCaptures = planeOppLandings + 1
)

// known reports whether e is an encoding of this build.
func (e Encoding) known() bool { return e == EncodingOrigins || e == EncodingCaptures }

// Planes returns the number of input planes of e.
func (e Encoding) Planes() int {
	if e == EncodingCaptures {
		return planesCaptures
	}
	return planesOrigins
}

// EncodedLen returns the length of one encoded position of the board of
// the shape code (Position.Size: N for N×N): Planes × W × H (0 for a
// shape no Position has).
func (e Encoding) EncodedLen(shape int) int {
	w, h := rules.ShapeDims(shape)
	return e.Planes() * w * h
}

// Encode writes the input planes of p into dst, which must have length
// e.EncodedLen(p.Size), and returns dst. Every entry is 0 or 1. Because
// the planes name stones by side to move rather than colour, applying any
// of the 8 symmetries to p permutes the squares of every plane and nothing
// else (see TestEncodeSymmetry).
func (e Encoding) Encode(p rules.Position, dst []float32) []float32 {
	var buf [rules.MaxMoves]rules.Move
	e.encode(p, p.LegalMoves(buf[:0]), dst[:e.EncodedLen(int(p.Size))], p.Width()*p.Height(), 1)
	return dst
}

// encodeRows writes the same planes as Encode in the layout of the
// network's input, one row of Planes numbers per square, given the legal
// moves of p (so that a caller that has them does not generate them
// again).
func (e Encoding) encodeRows(p rules.Position, moves []rules.Move, dst []float32) {
	e.encode(p, moves, dst[:e.EncodedLen(int(p.Size))], 1, e.Planes())
}

// encode writes plane k of square s at dst[k*planeStride+s*squareStride].
func (e Encoding) encode(p rules.Position, moves []rules.Move, dst []float32, planeStride, squareStride int) {
	n := p.Width()
	nn := n * p.Height()
	clear(dst)
	own, opp := p.Stones(p.Turn), p.Stones(p.Turn.Other())
	setBits(dst[planeOwn*planeStride:], own, n, squareStride)
	setBits(dst[planeOpp*planeStride:], opp, n, squareStride)
	setBits(dst[planeEmpty*planeStride:], p.Empty(), n, squareStride)
	setBits(dst[planeOwnFrom*planeStride:], origins(moves), n, squareStride)
	switch p.Phase() {
	case rules.RemoveBlack:
		fill(dst[planeRemoveFirst*planeStride:], nn, squareStride)
	case rules.RemoveWhite:
		fill(dst[planeRemoveSecond*planeStride:], nn, squareStride)
	default:
		q := p
		q.Turn = p.Turn.Other()
		var buf [rules.MaxMoves]rules.Move
		oppMoves := q.LegalMoves(buf[:0])
		setBits(dst[planeOppFrom*planeStride:], origins(oppMoves), n, squareStride)
		if e == EncodingCaptures {
			captures, landings := reach(p, moves)
			setBits(dst[planeOwnCaptures*planeStride:], captures, n, squareStride)
			setBits(dst[planeOwnLandings*planeStride:], landings, n, squareStride)
			captures, landings = reach(q, oppMoves)
			setBits(dst[planeOppCaptures*planeStride:], captures, n, squareStride)
			setBits(dst[planeOppLandings*planeStride:], landings, n, squareStride)
		}
	}
}

// EncodeWide writes the input planes of p into dst, which must have
// length e.EncodedLen(rules.ShapeCode(p.W, p.H)), and returns dst: the
// planes Encode writes, square for square, so that a position both types
// hold encodes to the same numbers (TestEncodeWideAgrees).
func (e Encoding) EncodeWide(p rules.WidePosition, dst []float32) []float32 {
	var buf [rules.WideMaxMoves]rules.WideMove
	w, h := int(p.W), int(p.H)
	e.encodeWide(p, p.LegalMoves(buf[:0]), dst[:e.Planes()*w*h], w*h, 1)
	return dst
}

// encodeWideRows is encodeRows for a WidePosition.
func (e Encoding) encodeWideRows(p rules.WidePosition, moves []rules.WideMove, dst []float32) {
	e.encodeWide(p, moves, dst[:e.Planes()*int(p.W)*int(p.H)], 1, e.Planes())
}

// encodeWide is encode for a WidePosition.
func (e Encoding) encodeWide(p rules.WidePosition, moves []rules.WideMove, dst []float32, planeStride, squareStride int) {
	n := int(p.W)
	nn := n * int(p.H)
	clear(dst)
	own, opp := p.Stones(p.Turn), p.Stones(p.Turn.Other())
	setWideBits(dst[planeOwn*planeStride:], own, n, squareStride)
	setWideBits(dst[planeOpp*planeStride:], opp, n, squareStride)
	setWideBits(dst[planeEmpty*planeStride:], p.Empty(), n, squareStride)
	setWideBits(dst[planeOwnFrom*planeStride:], wideOrigins(moves), n, squareStride)
	switch p.Phase() {
	case rules.RemoveBlack:
		fill(dst[planeRemoveFirst*planeStride:], nn, squareStride)
	case rules.RemoveWhite:
		fill(dst[planeRemoveSecond*planeStride:], nn, squareStride)
	default:
		q := p
		q.Turn = p.Turn.Other()
		var buf [rules.WideMaxMoves]rules.WideMove
		oppMoves := q.LegalMoves(buf[:0])
		setWideBits(dst[planeOppFrom*planeStride:], wideOrigins(oppMoves), n, squareStride)
		if e == EncodingCaptures {
			captures, landings := wideReach(p, moves)
			setWideBits(dst[planeOwnCaptures*planeStride:], captures, n, squareStride)
			setWideBits(dst[planeOwnLandings*planeStride:], landings, n, squareStride)
			captures, landings = wideReach(q, oppMoves)
			setWideBits(dst[planeOppCaptures*planeStride:], captures, n, squareStride)
			setWideBits(dst[planeOppLandings*planeStride:], landings, n, squareStride)
		}
	}
}

// wideOrigins is origins for wide moves.
func wideOrigins(moves []rules.WideMove) rules.WideBitboard {
	var b rules.WideBitboard
	for _, m := range moves {
		b = b.Or(m.From.Bit())
	}
	return b
}

// wideReach is reach for a WidePosition.
func wideReach(p rules.WidePosition, jumps []rules.WideMove) (captures, landings rules.WideBitboard) {
	for _, m := range jumps {
		landings = landings.Or(m.To.Bit())
		captures = captures.Or(p.Captured(m))
	}
	return captures, landings
}

// setWideBits is setBits for a WideBitboard.
func setWideBits(plane []float32, b rules.WideBitboard, n, stride int) {
	for !b.IsZero() {
		s := b.PopLSB()
		plane[(s.Row()*n+s.Col())*stride] = 1
	}
}

// wideSlot is the index, in the policy output row of a network of hops
// hop counts per direction on a board of w files, of wide move m: the
// slot slotTables gives the same move on a board Position holds.
func wideSlot(m rules.WideMove, w, hops int) int {
	plane := 0
	if !m.IsRemoval() {
		plane = 1 + int(m.Direction())*hops + m.Hops() - 1
	}
	return (m.From.Row()*w+m.From.Col())*(1+4*hops) + plane
}

// origins returns the squares the moves start from.
func origins(moves []rules.Move) rules.Bitboard {
	var b rules.Bitboard
	for _, m := range moves {
		b |= m.From.Bit()
	}
	return b
}

// reach returns the stones the jumps of p capture and the squares they
// land on.
func reach(p rules.Position, jumps []rules.Move) (captures, landings rules.Bitboard) {
	for _, m := range jumps {
		landings |= m.To.Bit()
		captures |= p.Captured(m)
	}
	return captures, landings
}

// setBits sets plane[(row*n+col)*stride] = 1 for every square of b, on a
// board of n files.
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

// slotTables[hops][shape][a] is the index, in the policy output row of a
// network of hops hop counts per direction (Config.hops) on the board of
// the shape code (Position.Size), of action a: (row*W + col)*planes +
// plane, where (row, col) is its origin, planes = 1 + 4*hops, and plane
// is 0 for a removal and 1 + direction*hops + hop count-1 for a jump. (The
// policy head's last product has a row per square and a column per
// plane.) A plane means the same jump on every board of the network. For
// a single-board network hops is MaxHops(N), as it has always been. nil
// where the board has jumps longer than hops.
var slotTables [MultiBoardHops + 1][256][]int32

func init() {
	for hops := 1; hops <= MultiBoardHops; hops++ {
		for w := rules.MinSize; w <= rules.MaxSize; w++ {
			for h := rules.MinSize; h <= rules.MaxSize; h++ {
				if rules.MaxHops(max(w, h)) > hops {
					continue
				}
				shape := rules.ShapeCode(w, h)
				t := make([]int32, rules.NumActions(shape))
				for a := range t {
					m := rules.ActionMove(a, shape)
					plane := 0
					if !m.IsRemoval() {
						plane = 1 + int(m.Direction())*hops + m.Hops() - 1
					}
					t[a] = int32((m.From.Row()*w+m.From.Col())*(1+4*hops) + plane)
				}
				slotTables[hops][shape] = t
			}
		}
	}
}

func trailingZeros(b uint64) int { return bits.TrailingZeros64(b) }
