package selfplay

import (
	"fmt"
	"strings"
	"testing"

	"github.com/konanezero/konane/internal/golden"
)

// TestGameGolden pins the records and sample targets of seeded self-play
// games (random opening plies, rescoring with children, both searches):
// testdata/games.golden, byte for byte; -update rewrites it.
func TestGameGolden(t *testing.T) {
	var out strings.Builder
	for _, tc := range []struct {
		name   string
		gumbel bool
		seed   uint64
	}{{"puct", false, 42}, {"gumbel", true, 7}, {"puct", false, 3}} {
		cfg := DefaultConfig(5).Game
		cfg.Cap = tinyConfig().Game.Cap
		cfg.MCTS.Gumbel = tc.gumbel
		cfg.MCTS.Solver = tc.seed != 3
		cfg.RandomPlies = 3
		cfg.RescoreStones, cfg.RescoreChildren, cfg.RescoreChildPolicy = 9, 2, true
		g := uniformGame(t, cfg, tc.seed)
		text, err := g.Record.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&out, "# %s seed %d: winner %v, %d plies, %d samples\n%s", tc.name, tc.seed, g.Winner, g.Plies, len(g.Samples), text)
		for _, s := range g.Samples {
			fmt.Fprintf(&out, "%s %v %.4f %v\n", s.Position.String(), s.Position.Turn, s.Value, s.Policy)
		}
		out.WriteString("\n")
	}
	golden.Check(t, "games.golden", []byte(out.String()))
}
