package arena

import (
	"math/rand/v2"

	"github.com/konanezero/konane/rules"
)

// Openings makes the starting lines of a match: line k is a pair of
// opening removals followed by randomPlies uniformly random jumps, all
// drawn from seed. The removal pairs are every legal pair
// (rules.Openings) in a seeded order, cycled, so that n lines cover as
// many different pairs as they can; the random jumps make lines that share
// a removal pair differ. A random line that would end the game is drawn
// again (and shortened if it keeps doing so), so every line leaves the
// side to move a legal move.
func Openings(size, n, randomPlies int, seed uint64) [][]rules.Move {
	all := rules.Openings(size)
	order := rand.New(rand.NewPCG(seed, streamOpenings)).Perm(len(all))
	lines := make([][]rules.Move, n)
	for k := range lines {
		o := all[order[k%len(all)]]
		rng := rand.New(rand.NewPCG(seed, streamLine+uint64(k)))
		lines[k] = append([]rules.Move{o.Black, o.White}, randomLine(o.Position, randomPlies, rng)...)
	}
	return lines
}

// randomLine returns up to plies random moves from p that leave the side
// to move with a legal move.
func randomLine(p rules.Position, plies int, rng *rand.Rand) []rules.Move {
	for want := plies; want > 0; want-- {
		for try := 0; try < 20; try++ {
			ps, line := rules.Playout(rng, p, want)
			if len(line) == want && ps[len(ps)-1].HasMoves() {
				return line
			}
		}
	}
	return nil
}

// Streams of math/rand/v2's PCG for the different uses of the seed.
const (
	streamOpenings uint64 = 0x6f70656e << 32 // "open"
	streamLine     uint64 = 0x6c696e65 << 32 // "line", + line number
	streamPlayer   uint64 = 0x706c7972 << 32 // "plyr", + game number
	streamSample   uint64 = 0x73616d70 << 32 // "samp", + game number
)

// playerSeed is the seed of the player of colour c in game i.
func playerSeed(seed uint64, i int, c rules.Color) uint64 {
	return rand.New(rand.NewPCG(seed, streamPlayer+uint64(i)<<1+uint64(c))).Uint64()
}
