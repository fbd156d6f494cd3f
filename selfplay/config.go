package selfplay

import (
	"time"

	"github.com/konanezero/konane/mcts"
	"github.com/konanezero/konane/net"
)

// DefaultConfig returns the settings of `konane train` for a board size,
// chosen for a 2-core machine (see the README, and the package documentation for the
// games in flight, the batch and the evaluators on two cores).
func DefaultConfig(size int) Config {
	// ReuseRatio 12 rather than 4: training is cheap beside self-play here,
	// and in two 30-minute 6x6 runs (seed 1) the model trained with 12 kept
	// the win in 86.5% of 200 solver-labelled critical positions against
	// 82.5% (64 sims), and won the match between them 56-44.
	//
	// PUCT with visit-count targets learned faster per CPU-hour than Gumbel
	// AlphaZero at these budgets: after 15 minutes of 6x6 training each,
	// side by side on the same 2 cores, the PUCT model beat the Gumbel one
	// 77-23 and greedy 85-15 (Gumbel: 72-28). See the README.
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
			// Random openings: two 6x6 runs from the shipped model, side by
			// side on the same cores (seed 7, rescoring on in both), kept
			// the win in 95.0% of the 200 critical positions of the solver
			// check (512 simulations, no solver) after 50 minutes with
			// --random-plies 10, and in 90.5% after 60 minutes without
			// (91.0% before). Not measured on the other sizes yet.
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
// the tenth ply on), which cost the solver about 0.05 CPU-seconds a game
// (from its node counts by ply) where all of them took 1.8 (timed; see
// rescore.go); none on 7x7 and 8x8,
// whose positions the solver cannot settle before the endgame without a
// budget.
func defaultRescoreStones(size int) int {
	switch {
	case size <= 5:
		return size * size
	case size == 6:
		return 26
	}
	return 0
}

// defaultRandomPlies is GameConfig.RandomPlies for a board size: measured
// on 6x6 only.
func defaultRandomPlies(size int) int {
	if size == 6 {
		return 10
	}
	return 0
}
