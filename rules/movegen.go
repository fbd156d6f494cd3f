package rules

import "math/bits"

// MaxMoves bounds the number of legal moves of any Position (any board of
// at most 64 squares); a [MaxMoves]Move array is always a large enough buffer.
// (Removals: at most 4 corners + 4 central squares; jumps: each of the at
// most 32 stones of one side lands on at most 3 squares in each of 4
// directions on 8x8, far fewer in practice.)
const MaxMoves = 4 * 3 * 32

// LegalMoves appends the legal moves of p to buf and returns the extended
// slice. It does not allocate when buf has room (use a [MaxMoves]Move
// array). The order is fixed: removals by square; jumps by direction
// (north, east, south, west), then hop count, then landing square.
func (p Position) LegalMoves(buf []Move) []Move {
	switch p.Phase() {
	case RemoveBlack:
		cand := p.blackRemovals()
		for cand != 0 {
			s := popLSB(&cand)
			buf = append(buf, Move{s, s})
		}
		return buf
	case RemoveWhite:
		cand := p.whiteRemovals()
		for cand != 0 {
			s := popLSB(&cand)
			buf = append(buf, Move{s, s})
		}
		return buf
	}
	own, opp := p.Black, p.White
	if p.Turn == White {
		own, opp = opp, own
	}
	empty := p.Valid() &^ (own | opp)
	// Unrolled per direction so that the shifts are constants; the masks
	// as in JumpCounts. back is the distance from a landing square back
	// to its origin.
	oppE, emptyE := opp&^fileA, empty&^fileA
	oppW, emptyW := opp&^fileH, empty&^fileH
	for l, back := own, 0; ; {
		if l = (l << 8 & opp) << 8 & empty; l == 0 {
			break
		}
		back += 16
		buf = appendJumps(buf, l, back)
	}
	for l, back := own, 0; ; {
		if l = (l << 1 & oppE) << 1 & emptyE; l == 0 {
			break
		}
		back += 2
		buf = appendJumps(buf, l, back)
	}
	for l, back := own, 0; ; {
		if l = (l >> 8 & opp) >> 8 & empty; l == 0 {
			break
		}
		back -= 16
		buf = appendJumps(buf, l, back)
	}
	for l, back := own, 0; ; {
		if l = (l >> 1 & oppW) >> 1 & emptyW; l == 0 {
			break
		}
		back -= 2
		buf = appendJumps(buf, l, back)
	}
	return buf
}

// appendJumps appends to buf the jumps landing on the squares land, in
// square order, each from the square back below its landing square.
func appendJumps(buf []Move, land Bitboard, back int) []Move {
	for land != 0 {
		to := popLSB(&land)
		buf = append(buf, Move{Square(int(to) - back), to})
	}
	return buf
}

// CountMoves returns len(p.LegalMoves(nil)) without building the list.
func (p Position) CountMoves() int {
	switch p.Phase() {
	case RemoveBlack:
		return bits.OnesCount64(p.blackRemovals())
	case RemoveWhite:
		return bits.OnesCount64(p.whiteRemovals())
	}
	return p.countJumps(p.Turn)
}

// Mobility returns the number of jumps available to color c in a jumping
// position, whoever is to move.
func (p Position) Mobility(c Color) int { return p.countJumps(c) }

func (p Position) countJumps(c Color) int {
	own, opp := p.Black, p.White
	if c == White {
		own, opp = opp, own
	}
	return countJumps(own, opp, p.Valid()&^(own|opp))
}

