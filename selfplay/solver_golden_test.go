package selfplay

import (
	"context"
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/konanezero/konane/internal/golden"
	"github.com/konanezero/konane/net"
)

// TestSelfplay8x8Golden pins 8x8 self-play at the defaults of konane train
// (the endgame solver at work in most searches of the second half of a
// game) with a fresh network, through PlayGames with games in flight at
// once: every game's record, the hash of its sample targets and its
// endgame solver's counts, testdata/selfplay8x8.golden. A change of the solver's speed that keeps
// its search (the nodes it visits, so the proofs that finish within their
// budget) keeps this file; -update rewrites it.
func TestSelfplay8x8Golden(t *testing.T) {
	cfg := DefaultConfig(8)
	model, err := net.New(cfg.Net, 1)
	if err != nil {
		t.Fatal(err)
	}
	eval, err := net.NewEvaluator(model, net.EvalOptions{Batch: 8, Wait: time.Millisecond, CacheSize: cfg.CacheSize})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go eval.Run(ctx)
	seeds := []uint64{1, 2, 3, 4, 5, 6}
	games := make([]Game, len(seeds))
	err = PlayGames(ctx, eval, cfg.Game, seeds, 4, func(i int, g Game) error { games[i] = g; return nil })
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	for i, g := range games {
		text, err := g.Record.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.New()
		for _, s := range g.Samples {
			fmt.Fprintf(h, "%s %v %.6f %v\n", s.Position.String(), s.Position.Turn, s.Value, s.Policy)
		}
		fmt.Fprintf(&out, "# seed %d: winner %v, %d plies, %d samples, targets %x, endgame solver %d tries, %d proved, %d nodes\n%s\n",
			seeds[i], g.Winner, g.Plies, len(g.Samples), h.Sum(nil)[:8], g.Endgame.Tries, g.Endgame.Proved, g.Endgame.Nodes, text)
	}
	golden.Check(t, "selfplay8x8.golden", []byte(out.String()))
}
