package rules

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// A slow, obviously correct implementation of the rules on a plain W×H
// array of any board up to 16x16, written from the rule text (issue 42):
// no bitboards, no tables, moves as (row, col) pairs in project notation.
// The fast generators (Position on boards up to 8x8, WidePosition on every
// board) are checked against it.

type refBoard struct {
	w, h  int
	cell  [16][16]int // [row][col]: gEmpty, gBlack or gWhite
	turn  int         // gBlack or gWhite
	empty int
}

// refStart builds a board's start from the rule text: a1 Black, Black
// where file+rank is even; the gap start empties file (w+1)/2 on ranks
// h/2 and h/2+1 when w is odd (rank (h+1)/2 on files w/2 and w/2+1 when h
// is odd).
func refStart(w, h int, gap bool) refBoard {
	g := refBoard{w: w, h: h, turn: gBlack}
	for r := 0; r < h; r++ {
		for c := 0; c < w; c++ {
			g.cell[r][c] = gWhite
			if (r+c)%2 == 0 {
				g.cell[r][c] = gBlack
			}
		}
	}
	if gap {
		if w%2 == 1 {
			g.cell[h/2-1][(w+1)/2-1], g.cell[h/2][(w+1)/2-1] = gEmpty, gEmpty
		} else {
			g.cell[(h+1)/2-1][w/2-1], g.cell[(h+1)/2-1][w/2] = gEmpty, gEmpty
		}
		g.empty = 2
	}
	return g
}

func (g refBoard) inside(r, c int) bool { return r >= 0 && r < g.h && c >= 0 && c < g.w }

// refCentre: the middle file (odd w) or two files (even w), and likewise
// for ranks.
func refCentre(n, i int) bool {
	if n%2 == 1 {
		return i == (n-1)/2
	}
	return i == n/2-1 || i == n/2
}

func refName(r, c int) string { return fmt.Sprintf("%c%d", 'a'+c, r+1) }

// refMoves lists the legal moves in project notation.
func (g refBoard) refMoves() []string {
	var moves []string
	switch g.empty {
	case 0: // Black removes one of its stones from a corner or the centre.
		for r := 0; r < g.h; r++ {
			for c := 0; c < g.w; c++ {
				corner := (r == 0 || r == g.h-1) && (c == 0 || c == g.w-1)
				if g.cell[r][c] == gBlack && (corner || refCentre(g.w, c) && refCentre(g.h, r)) {
					moves = append(moves, refName(r, c))
				}
			}
		}
	case 1: // White removes one of its stones next to the hole.
		for r := 0; r < g.h; r++ {
			for c := 0; c < g.w; c++ {
				if g.cell[r][c] != gEmpty {
					continue
				}
				for _, d := range gridDirs {
					if r2, c2 := r+d[0], c+d[1]; g.inside(r2, c2) && g.cell[r2][c2] == gWhite {
						moves = append(moves, refName(r2, c2))
					}
				}
			}
		}
	default: // Jumps: over an enemy stone into an empty square, repeated in a straight line.
		opp := gBlack + gWhite - g.turn
		for r := 0; r < g.h; r++ {
			for c := 0; c < g.w; c++ {
				if g.cell[r][c] != g.turn {
					continue
				}
				for _, d := range gridDirs {
					for hop := 1; ; hop++ {
						or, oc := r+(2*hop-1)*d[0], c+(2*hop-1)*d[1]
						lr, lc := r+2*hop*d[0], c+2*hop*d[1]
						if !g.inside(lr, lc) || g.cell[or][oc] != opp || g.cell[lr][lc] != gEmpty {
							break
						}
						moves = append(moves, refName(r, c)+"-"+refName(lr, lc))
					}
				}
			}
		}
	}
	return moves
}

// refPlay plays a move given in project notation (legal, from refMoves).
func (g refBoard) refPlay(m string) refBoard {
	from, to, jump := strings.Cut(m, "-")
	var fr, fc, tr, tc int
	fmt.Sscanf(from[1:], "%d", &fr)
	fr, fc = fr-1, int(from[0]-'a')
	if !jump {
		g.cell[fr][fc] = gEmpty
		g.empty++
	} else {
		fmt.Sscanf(to[1:], "%d", &tr)
		tr, tc = tr-1, int(to[0]-'a')
		dr, dc := sign(tr-fr), sign(tc-fc)
		hops := (abs(tr-fr) + abs(tc-fc)) / 2
		for hop := 1; hop <= hops; hop++ { // the jumped stones are captured
			g.cell[fr+(2*hop-1)*dr][fc+(2*hop-1)*dc] = gEmpty
			g.empty++
		}
		g.cell[tr][tc], g.cell[fr][fc] = g.cell[fr][fc], gEmpty
	}
	g.turn = gBlack + gWhite - g.turn
	return g
}

func refPerft(g refBoard, counts []int) {
	moves := g.refMoves()
	counts[0] += len(moves)
	if len(counts) == 1 {
		return
	}
	for _, m := range moves {
		refPerft(g.refPlay(m), counts[1:])
	}
}

// wide and narrow convert a reference board to the fast representations.
func (g refBoard) wide() WidePosition {
	p := WidePosition{W: uint8(g.w), H: uint8(g.h), Turn: Black}
	if g.turn == gWhite {
		p.Turn = White
	}
	for r := 0; r < g.h; r++ {
		for c := 0; c < g.w; c++ {
			switch g.cell[r][c] {
			case gBlack:
				p.Black.set(WideSquareAt(r, c))
			case gWhite:
				p.White.set(WideSquareAt(r, c))
			}
		}
	}
	return p
}

func (g refBoard) narrow() Position {
	p := Position{Size: shapeCode(g.w, g.h), Turn: Black}
	if g.turn == gWhite {
		p.Turn = White
	}
	for r := 0; r < g.h; r++ {
		for c := 0; c < g.w; c++ {
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

// refSample returns reference boards of a w×h board: positions of random
// games from each start defined there, and random jumping positions whose
// squares are independently black, white or empty (mostly unreachable,
// which exercises patterns games rarely make).
func refSample(rng *rand.Rand, w, h, games, random int) []refBoard {
	var out []refBoard
	starts := []bool{false}
	if GapDefined(w, h) {
		starts = append(starts, true)
	}
	for _, gap := range starts {
		for range games {
			g := refStart(w, h, gap)
			for {
				out = append(out, g)
				moves := g.refMoves()
				if len(moves) == 0 {
					break
				}
				g = g.refPlay(moves[rng.IntN(len(moves))])
			}
		}
	}
	for range random {
		g := refBoard{w: w, h: h, turn: gBlack + rng.IntN(2)}
		share := 0.1 + 0.6*rng.Float64()
		for r := 0; r < h; r++ {
			for c := 0; c < w; c++ {
				switch x := rng.Float64(); {
				case x < share:
					g.empty++
				case x < share+(1-share)/2:
					g.cell[r][c] = gBlack
				default:
					g.cell[r][c] = gWhite
				}
			}
		}
		if g.empty >= 2 {
			out = append(out, g)
		}
	}
	return out
}

func sortedStrings(ms []string) []string {
	s := slices.Clone(ms)
	slices.Sort(s)
	return s
}
