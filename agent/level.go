package agent

import (
	"fmt"
	"strings"
	"time"

	"github.com/konanezero/konane/mcts"
	"github.com/konanezero/konane/player"
)

// Level is a named difficulty: the number of search simulations per move
// and whether the search uses MCTS-Solver and the exact endgame solver;
// on a board without a network, the time per move of the classical
// engine (pvs) that plays there instead.
type Level struct {
	Name    string
	Sims    int
	Solver  bool
	PVSTime time.Duration
}

// Limits returns the limits of a move at level l.
func (l Level) Limits() player.Limits { return player.Limits{Sims: l.Sims, NoSolver: !l.Solver} }

// levels is the one table of difficulties that play, serve and gtp offer,
// weakest first; all but the easiest use the solver (which makes the
// endgame exact). medium and hard search as much as fits a budget of
// 0.3 s and 1 s per move on 8x8 on a 2-core machine, with a margin; a
// level is one search on one core; max searches four times as much as
// hard. The times measured (BenchmarkAgentGame) and why one core:
// docs/results/2026-12-01-latency.md. PVSTime gives the classical engine
// the same budgets, and easy a short one.
var levels = []Level{
	{"easy", 16, false, 50 * time.Millisecond},
	{"medium", 512, true, 300 * time.Millisecond},
	{"hard", 2048, true, time.Second},
	{"max", 8192, true, 4 * time.Second},
}

// policyTemps is the temperature of the network's priors in the search
// of every level, per board size (mcts.Config.PolicyTemp; 1 for a size
// not listed; self-play searches without one). Flattened priors let the
// search find a winning move the network all but rules out, but spread
// the simulations over more moves; which weighs more was measured on the
// shipped models at level medium: 2 on 6x6, 1 on 8x8
// (docs/results/2026-12-02-defaults.md, "The priors' temperature").
var policyTemps = map[int]float64{6: 2}

// PolicyTemp returns the temperature of the priors in the agent's search
// on a size×size board.
func PolicyTemp(size int) float64 {
	if t, ok := policyTemps[size]; ok {
		return t
	}
	return 1
}

// SearchConfig returns the search settings of the agent on a size×size
// board at every level: mcts.DefaultConfig with PolicyTemp(size).
func SearchConfig(size int) mcts.Config {
	c := mcts.DefaultConfig()
	c.PolicyTemp = PolicyTemp(size)
	return c
}

// DefaultLevel is the level used when none is chosen.
const DefaultLevel = "medium"

// Levels returns the difficulty levels, weakest first.
func Levels() []Level { return append([]Level(nil), levels...) }

// LevelNames returns the names of the levels, weakest first.
func LevelNames() []string {
	names := make([]string, len(levels))
	for i, l := range levels {
		names[i] = l.Name
	}
	return names
}

// ParseLevel returns the level of that name (case does not matter).
func ParseLevel(name string) (Level, error) {
	for _, l := range levels {
		if strings.EqualFold(strings.TrimSpace(name), l.Name) {
			return l, nil
		}
	}
	return Level{}, fmt.Errorf("agent: unknown level %q (want %s)", name, strings.Join(LevelNames(), ", "))
}

// NewLimits combines the usual command-line settings: a level name
// gives the simulations, a positive sims replaces them, and a positive
// moveTime limits the time per move (without sims, time alone then
// decides, whatever the level).
func NewLimits(level string, sims int, moveTime time.Duration) (player.Limits, error) {
	if level == "" {
		level = DefaultLevel
	}
	l, err := ParseLevel(level)
	if err != nil {
		return player.Limits{}, err
	}
	s := l.Limits()
	s.Time = moveTime
	switch {
	case sims != 0:
		s.Sims = sims
	case moveTime != 0:
		s.Sims = 0
	}
	if err := s.Validate(); err != nil {
		return player.Limits{}, err
	}
	return s, nil
}
