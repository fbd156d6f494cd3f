package rules

import (
	"math/bits"
	"testing"
)

// A slow, obviously correct implementation of the rules on a plain grid,
// written straight from the rule text without bitboards, to check the fast
// move generator and Play against.

const (
	gEmpty = iota
	gBlack
	gWhite
)

type grid struct {
	n     int
	cell  [8][8]int // [row][col]
	turn  int       // gBlack or gWhite
	empty int       // number of empty squares
}

func toGrid(p Position) grid {
	g := grid{n: int(p.Size), turn: gBlack}
	if p.Turn == White {
		g.turn = gWhite
	}
	for r := 0; r < g.n; r++ {
		for c := 0; c < g.n; c++ {
			switch bit := SquareAt(r, c).Bit(); {
			case p.Black&bit != 0:
				g.cell[r][c] = gBlack
			case p.White&bit != 0:
				g.cell[r][c] = gWhite
			default:
				g.cell[r][c] = gEmpty
				g.empty++
			}
		}
	}
	return g
}

func (g grid) position() Position {
	p := Position{Size: uint8(g.n), Turn: Black}
	if g.turn == gWhite {
		p.Turn = White
	}
	for r := 0; r < g.n; r++ {
		for c := 0; c < g.n; c++ {
			switch g.cell[r][c] {
			case gBlack:
				p.Black |= SquareAt(r, c).Bit()
			case gWhite:
				p.White |= SquareAt(r, c).Bit()
			}
		}
	}
	return p
}

func (g grid) inside(r, c int) bool { return r >= 0 && r < g.n && c >= 0 && c < g.n }

// isOpeningSquare: a corner, or the middle square (odd n) or one of the
// middle four (even n).
func isOpeningSquare(n, r, c int) bool {
	if (r == 0 || r == n-1) && (c == 0 || c == n-1) {
		return true
	}
	if n%2 == 1 {
		return r == n/2 && c == n/2
	}
	return (r == n/2-1 || r == n/2) && (c == n/2-1 || c == n/2)
}

var gridDirs = [4][2]int{{1, 0}, {0, 1}, {-1, 0}, {0, -1}}

func slowLegalMoves(p Position) []Move {
	g := toGrid(p)
	var moves []Move
	switch g.empty {
	case 0: // Black removes a Black stone from a corner or the centre.
		for r := 0; r < g.n; r++ {
			for c := 0; c < g.n; c++ {
				if g.cell[r][c] == gBlack && isOpeningSquare(g.n, r, c) {
					s := SquareAt(r, c)
					moves = append(moves, Move{s, s})
				}
			}
		}
	case 1: // White removes a White stone next to the hole.
		for r := 0; r < g.n; r++ {
			for c := 0; c < g.n; c++ {
				if g.cell[r][c] != gEmpty {
					continue
				}
				for _, d := range gridDirs {
					r2, c2 := r+d[0], c+d[1]
					if g.inside(r2, c2) && g.cell[r2][c2] == gWhite {
						s := SquareAt(r2, c2)
						moves = append(moves, Move{s, s})
					}
				}
			}
		}
	default: // Jumps of the side to move, one move per stopping point.
		opp := gBlack + gWhite - g.turn
		for r := 0; r < g.n; r++ {
			for c := 0; c < g.n; c++ {
				if g.cell[r][c] != g.turn {
					continue
				}
				for _, d := range gridDirs {
					for hop := 1; ; hop++ {
						or, oc := r+(2*hop-1)*d[0], c+(2*hop-1)*d[1] // jumped over
						lr, lc := r+2*hop*d[0], c+2*hop*d[1]         // landing
						if !g.inside(lr, lc) || g.cell[or][oc] != opp || g.cell[lr][lc] != gEmpty {
							break
						}
						moves = append(moves, Move{SquareAt(r, c), SquareAt(lr, lc)})
					}
				}
			}
		}
	}
	return moves
}

