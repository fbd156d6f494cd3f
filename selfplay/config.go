package selfplay

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/konanezero/konane/mcts"
	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/runfiles"
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
	m.SolveStones = defaultSolveStones(size)
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
		Backend:     net.BackendFloat32,
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

// defaultSolveStones is the search's Config.SolveStones in self-play on a
// board size: 27 on 8x8, where the solver's leaves of 28 to 30 stones
// mostly ran out of their budget (24-38% proved) and cost three quarters
// of its nodes for a few percent of the proofs
// (docs/results/2026-12-07-solver-share.md); mcts's default on the
// others.
func defaultSolveStones(size int) int {
	if size >= 8 {
		return 27
	}
	return mcts.DefaultSolveStones
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

// Config is everything that defines a training run. It is written to
// DIR/config.json when the run starts; a resumed run must agree with it in
// everything but the stop conditions and the parallelism.
type Config struct {
	// RunID is the run's identity, random, made when the run is created
	// (runfiles.NewRunID) and recorded in its state.json too: a run's
	// files are told from those of another run of the same seed by it and
	// by the sha256s that state.json records. Not a setting: given ""
	// (or the saved one) on resuming; "" in runs made before runs had one,
	// which keep none.
	RunID string `json:"run_id,omitempty"`
	Size  int    `json:"size"` // the board N×N; 0 for a multi-board run
	Seed  uint64 `json:"seed"`
	// Boards lists the boards of a multi-board run, with their shares
	// of the games; nil (and absent from config.json) for a run of the
	// one board Size×Size. The list is part of the run's identity.
	Boards []BoardShare `json:"boards,omitempty"`

	Net   net.Config       `json:"net"`
	Train net.TrainOptions `json:"train"`
	Game  GameConfig       `json:"game"`

	GamesPerGen int `json:"games_per_gen"`
	// ReuseRatio: training steps per generation are chosen so that each new
	// sample is drawn this many times on average (KataGo's samples-reused).
	ReuseRatio float64    `json:"reuse_ratio"`
	MinWindow  int        `json:"min_window"` // replay window while the run is young
	MaxWindow  int        `json:"max_window"`
	Gate       GateConfig `json:"gate"`
	// Games is where the run's games are played, ModeLocal or
	// ModeWorkers: set by Run and TrainFromWorkers, recorded at the
	// run's creation, and a run resumes only in its mode (a *ModeError
	// otherwise). "" in a run made before the mode was recorded, which
	// resumes in either.
	Games string `json:"games,omitempty"`
	// Schedule changes the learning rate and the rescored children by
	// generation (empty: Train.LR and Game.RescoreChildren throughout).
	Schedule Schedule `json:"schedule,omitempty"`
	// Backend is the network's arithmetic in self-play (net.EvalOptions):
	// net.BackendFloat32 ("" means it, as in every run made before the
	// setting) or net.BackendBF16. Part of the run's identity: a resume or
	// a worker runs the saved one, and a CPU without it refuses.
	Backend string `json:"backend,omitempty"`
	// SurpriseWeighting is KataGo's policy surprise weighting: each game
	// gives its full searches' samples their weights, half an even share,
	// half a share of the game's surprise (net.Sample.SurpriseWeight), and
	// training draws samples in proportion to them
	// (Replay.SurpriseWeighting). False, and absent from config.json, in
	// every run made before the setting.
	SurpriseWeighting bool `json:"surprise_weighting,omitempty"`

	// Not part of the run's identity: may change when resuming.
	Parallel    int           `json:"parallel"`   // games in flight
	EvalBatch   int           `json:"eval_batch"` // evaluator batch size
	CacheSize   int           `json:"cache_size"` // evaluator position cache entries
	Generations int           `json:"generations"`
	Duration    time.Duration `json:"duration"` // stop after this wall time (0: no limit)
	// CPUBudget stops the run at the first generation after which the
	// CPU time of the run's own generations, all its sessions together
	// (runfiles.Metrics.CPUSecs summed over metrics.csv), is at least
	// this; a run already there stops before playing (0: no limit). With
	// outside workers (TrainFromWorkers) it counts the trainer's CPU
	// alone, since that is all metrics.csv records.
	CPUBudget time.Duration `json:"cpu_budget,omitempty"`
	// Init is a model file whose weights a new run starts from instead
	// of random ones (its architecture must be Net, or Net with fewer
	// residual blocks: see InitModel); a run that has
	// generations already continues from its own checkpoint.
	Init string `json:"init,omitempty"`
	// InitModel is the model of Init when the caller has loaded it
	// already (konane train does, to learn its network): the run then
	// starts from it and does not read Init again. Never saved.
	InitModel *net.Model `json:"-"`
}

// Where a run's games are played (Config.Games).
const (
	ModeLocal   = "local"   // by the trainer (konane train, Run)
	ModeWorkers = "workers" // by konane selfplay workers (TrainFromWorkers)
)

// ModeError is a run resumed in the other mode than the one it was made
// in (Config.Games): a trainer that plays its own games on a run fed by
// workers, or the reverse.
type ModeError struct {
	Dir   string
	Saved string // the run's mode
}

func (e *ModeError) Error() string {
	if e.Saved == ModeWorkers {
		return "selfplay: " + e.Dir + " is trained from workers' games: resume it with --selfplay=false"
	}
	return "selfplay: " + e.Dir + " plays its own games: resume it without --selfplay=false"
}

// Validate reports the first invalid setting.
func (c Config) Validate() error {
	if c.MultiBoard() {
		if err := c.validateBoards(); err != nil {
			return err
		}
	} else if err := c.Game.Validate(); err != nil {
		return err
	}
	switch {
	case c.MultiBoard():
	case c.Game.Size != c.Size || c.Net.Size != c.Size:
		return fmt.Errorf("selfplay: board sizes disagree (run %d, game %d, net %d)", c.Size, c.Game.Size, c.Net.Size)
	case c.GamesPerGen < 1:
		return fmt.Errorf("selfplay: games per generation %d: want ≥ 1", c.GamesPerGen)
	case c.ReuseRatio <= 0:
		return fmt.Errorf("selfplay: reuse ratio %g: want > 0", c.ReuseRatio)
	case c.MinWindow < 1 || c.MaxWindow < c.MinWindow:
		return fmt.Errorf("selfplay: replay window %d..%d: want 1 ≤ min ≤ max", c.MinWindow, c.MaxWindow)
	case c.Parallel < 1:
		return fmt.Errorf("selfplay: parallel games %d: want ≥ 1", c.Parallel)
	case c.EvalBatch < 1:
		return fmt.Errorf("selfplay: evaluator batch %d: want ≥ 1", c.EvalBatch)
	case c.CacheSize < 0:
		return fmt.Errorf("selfplay: cache size %d: want ≥ 0 (0: no cache)", c.CacheSize)
	case c.Generations < 0 || c.Duration < 0:
		return errors.New("selfplay: generations and duration must not be negative")
	case c.CPUBudget < 0:
		return fmt.Errorf("selfplay: CPU budget %v: want ≥ 0 (0: no limit)", c.CPUBudget)
	case c.RunID != "" && !runfiles.ValidRunID(c.RunID):
		return fmt.Errorf("selfplay: run_id %q: not a run identity (32 hex digits)", c.RunID)
	case c.Backend != "" && c.Backend != net.BackendFloat32 && c.Backend != net.BackendBF16:
		return fmt.Errorf("selfplay: backend %q: want %s or %s", c.Backend, net.BackendFloat32, net.BackendBF16)
	}
	if err := c.Net.Validate(); err != nil {
		return err
	}
	if err := c.Train.Validate(); err != nil {
		return err
	}
	if err := c.Schedule.Validate(); err != nil {
		return err
	}
	for _, st := range c.Schedule {
		for _, b := range c.BoardList() {
			g := c.at(st.From).Game
			if c.MultiBoard() {
				g = c.at(st.From).BoardGame(b)
			}
			if err := g.Validate(); err != nil {
				return fmt.Errorf("%w (schedule stage from generation %d)", err, st.From)
			}
		}
	}
	return c.Gate.Validate()
}

// identity is the part of a config that a resumed run must keep.
func (c Config) identity() Config {
	c.Parallel, c.EvalBatch, c.CacheSize, c.Generations, c.Duration, c.CPUBudget = 0, 0, 0, 0, 0, 0
	c.Init, c.InitModel = "", nil
	c.Games = "" // checked on its own (ModeError)
	c.RunID = "" // not a setting; checked on its own
	if c.Backend == "" {
		c.Backend = net.BackendFloat32 // a run made before the setting
	}
	return c
}

// configDiff lists the settings in which two configurations differ, as
// "seed: saved 1, given 5; ...", or returns "" when they agree.
func configDiff(saved, given Config) string {
	flat := func(c Config) map[string]string {
		b, _ := json.Marshal(c)
		var tree map[string]any
		json.Unmarshal(b, &tree)
		out := map[string]string{}
		var walk func(prefix string, v any)
		walk = func(prefix string, v any) {
			if m, ok := v.(map[string]any); ok {
				for k, x := range m {
					walk(strings.TrimPrefix(prefix+"."+k, "."), x)
				}
				return
			}
			j, _ := json.Marshal(v)
			out[prefix] = string(j)
		}
		walk("", tree)
		return out
	}
	a, b := flat(saved), flat(given)
	// A setting missing on one side (a field added since the run began, or
	// left out when zero) is its zero value.
	zero := map[string]bool{"": true, "0": true, "false": true, `""`: true, "null": true, "[]": true, "{}": true}
	show := func(v string) string {
		if v == "" {
			return "(not set)"
		}
		return v
	}
	var diffs []string
	for k := range a {
		if _, ok := b[k]; !ok {
			b[k] = ""
		}
	}
	for k, w := range b {
		v := a[k]
		if v != w && !(zero[v] && zero[w]) {
			diffs = append(diffs, fmt.Sprintf("%s: saved %s, given %s", k, show(v), show(w)))
		}
	}
	sort.Strings(diffs)
	return strings.Join(diffs, "; ")
}
