package rules

import "math/rand/v2"

// Playout plays uniformly random legal moves from p, each drawn with
// rng.IntN over LegalMoves, until the side to move has none or maxPlies
// moves are played (maxPlies < 0: no limit). It returns every position
// met, p first and the one reached last, and the moves played. Tests,
// sampled positions and random openings all draw their games with it.
func Playout(rng *rand.Rand, p Position, maxPlies int) ([]Position, []Move) {
	var buf [MaxMoves]Move
	return playout(rng, p, maxPlies, buf[:0])
}

// WidePlayout is Playout on a WidePosition: from a position both types
// hold, the same rng plays the same moves.
func WidePlayout(rng *rand.Rand, p WidePosition, maxPlies int) ([]WidePosition, []WideMove) {
	var buf [WideMaxMoves]WideMove
	return playout(rng, p, maxPlies, buf[:0])
}

// playout is Playout and WidePlayout; buf receives the legal moves.
func playout[P gamePosition[P, M], M gameMove](rng *rand.Rand, p P, maxPlies int, buf []M) ([]P, []M) {
	ps := []P{p}
	var ms []M
	for maxPlies < 0 || len(ms) < maxPlies {
		moves := p.LegalMoves(buf)
		if len(moves) == 0 {
			break
		}
		m := moves[rng.IntN(len(moves))]
		p = p.Play(m)
		ps = append(ps, p)
		ms = append(ms, m)
	}
	return ps, ms
}
