package arena

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestGamesGolden pins the records of a seeded round robin (random
// opening plies, three players, two at a time): testdata/games.golden,
// byte for byte; -update rewrites it.
func TestGamesGolden(t *testing.T) {
	cfg := Config{Size: 5, Games: 4, Parallel: 2, RandomPlies: 2, Seed: 11}
	res, err := Run(context.Background(), cfg, factories(t, "random", "greedy", "alphabeta:depth=2"))
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	for _, g := range res.Games {
		text, err := res.Record(g).MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&out, "# game %d: key %016x\n%s\n", g.Index+1, g.Key(), text)
	}
	path := filepath.Join("testdata", "games.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if out.String() != string(want) {
		t.Errorf("the match's records differ from %s (-update rewrites it):\n%s", path, out.String())
	}
}