// JumpCounts returns the number of jumps of the side to move and of the
// other side in a position of the jumping phase: CountMoves() and
// Mobility(Turn.Other()), in one pass over the board.
func (p Position) JumpCounts() (mover, other int) {
	own, opp := p.Black, p.White
	if p.Turn == White {
		own, opp = opp, own
	}
	empty := p.Valid() &^ (own | opp)
	// The jumps of both sides in the four directions advance together, a
	// hop at a time, until none goes further: eight independent chains
	// and one loop exit instead of eight. The masks keep a shift by one
	// file from wrapping between rows (opp and empty lie inside the board,
	// so a shift by one rank needs none).
	ownE, oppE, emptyE := own&^fileA, opp&^fileA, empty&^fileA
	ownW, oppW, emptyW := own&^fileH, opp&^fileH, empty&^fileH
	an, ae, as, aw := own, own, own, own
	bn, be, bs, bw := opp, opp, opp, opp
	for {
		an = (an << 8 & opp) << 8 & empty
		ae = (ae << 1 & oppE) << 1 & emptyE
		as = (as >> 8 & opp) >> 8 & empty
		aw = (aw >> 1 & oppW) >> 1 & emptyW
		bn = (bn << 8 & own) << 8 & empty
		be = (be << 1 & ownE) << 1 & emptyE
		bs = (bs >> 8 & own) >> 8 & empty
		bw = (bw >> 1 & ownW) >> 1 & emptyW
		if an|ae|as|aw|bn|be|bs|bw == 0 {
			return mover, other
		}
		mover += bits.OnesCount64(an) + bits.OnesCount64(ae) + bits.OnesCount64(as) + bits.OnesCount64(aw)
		other += bits.OnesCount64(bn) + bits.OnesCount64(be) + bits.OnesCount64(bs) + bits.OnesCount64(bw)
	}
}

// countJumps returns the number of jumps of the stones own over the
// stones opp into the squares empty (both inside the board): the four
// directions advance together, a hop at a time, as in JumpCounts.
func countJumps(own, opp, empty Bitboard) int {
	oppE, emptyE := opp&^fileA, empty&^fileA
	oppW, emptyW := opp&^fileH, empty&^fileH
	n := 0
	for ln, le, ls, lw := own, own, own, own; ; {
		ln = (ln << 8 & opp) << 8 & empty
		le = (le << 1 & oppE) << 1 & emptyE
		ls = (ls >> 8 & opp) >> 8 & empty
		lw = (lw >> 1 & oppW) >> 1 & emptyW
		if ln|le|ls|lw == 0 {
			return n
		}
		n += bits.OnesCount64(ln) + bits.OnesCount64(le) + bits.OnesCount64(ls) + bits.OnesCount64(lw)
	}
}

// HasMoves reports whether the side to move has a legal move (the game is
// over, and the side to move has lost, when it has none).
func (p Position) HasMoves() bool { return p.CountMoves() > 0 }

// turn is p.Turn, for the games (gamePosition).
func (p Position) turn() Color { return p.Turn }

// blackRemovals: the corners and central squares that hold a Black stone.
func (p Position) blackRemovals() Bitboard { return openingSquares[p.Size] & p.Black }

// whiteRemovals: White stones orthogonally adjacent to the single hole.
func (p Position) whiteRemovals() Bitboard {
	hole, valid := p.Empty(), p.Valid()
	var adj Bitboard
	for _, d := range Directions {
		adj |= shift(hole, d, valid)
	}
	return adj & p.White
}

// openingSquares[code]: the corners and central squares of the board of a
// shape code (see IsOpeningSquare).
var openingSquares [256]Bitboard

func init() {
	for w := MinSize; w <= MaxSize; w++ {
		for h := MinSize; h <= MaxSize; h++ {
			var m Bitboard
			for r := 0; r < h; r++ {
				for c := 0; c < w; c++ {
					if IsOpeningSquare(w, h, r, c) {
						m |= SquareAt(r, c).Bit()
					}
				}
			}
			openingSquares[shapeCode(w, h)] = m
		}
	}
}

// Legal reports whether m is a legal move in p.
func (p Position) Legal(m Move) bool {
	var buf [MaxMoves]Move
	for _, l := range p.LegalMoves(buf[:0]) {
		if l == m {
			return true
		}
	}
	return false
}
