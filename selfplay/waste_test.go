package selfplay

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/konanezero/konane/net/train"
	"github.com/konanezero/konane/runfiles"
)

// TestScaleOutWaste measures, with KONANE_WASTE=N (workers), the share
// of uploaded games that a trainer fed by N workers trained on, and the
// lag between a game's model and the generation trained on it (issue 27
// item 6). Waste counts the distinct uploaded games never trained on, of
// the models before the last two (whose games could still be taken).
func TestScaleOutWaste(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("KONANE_WASTE"))
	if n < 1 {
		t.Skip("a measurement: KONANE_WASTE=workers")
	}
	gens := 8
	if g, err := strconv.Atoi(os.Getenv("KONANE_WASTE_GENS")); err == nil {
		gens = g
	}
	ctx := context.Background()
	store := openStore(t, ctx, filepath.Join(t.TempDir(), "run"))
	cfg := tinyConfig()
	cfg.GamesPerGen = 8
	cfg.Generations = gens
	stop := feedWorkers(t, ctx, store, n) // 2 games in flight each
	err := TrainFromWorkers(ctx, store, cfg, train.New, Hooks{}, func(string, ...any) {})
	stop()
	if err != nil {
		t.Fatal(err)
	}
	uploaded := map[string]int{} // key → model generation
	for g := 0; g <= gens; g++ {
		objs, err := store.List(ctx, runfiles.WorkerShardPrefix(g))
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range objs {
			if mg, _, ok := runfiles.ParseWorkerShardKey(o.Key); ok {
				uploaded[o.Key] = mg
			}
		}
	}
	trained := map[string]bool{}
	lagSum, lagN := 0, 0
	least, most := -1, 0 // games per generation
	for g := 1; g <= gens; g++ {
		b, err := store.Read(ctx, "replay/"+runfiles.KeysName(g))
		if err != nil {
			t.Fatal(err)
		}
		keys := strings.Fields(string(b))
		if least < 0 || len(keys) < least {
			least = len(keys)
		}
		most = max(most, len(keys))
		for _, k := range keys {
			mg, _, _ := runfiles.ParseWorkerShardKey(k)
			trained[k] = true
			lagSum += g - mg
			lagN++
		}
	}
	counted, wasted := 0, 0
	for k, mg := range uploaded {
		if mg > gens-2 {
			continue
		}
		counted++
		if !trained[k] {
			wasted++
		}
	}
	t.Logf("%d workers, %d generations of %d games: %d games uploaded by models 0..%d, %d never trained on (waste %.0f%%); mean lag %.2f generations; %d games trained on, %d to %d per generation",
		n, gens, cfg.GamesPerGen, counted, gens-2, wasted, 100*float64(wasted)/float64(max(counted, 1)), float64(lagSum)/float64(max(lagN, 1)), lagN, least, most)
}
