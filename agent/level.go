package agent

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/konanezero/konane/mcts"
	"github.com/konanezero/konane/player"
)

// Level is a difficulty: a Number on the ladder (1 the weakest) and a
// Name, either of which names it in commands, specs, the API and links
// (the Name is what they write). On a board with a network it is the
// number of search simulations per move, whether the search uses
// MCTS-Solver and the exact endgame solver, and, at the weak levels, a
// draw from the search's distribution (Temp and TopK: player.Choice.Draw)
// instead of its best move. Where no network plays — the exact solver
// on 4x4 and 5x5, the classical engine (pvs) for PVSTime per move on
// boards without a network — the weak levels replace a share Noise of
// the engine's moves by random ones (player.Choice.Slip); a level
// without Noise plays the solver's moves there, perfectly. Every draw is
// guarded: the one move that wins or escapes at once is played
// (player.Guard).
type Level struct {
	Number  int
	Name    string
	Sims    int
	Solver  bool
	Temp    float64 // of the draw on a network's board; 0: the best move
	TopK    int     // moves the draw keeps to; 0: all
	Noise   float64 // share of random moves of the solver and pvs
	PVSTime time.Duration
}

// Limits returns the limits of a move at level l, its draw and noise
// included (the agent applies the one that suits its engine).
func (l Level) Limits() player.Limits {
	return player.Limits{Sims: l.Sims, NoSolver: !l.Solver,
		Choice: player.Choice{Temp: l.Temp, TopK: l.TopK, Noise: l.Noise}}
}

// Perfect reports whether the level plays perfectly on a board that
// the exact solver plays (Perfect(size)): it has no Noise.
func (l Level) Perfect() bool { return l.Noise == 0 }

// Perfection says how perfectly a level plays on a board, as the player
// is told (the page's and the terminal's words for a level).
type Perfection string

const (
	// Imperfect: the level's moves are not the exact solver's, or not
	// known to be.
	Imperfect Perfection = ""
	// PerfectAlways: the exact solver plays every move (Perfect(size),
	// a level without Noise).
	PerfectAlways Perfection = "always"
	// PerfectEarly: the level's search finds the exact solver's moves
	// from early in the game (perfectEarly).
	PerfectEarly Perfection = "early"
)

// perfectEarly is, for the boards of a network whose search's exact
// solver settles the positions from early in the game, the least level
// that plays the solver's moves from there on, like every level above
// it: on 6x6 steady, medium, hard and max play alike (the measurements:
// docs/results/2026-12-07-levels.md and 2026-12-07-levels-boards.md).
var perfectEarly = map[int]int{6: 5}

// PerfectionOn says how perfectly l plays on the size×size board.
func (l Level) PerfectionOn(size int) Perfection {
	switch from, ok := perfectEarly[size]; {
	case Perfect(size) && l.Perfect():
		return PerfectAlways
	case ok && l.Number >= from:
		return PerfectEarly
	}
	return Imperfect
}

// levels is the one table of difficulties that play, serve, gtp and
// arena specs offer, weakest first; its Numbers are 1, 2, ... in order.
//
// easy, medium, hard and max are the four levels of before the ladder,
// with the same moves on a network's board: medium and hard search as
// much as fits a budget of 0.3 s and 1 s per move on 8x8 on a 2-core
// machine, with a margin; a level is one search on one core; max
// searches four times as much as hard (docs/results/2026-12-01-latency.md).
// Below easy, newcomer, beginner and casual draw their moves from the
// network's policy (one simulation: the network alone) or a small
// search's visits, at a temperature among the top moves, so that they
// play plausible moves and sometimes not the best; the temperatures
// were tuned so that newcomer scores about half against the greedy
// one-move player (docs/results/2026-12-07-levels.md); newcomer keeps to
// its 16 most probable moves, which changes nothing up to 8x8 (one game
// in 200 there) and keeps it near greedy on 15x12, whose many moves made
// its draw close to uniform (2026-12-07-levels-boards.md). steady fills the
// gap between easy and medium. All from steady up use the solver.
// PVSTime gives the classical engine the same budgets, and the weak
// levels short ones.
var levels = []Level{
	{Number: 1, Name: "newcomer", Sims: 1, Temp: 2, TopK: 16, Noise: 0.5, PVSTime: 10 * time.Millisecond},
	{Number: 2, Name: "beginner", Sims: 1, Temp: 1, TopK: 8, Noise: 0.35, PVSTime: 20 * time.Millisecond},
	{Number: 3, Name: "casual", Sims: 8, Temp: 0.7, TopK: 4, Noise: 0.25, PVSTime: 30 * time.Millisecond},
	{Number: 4, Name: "easy", Sims: 16, Noise: 0.15, PVSTime: 50 * time.Millisecond},
	{Number: 5, Name: "steady", Sims: 64, Solver: true, Noise: 0.1, PVSTime: 150 * time.Millisecond},
	{Number: 6, Name: "medium", Sims: 512, Solver: true, Noise: 0.05, PVSTime: 300 * time.Millisecond},
	{Number: 7, Name: "hard", Sims: 2048, Solver: true, PVSTime: time.Second},
	{Number: 8, Name: "max", Sims: 8192, Solver: true, PVSTime: 4 * time.Second},
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

// AdviceLevel is the least level whose search gives a hint or an
// evaluation (AdviceLimits), whatever level the agent plays at.
const AdviceLevel = "medium"

// AdviceLimits returns the limits of a hint or an evaluation for a game
// whose agent plays within s: at least AdviceLevel's simulations (a
// time limit alone stays as it is), with the solver, and never a draw —
// so that advice is as good at the weak levels as at medium, and one
// figure comes from one search.
func AdviceLimits(s player.Limits) player.Limits {
	a, err := ParseLevel(AdviceLevel)
	if err != nil {
		panic(err) // the table names AdviceLevel (TestParseLevel)
	}
	out := player.Limits{Sims: s.Sims, Time: s.Time}
	if out.Sims > 0 && out.Sims < a.Sims {
		out.Sims = a.Sims
	}
	return out
}

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

// ParseLevel returns the level of that name or number ("easy" or "4";
// case and surrounding spaces do not matter).
func ParseLevel(name string) (Level, error) {
	text := strings.TrimSpace(name)
	for _, l := range levels {
		if strings.EqualFold(text, l.Name) || text == strconv.Itoa(l.Number) {
			return l, nil
		}
	}
	return Level{}, fmt.Errorf("agent: unknown level %q (want 1..%d or a name: %s)", name, len(levels), strings.Join(LevelNames(), ", "))
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