// slowPlay applies a legal move on the grid.
func slowPlay(p Position, m Move) Position {
	g := toGrid(p)
	fr, fc := m.From.Row(), m.From.Col()
	tr, tc := m.To.Row(), m.To.Col()
	if m.From == m.To {
		g.cell[fr][fc] = gEmpty
	} else {
		dr, dc := sign(tr-fr), sign(tc-fc)
		stone := g.cell[fr][fc]
		g.cell[fr][fc] = gEmpty
		for r, c := fr+dr, fc+dc; r != tr || c != tc; r, c = r+dr, c+dc {
			g.cell[r][c] = gEmpty // captured stones and intermediate landings
		}
		g.cell[tr][tc] = stone
	}
	g.turn = gBlack + gWhite - g.turn
	return g.position()
}

// TestLegalMovesMatchSlowGenerator compares the bitboard generator, as a
// set, with the grid generator on game positions from every opening of
// every size and on random jumping positions; and Play with slowPlay for
// every legal move. CountMoves, Mobility, JumpCounts, HasMoves and Legal
// must agree.
func TestLegalMovesMatchSlowGenerator(t *testing.T) {
	ps := testPositions(t, 1)
	var buf [MaxMoves]Move
	checked := 0
	for _, p := range ps {
		fast := p.LegalMoves(buf[:0])
		slow := slowLegalMoves(p)
		if !sameMoveSet(fast, slow) {
			t.Fatalf("position\n%v\nLegalMoves %v\nslow       %v", p, moveStrings(fast), moveStrings(slow))
		}
		if got := p.CountMoves(); got != len(fast) {
			t.Fatalf("position\n%v\nCountMoves %d, %d legal moves", p, got, len(fast))
		}
		if p.HasMoves() != (len(fast) > 0) {
			t.Fatalf("position\n%v\nHasMoves %v with %d moves", p, p.HasMoves(), len(fast))
		}
		if p.Phase() == Jumping {
			for _, c := range []Color{Black, White} {
				q := p
				q.Turn = c
				if got, want := p.Mobility(c), len(slowLegalMoves(q)); got != want {
					t.Fatalf("position\n%v\nMobility(%v) %d, want %d", p, c, got, want)
				}
			}
			q := p
			q.Turn = p.Turn.Other()
			if mover, other := p.JumpCounts(); mover != len(fast) || other != len(slowLegalMoves(q)) {
				t.Fatalf("position\n%v\nJumpCounts %d, %d; want %d, %d", p, mover, other, len(fast), len(slowLegalMoves(q)))
			}
		}
		for _, m := range fast {
			if !p.Legal(m) {
				t.Fatalf("position\n%v\nLegal(%v) false for a generated move", p, m)
			}
			if got, want := p.Play(m), slowPlay(p, m); got != want {
				t.Fatalf("position\n%v\nafter %v Play gives\n%v\nslowPlay gives\n%v", p, m, got, want)
			}
		}
		checked++
	}
	if min := 2000; checked < min {
		t.Fatalf("only %d positions checked, want at least %d", checked, min)
	}
	t.Logf("%d positions agree", checked)
}

// TestLegalRejectsNonMoves checks Legal on every square pair of a sample
// of positions against the slow generator.
func TestLegalRejectsNonMoves(t *testing.T) {
	ps := testPositions(t, 2)
	for i, p := range ps {
		if i%7 != 0 { // a sample is enough: every pair is tried
			continue
		}
		legal := map[Move]bool{}
		for _, m := range slowLegalMoves(p) {
			legal[m] = true
		}
		for from := Square(0); from < 64; from++ {
			for to := Square(0); to < 64; to++ {
				m := Move{from, to}
				if p.Legal(m) != legal[m] {
					t.Fatalf("position\n%v\nLegal(%v) = %v, slow generator says %v", p, m, p.Legal(m), legal[m])
				}
			}
		}
	}
}

// The grid helpers must themselves round-trip.
func TestGridRoundTrip(t *testing.T) {
	for _, p := range testPositions(t, 3)[:500] {
		g := toGrid(p)
		if g.position() != p {
			t.Fatalf("grid round trip changed\n%v", p)
		}
		if g.empty != bits.OnesCount64(p.Empty()) {
			t.Fatalf("grid counts %d empty, bitboards %d", g.empty, bits.OnesCount64(p.Empty()))
		}
	}
}
