package rules

import "math/rand/v2"

// Playout plays uniformly random legal moves from p, each drawn with
// rng.IntN over LegalMoves, until the side to move has none or maxPlies
// moves are played (maxPlies < 0: no limit). It returns every position
// met, p first and the one reached last, and the moves played. Tests,
// sampled positions and random openings all draw their games with it.
func Playout(rng *rand.Rand, p Position, maxPlies int) ([]Position, []Move) {
	var buf [MaxMoves]Move
	ps := []Position{p}
	var ms []Move
	for maxPlies < 0 || len(ms) < maxPlies {
		moves := p.LegalMoves(buf[:0])
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
