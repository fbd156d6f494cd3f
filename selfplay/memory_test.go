package selfplay

import (
	"context"
	"runtime"
	"testing"

	"github.com/konanezero/konane/net/train"
	"github.com/konanezero/konane/runfiles"

	"github.com/konanezero/konane/mcts"
)

// TestRunMemoryFlat runs 50 tiny generations and checks that the heap in
// use after a collection stays within a fixed bound of what it was at
// generation 10. A run used to keep every generation's evaluator graphs
// (about 0.8 MB a generation at this size, 22 MB on 6x6).
func TestRunMemoryFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("50 generations")
	}
	cfg := tinyConfig()
	cfg.GamesPerGen, cfg.Parallel = 1, 1
	cfg.Game.Cap = mcts.PlayoutCap{FullSims: 2, FastSims: 1, FullFraction: 0.5}
	cfg.ReuseRatio = 0.1 // one training step per generation
	cfg.Generations = 50
	const (
		from  = 10
		bound = 4 << 20
	)
	var base, most uint64
	hooks := Hooks{Generation: func(m runfiles.Metrics) {
		if m.Generation < from {
			return
		}
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		if m.Generation == from {
			base = ms.HeapInuse
		}
		if ms.HeapInuse > most {
			most = ms.HeapInuse
		}
	}}
	if err := Run(context.Background(), t.TempDir(), cfg, train.New, hooks, func(string, ...any) {}); err != nil {
		t.Fatal(err)
	}
	t.Logf("heap in use after GC: %.1f MB at generation %d, at most %.1f MB up to generation %d", float64(base)/(1<<20), from, float64(most)/(1<<20), cfg.Generations)
	if base == 0 || most > base+bound {
		t.Errorf("heap in use grew from %d to %d bytes between generations %d and %d (bound %d)", base, most, from, cfg.Generations, bound)
	}
}
