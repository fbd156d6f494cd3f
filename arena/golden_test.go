package arena

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/konanezero/konane/internal/golden"
	"github.com/konanezero/konane/rules"
)

// TestGamesGolden pins the records of a seeded round robin (random
// opening plies, three players, two at a time): testdata/games.golden,
// byte for byte; -update rewrites it.
func TestGamesGolden(t *testing.T) {
	cfg := MatchConfig{Board: rules.SquareBoard(5), Games: 4, Parallel: 2, RandomPlies: 2, Seed: 11}
	res, err := Run(context.Background(), cfg, factories(t, "random", "greedy", "alphabeta:depth=2"))
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	for _, g := range res.Games {
		rec, err := res.Record(g)
		if err != nil {
			t.Fatal(err)
		}
		text, err := rec.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&out, "# game %d: key %016x\n%s\n", g.Index+1, g.Key(), text)
	}
	golden.Check(t, "games.golden", []byte(out.String()))
}
