package rules

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// Helpers shared by the tests of this package: seeded random positions and
// move-set comparison.

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x6b6f6e616e65)) }

// gamePositions returns every position of playouts from every opening of
// every size, plus the starting positions and those after Black's
// removal: perOpening games per opening.
func gamePositions(seed uint64, perOpening int) []Position {
	rng := newRand(seed)
	var out []Position
	for n := MinSize; n <= MaxSize; n++ {
		start := NewPosition(n)
		out = append(out, start)
		for _, m := range start.LegalMoves(nil) {
			out = append(out, start.Play(m))
		}
		for _, o := range Openings(n) {
			for g := 0; g < perOpening; g++ {
				ps, _ := Playout(rng, o.Position, -1)
				out = append(out, ps...)
			}
		}
	}
	return out
}

// randomJumping returns a position of a random size whose squares are
// independently black, white or empty, with at least two empty squares (so
// in the jumping phase) and a random side to move. Such positions are
// mostly unreachable, which is the point: they exercise stone patterns
// that games rarely produce (own stones side by side, long rows of enemy
// stones).
func randomJumping(rng *rand.Rand) Position {
	n := MinSize + rng.IntN(MaxSize-MinSize+1)
	emptyShare := 0.1 + 0.6*rng.Float64()
	for {
		p := Position{Size: uint8(n), Turn: Color(rng.IntN(2))}
		for r := 0; r < n; r++ {
			for c := 0; c < n; c++ {
				switch x := rng.Float64(); {
				case x < emptyShare:
				case x < emptyShare+(1-emptyShare)/2:
					p.Black |= SquareAt(r, c).Bit()
				default:
					p.White |= SquareAt(r, c).Bit()
				}
			}
		}
		if p.Phase() == Jumping {
			return p
		}
	}
}

// testPositions is the shared sample: game positions and random jumping
// positions (fewer with -short).
func testPositions(t testing.TB, seed uint64) []Position {
	perOpening, random := 6, 4000
	if testing.Short() {
		perOpening, random = 1, 500
	}
	ps := gamePositions(seed, perOpening)
	rng := newRand(seed + 1)
	for i := 0; i < random; i++ {
		ps = append(ps, randomJumping(rng))
	}
	return ps
}

// sortedMoves returns a sorted copy, for comparing move lists as sets.
func sortedMoves(ms []Move) []Move {
	out := slices.Clone(ms)
	slices.SortFunc(out, func(a, b Move) int {
		if a.From != b.From {
			return int(a.From) - int(b.From)
		}
		return int(a.To) - int(b.To)
	})
	return out
}

// sameMoveSet reports whether a and b hold the same moves, each once.
func sameMoveSet(a, b []Move) bool {
	sa, sb := sortedMoves(a), sortedMoves(b)
	return slices.Equal(sa, sb) && len(slices.Compact(sa)) == len(sb)
}

// mustDiagram parses a diagram (see ParsePosition) or fails the test.
func mustDiagram(t testing.TB, text string) Position {
	t.Helper()
	p, err := ParsePosition(text)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// mustPlay plays moves in notation from p or fails the test.
func mustPlay(t testing.TB, p Position, moves ...string) Position {
	t.Helper()
	for _, text := range moves {
		m, err := ParseMove(p, text)
		if err != nil {
			t.Fatal(err)
		}
		p = p.Play(m)
	}
	return p
}

// moveStrings writes moves in notation, sorted alphabetically.
func moveStrings(ms []Move) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.String()
	}
	slices.Sort(out)
	return out
}
