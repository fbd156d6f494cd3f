package selfplay

import (
	"time"

	"github.com/konanezero/konane/mcts"
	"github.com/konanezero/konane/net"
)

// DefaultConfig returns the settings of `konane train` for a board size,
// chosen for a 2-core machine. The measurements behind them are in
// docs/results/2026-12-02-defaults.md (search, reuse ratio, rescoring,
// random openings) and docs/results/2026-12-01-speed.md (games in flight,
// batch, evaluators).
func DefaultConfig(size int) Config {
	// ReuseRatio 12 rather than 4, and PUCT with visit-count targets
	// rather than Gumbel AlphaZero: docs/results/2026-12-02-defaults.md.
	m := mcts.DefaultConfig()
	m.Gumbel = false
	m.GumbelSampled = 8
	m.LeafBatch = 4
	train := net.DefaultTrainOptions()
	train.Augment = false // the replay buffer draws every sample under a random symmetry
	c := Config{
		Size:  size,
		Seed:  1,
		Net:   net.DefaultConfig(size),
		Train: train,
		Game: GameConfig{
			Size:        size,
			MCTS:        m,
			Cap:         mcts.PlayoutCap{FullSims: 64, FastSims: 16, FullFraction: 0.25},
			Temperature: mcts.TemperatureSchedule{Initial: 1, Final: 0, Hold: size},
			ExactValues: true,
			// See defaultRescoreStones; 8x8 relies on the search's own
			// endgame solver.
			RescoreStones: defaultRescoreStones(size),
			// Random openings: see defaultRandomPlies.
			RandomPlies: defaultRandomPlies(size),
		},
		Schedule:    DefaultSchedule(size),
		GamesPerGen: 64,
		ReuseRatio:  12,
		MinWindow:   20000,
		MaxWindow:   500000,
		Parallel:    32,
		EvalBatch:   32,
		CacheSize:   1 << 17,
		Duration:    0 * time.Second,
	}
	return c
}

// defaultRescoreStones is GameConfig.RescoreStones for a board size: every
// position of 4x4 and 5x5; on 6x6 those of at most 26 stones (from about
// the tenth ply on; their cost: docs/results/2026-12-02-defaults.md);
// none on 7x7 and 8x8, whose positions the solver cannot settle before
// the endgame without a budget.
func defaultRescoreStones(size int) int {
	switch {
	case size <= 5:
		return size * size
	case size == 6:
		return 26
	}
	return 0
}

// defaultRandomPlies is GameConfig.RandomPlies for a board size: 10 on
// 6x6, where it was measured (docs/results/2026-12-02-defaults.md), none
// on the others.
func defaultRandomPlies(size int) int {
	if size == 6 {
		return 10
	}
	return 0
}

// ResumeDiff lists the settings that define a run (all but the session's:
// Parallel, EvalBatch, CacheSize, Generations, Duration and Init) in which
// given differs from saved, as "seed: saved 1, given 5; ...", or returns
// "" when a run saved with saved may resume with given.
func ResumeDiff(saved, given Config) string {
	return configDiff(saved.identity(), given.identity())
}
