package arena

import (
	"math/rand/v2"

	"github.com/konanezero/konane/rules"
)

// Openings makes the starting lines of a match on board b: on a board
// with the removal start, line k is a pair of opening removals followed
// by randomPlies uniformly random jumps, all drawn from seed; on a board
// with the gap start (no removals) it is randomPlies random jumps from
// the start. The removal pairs are every legal pair (rules.Openings) in
// a seeded order, cycled, so that n lines cover as many different pairs
// as they can; the random jumps make lines that share a removal pair
// differ. A random line that would end the game is drawn again (and
// shortened if it keeps doing so), so every line leaves the side to move
// a legal move. On a square board the lines are those of the arena
// before it played other boards, move for move.
func Openings(b rules.Board, n, randomPlies int, seed uint64) ([][]rules.WideMove, error) {
	if b.Narrow() {
		start, err := b.Position()
		if err != nil {
			return nil, err
		}
		return openings(start, n, randomPlies, seed, rules.OpeningsFrom(start), narrowOpening,
			func(m rules.Move) rules.WideMove { return m.Wide() }), nil
	}
	start, err := b.WidePosition()
	if err != nil {
		return nil, err
	}
	return openings(start, n, randomPlies, seed, rules.WideOpenings(start), wideOpening,
		func(m rules.WideMove) rules.WideMove { return m }), nil
}

// linePosition is what a line needs of a position type: Position or
// WidePosition with its moves M.
type linePosition[P, M any] interface {
	LegalMoves([]M) []M
	Play(M) P
	HasMoves() bool
}

// openings is Openings on positions P from start, with the legal
// removal pairs all (none on a gap board); pair splits one into its
// moves and the position after them, wide makes a move wide.
func openings[P linePosition[P, M], M, O any](start P, n, randomPlies int, seed uint64, all []O,
	pair func(O) (M, M, P), wide func(M) rules.WideMove) [][]rules.WideMove {
	var order []int
	if len(all) > 0 {
		order = rand.New(rand.NewPCG(seed, streamOpenings)).Perm(len(all))
	}
	lines := make([][]rules.WideMove, n)
	for k := range lines {
		p := start
		var line []M
		if len(all) > 0 {
			var mb, mw M
			mb, mw, p = pair(all[order[k%len(all)]])
			line = append(line, mb, mw)
		}
		rng := rand.New(rand.NewPCG(seed, streamLine+uint64(k)))
		line = append(line, randomLine(p, randomPlies, rng)...)
		for _, m := range line {
			lines[k] = append(lines[k], wide(m))
		}
	}
	return lines
}

func narrowOpening(o rules.Opening) (rules.Move, rules.Move, rules.Position) {
	return o.Black, o.White, o.Position
}

func wideOpening(o rules.WideOpening) (rules.WideMove, rules.WideMove, rules.WidePosition) {
	return o.Black, o.White, o.Position
}

// randomLine returns up to plies random moves from p that leave the side
// to move with a legal move.
func randomLine[P linePosition[P, M], M any](p P, plies int, rng *rand.Rand) []M {
	for want := plies; want > 0; want-- {
		for try := 0; try < 20; try++ {
			if line, end := playout(p, want, rng); len(line) == want && end.HasMoves() {
				return line
			}
		}
	}
	return nil
}

// playout plays up to plies uniformly random legal moves from p, each
// drawn with rng.IntN over LegalMoves as rules.Playout does (so that the
// lines of square boards are those it drew), and returns them with the
// position reached.
func playout[P linePosition[P, M], M any](p P, plies int, rng *rand.Rand) ([]M, P) {
	var line []M
	for len(line) < plies {
		moves := p.LegalMoves(nil)
		if len(moves) == 0 {
			break
		}
		m := moves[rng.IntN(len(moves))]
		p = p.Play(m)
		line = append(line, m)
	}
	return line, p
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
