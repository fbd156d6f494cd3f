//go:build measure

package selfplay

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/konanezero/konane/net"
)

// TestMeasureSolveSettings measures the endgame solver's work in 8x8
// self-play under settings of SolveNodes and SolveStones: 64 games
// (fresh network of seed 1, game seeds 0..63, 32 in flight) per
// setting; the solver's tries, proofs and nodes, the moves whose search
// proved its root (their targets are exact) and the network's positions
// (these vary a little between runs: the evaluator's cache hits depend
// on timing, the games do not). docs/results/2026-12-07-solver-share.md.
//
//	go test -tags measure -run MeasureSolveSettings -v ./selfplay
func TestMeasureSolveSettings(t *testing.T) {
	for _, set := range []struct{ nodes, stones int }{
		{3000, 30}, {3000, 29}, {3000, 28}, {3000, 27}, {3000, 26},
		{1000, 30}, {1000, 28}, {300, 30}, {10000, 27}, {10000, 26},
	} {
		cfg := DefaultConfig(8)
		cfg.Game.MCTS.SolveNodes, cfg.Game.MCTS.SolveStones = set.nodes, set.stones
		model, err := net.New(cfg.Net, 1)
		if err != nil {
			t.Fatal(err)
		}
		eval, err := net.NewEvaluator(model, net.EvalOptions{Batch: cfg.EvalBatch, Wait: time.Millisecond, CacheSize: cfg.CacheSize})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		go eval.Run(ctx)
		seeds := make([]uint64, 64)
		for i := range seeds {
			seeds[i] = uint64(i)
		}
		var tries, proved, plies, provenPlies int
		var nodes uint64
		err = PlayGames(ctx, eval, cfg.Game, seeds, cfg.Parallel, func(_ int, g Game) error {
			tries += g.Endgame.Tries
			proved += g.Endgame.Proved
			nodes += g.Endgame.Nodes
			plies += g.Plies
			text, err := g.Record.MarshalText()
			provenPlies += strings.Count(string(text), " proven ")
			return err
		})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("SolveNodes %5d SolveStones %d: solver nodes %9d, tries %5d, proved %5d, proven plies %d of %d, net positions %d",
			set.nodes, set.stones, nodes, tries, proved, provenPlies, plies, eval.Stats().NetPositions)
	}
}
