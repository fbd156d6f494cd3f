package rulestest

import (
	"math/rand/v2"

	"github.com/konanezero/konane/rules"
)

// Games returns every position that has a legal move of n random games
// on a size×size board (removals included), in order of play.
func Games(rng *rand.Rand, size, n int) []rules.Position {
	var out []rules.Position
	for range n {
		ps, _ := rules.Playout(rng, rules.NewPosition(size), -1)
		out = append(out, ps[:len(ps)-1]...) // the last has no move
	}
	return out
}

// Positions returns the first count positions that have a legal move of
// as many random games on a size×size board as it takes.
func Positions(rng *rand.Rand, size, count int) []rules.Position {
	var out []rules.Position
	for len(out) < count {
		ps, _ := rules.Playout(rng, rules.NewPosition(size), -1)
		out = append(out, ps[:min(len(ps)-1, count-len(out))]...) // the last has no move
	}
	return out
}

// AtPlies plays count random games on a size×size board and returns the
// position after a random number of plies in [lo, hi] of each, or its
// last position if the game ends before.
func AtPlies(rng *rand.Rand, size, count, lo, hi int) []rules.Position {
	out := make([]rules.Position, 0, count)
	for range count {
		ps, _ := rules.Playout(rng, rules.NewPosition(size), lo+rng.IntN(hi-lo+1))
		out = append(out, ps[len(ps)-1])
	}
	return out
}

// Opening plays plies random legal moves from the start of a size×size
// board (the first two are the removals), fewer if the game ends.
func Opening(rng *rand.Rand, size, plies int) rules.Position {
	p := rules.NewPosition(size)
	for range plies {
		ms := p.LegalMoves(nil)
		if len(ms) == 0 {
			break
		}
		p = p.Play(ms[rng.IntN(len(ms))])
	}
	return p
}
