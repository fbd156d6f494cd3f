package rules

// The action space and the symmetries of the wide layout: the numbering of
// action.go (removals by square, then jumps by direction, hop count and
// origin, listing only the origins whose landing square is on the board)
// on every board up to MaxSide×MaxSide, computed rather than tabled (a
// table per board of up to 16x16 would take megabytes). On a board a
// Position holds, a move's wide action is its action (TestWideActions).

// wideJumpBlock returns, for a jump of k hops in direction d on a board of
// w files and h ranks, the number of origins whose landing square is on
// the board and the width of the rectangle they fill (origins in
// row-major order, rows of span squares).
func wideJumpBlock(d Direction, k, w, h int) (count, span int) {
	switch d {
	case North, South:
		return max(0, h-2*k) * w, w
	}
	span = max(0, w-2*k)
	return h * span, span
}

// NumWideActions returns the size of the action space of the board of w
// files and h ranks (NumActions of its shape code on a board a Position
// holds), 0 for no board.
func NumWideActions(w, h int) int {
	if ShapeCode(w, h) == 0 {
		return 0
	}
	n := w * h
	for d := range Directions {
		for k := 1; k <= MaxHops(max(w, h)); k++ {
			c, _ := wideJumpBlock(Direction(d), k, w, h)
			n += c
		}
	}
	return n
}

// WideActionIndex returns the action of move m on the board of w files
// and h ranks, or -1 when m cannot be a move there (a square off the
// board, or squares that no single jump joins).
func WideActionIndex(m WideMove, w, h int) int {
	fr, fc, tr, tc := m.From.Row(), m.From.Col(), m.To.Row(), m.To.Col()
	if ShapeCode(w, h) == 0 || fr >= h || fc >= w || tr >= h || tc >= w {
		return -1
	}
	if m.IsRemoval() {
		return fr*w + fc
	}
	if fr != tr && fc != tc || (tr-fr+tc-fc)%2 != 0 {
		return -1
	}
	d, k := m.Direction(), m.Hops()
	a := w * h
	for dd := range Directions {
		for kk := 1; kk <= MaxHops(max(w, h)); kk++ {
			count, span := wideJumpBlock(Direction(dd), kk, w, h)
			if Direction(dd) != d || kk != k {
				a += count
				continue
			}
			r, c := fr, fc
			switch d {
			case South:
				r -= 2 * k
			case West:
				c -= 2 * k
			}
			return a + r*span + c
		}
	}
	return -1 // a jump longer than the board's longest
}

// WideActionMove returns the move of action a on the board of w files and
// h ranks, or NoWideMove when a is outside 0..NumWideActions(w, h)-1.
func WideActionMove(a, w, h int) WideMove {
	if ShapeCode(w, h) == 0 || a < 0 {
		return NoWideMove
	}
	if a < w*h {
		s := WideSquareAt(a/w, a%w)
		return WideMove{s, s}
	}
	a -= w * h
	for d := range Directions {
		for k := 1; k <= MaxHops(max(w, h)); k++ {
			count, span := wideJumpBlock(Direction(d), k, w, h)
			if a >= count {
				a -= count
				continue
			}
			r, c := a/span, a%span
			switch Direction(d) {
			case South:
				r += 2 * k
			case West:
				c += 2 * k
			}
			dr, dc := [4]int{1, 0, -1, 0}[d], [4]int{0, 1, 0, -1}[d]
			return WideMove{WideSquareAt(r, c), WideSquareAt(r+2*k*dr, c+2*k*dc)}
		}
	}
	return NoWideMove
}

// WideSquare maps a square of a board of w files and h ranks (onto the
// h×w board for the symmetries that swap the axes).
func (s Symmetry) WideSquare(sq WideSquare, w, h int) WideSquare {
	return WideSquareAt(transformRC(s, w, h, sq.Row(), sq.Col()))
}

// WideBitboard maps every square of b on a board of w files and h ranks.
func (s Symmetry) WideBitboard(b WideBitboard, w, h int) WideBitboard {
	if s == Identity {
		return b
	}
	var out WideBitboard
	for !b.IsZero() {
		out.set(s.WideSquare(b.PopLSB(), w, h))
	}
	return out
}

// WidePosition is Position for a WidePosition: every stone mapped, the
// side to move unchanged, the board transposed by the symmetries that
// swap the axes.
func (s Symmetry) WidePosition(p WidePosition) WidePosition {
	w, h := int(p.W), int(p.H)
	p.Black = s.WideBitboard(p.Black, w, h)
	p.White = s.WideBitboard(p.White, w, h)
	if s.SwapsAxes() {
		p.W, p.H = p.H, p.W
	}
	return p
}

// WideMove maps a move of a board of w files and h ranks.
func (s Symmetry) WideMove(m WideMove, w, h int) WideMove {
	return WideMove{s.WideSquare(m.From, w, h), s.WideSquare(m.To, w, h)}
}
