package mcts

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/rules/rulestest"
)

// samplePositions plays games of uniformly random moves on a size×size
// board (seeded) and returns every position of them in the jumping phase
// that still has a legal move.
func samplePositions(size, games int, seed uint64) []rules.Position {
	var out []rules.Position
	for _, p := range rulestest.Games(rand.New(rand.NewPCG(seed, 99)), size, games) {
		if p.Phase() == rules.Jumping {
			out = append(out, p)
		}
	}
	return out
}

// forcesWithin reports whether the side to move in p can leave the
// opponent without a move within plies plies (1, 3, 5, ...), whatever the
// opponent does: a plain depth-limited AND/OR search.
func forcesWithin(p rules.Position, plies int) bool {
	var buf [rules.MaxMoves]rules.Move
	for _, m := range p.LegalMoves(buf[:0]) {
		if winsAfter(p.Play(m), plies-1) {
			return true
		}
	}
	return false
}

// winsAfter: q is the opponent's turn; every reply (if any) leaves us a
// forced win within plies-1 more plies.
func winsAfter(q rules.Position, plies int) bool {
	var buf [rules.MaxMoves]rules.Move
	replies := q.LegalMoves(buf[:0])
	if len(replies) == 0 {
		return true
	}
	if plies < 2 {
		return false
	}
	for _, r := range replies {
		if !forcesWithin(q.Play(r), plies-1) {
			return false
		}
	}
	return true
}

// mustSearch returns a Search or fails the test.
func mustSearch(t testing.TB, eval Evaluator, cfg Config, seed uint64) *Search {
	t.Helper()
	s, err := New(eval, cfg, seed)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// mustRun runs a search or fails the test.
func mustRun(t testing.TB, s *Search, p rules.Position, opts RunOptions) Result {
	t.Helper()
	res, err := s.Run(context.Background(), p, opts)
	if err != nil {
		t.Fatalf("run: %v\n%v", err, p)
	}
	return res
}

// plainConfig is DefaultConfig without MCTS-Solver: plain MCTS, whose
// runs always spend their whole budget.
func plainConfig() Config {
	c := DefaultConfig()
	c.Solver = false
	return c
}

// gumbelConfig is plainConfig in Gumbel mode.
func gumbelConfig() Config {
	c := plainConfig()
	c.Gumbel = true
	return c
}

// modes lists the two search modes, without proofs, for table-driven
// tests of plain MCTS (solve_test.go tests MCTS-Solver).
var modes = []struct {
	name string
	cfg  func() Config
}{
	{"puct", plainConfig},
	{"gumbel", gumbelConfig},
}

// indexOf returns the position of m in moves, or -1.
func indexOf(moves []rules.Move, m rules.Move) int {
	for i, x := range moves {
		if x == m {
			return i
		}
	}
	return -1
}

// richPosition returns the first sampled size×size position with at least
// minMoves legal moves.
func richPosition(t testing.TB, size, minMoves int, seed uint64) rules.Position {
	t.Helper()
	for _, p := range samplePositions(size, 50, seed) {
		if p.CountMoves() >= minMoves {
			return p
		}
	}
	t.Fatalf("no %dx%d position with %d moves", size, size, minMoves)
	return rules.Position{}
}
