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
		},
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
