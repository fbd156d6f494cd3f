package ladder

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"github.com/konanezero/konane/internal/atomicfile"
	"github.com/konanezero/konane/player"
	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/runfiles"
)

// DefaultAnchors are the fixed players of a ladder: classic players whose
// strength does not drift, from no skill to the strongest classical
// engine (the PVS engine at a fixed depth, so that its strength does not
// depend on the machine's load, with its evaluation named, so that a new
// default evaluation does not change the anchor under the same name).
var DefaultAnchors = []string{"random", "greedy", "alphabeta:depth=2", "alphabeta:depth=4", "pvs:depth=8,eval=4/4/0/0/4/0"}

// Config says how to rate a run.
type Config struct {
	// Games is the number of games of each pairing (a generation against
	// a rung or an anchor, two anchors). Raising it later plays only the
	// games added; the games of pairing and index never change.
	Games int
	// Every rates the generations that are multiples of it.
	Every int
	// Rungs is how many of the previously rated generations each newly
	// rated generation plays.
	Rungs int
	// Sims is the simulations per move of the generations' players.
	Sims int
	// Anchors are the fixed players (player specs); Anchor names the one
	// rated 0 (default: the first).
	Anchors []player.Spec
	Anchor  string
	// Prior adds that many virtual draws to every pair (see arena.FitElo).
	Prior float64
	// Positions is the number of solver-labelled critical positions of
	// the solver check (boards up to MaxSolverSize; 0: no check).
	Positions int
	// RandomPlies after the opening removals of each game (arena.MatchConfig).
	RandomPlies int
	Seed        uint64
	// Parallel is the number of games played at once.
	Parallel int
	// Generations, when > 0, stops after rating that many generations in
	// this call (the rest wait for the next one).
	Generations int
	// Board is the board on which a multi-board run's generations are
	// rated (required for one, one of the boards of its list, squares or
	// rectangles; its ladder lives in DIR/ladder/WxH); the zero Board for
	// a single-board run, rated on its own board.
	Board rules.Board
}

// MaxSolverSize is the largest board of the solver check: the solver
// labels 6x6 positions in seconds, 7x7 would take hours.
const MaxSolverSize = 6

// DefaultConfig is the configuration of `konane ladder` without flags.
func DefaultConfig() Config {
	c := Config{Games: 20, Every: 1, Rungs: 3, Sims: 64, Prior: 1, Positions: 100, RandomPlies: 2, Seed: 1,
		Parallel: runtime.NumCPU()}
	for _, text := range DefaultAnchors {
		s, err := player.ParseSpec(text)
		if err != nil {
			panic(err) // the defaults are constants
		}
		c.Anchors = append(c.Anchors, s)
	}
	return c
}

// Validate reports the first invalid setting.
func (c Config) Validate() error {
	switch {
	case c.Games < 1 || c.Games > 10000:
		return fmt.Errorf("ladder: %d games per pairing: want 1..10000", c.Games)
	case c.Every < 1:
		return fmt.Errorf("ladder: every %d generations: want ≥ 1", c.Every)
	case c.Rungs < 0:
		return fmt.Errorf("ladder: %d rungs: want ≥ 0", c.Rungs)
	case c.Sims < 1:
		return fmt.Errorf("ladder: %d simulations: want ≥ 1", c.Sims)
	case len(c.Anchors) == 0:
		return errors.New("ladder: no anchor player")
	case c.Prior < 0:
		return fmt.Errorf("ladder: prior %g: want ≥ 0", c.Prior)
	case c.Positions < 0:
		return fmt.Errorf("ladder: %d solver positions: want ≥ 0", c.Positions)
	case c.RandomPlies < 0 || c.RandomPlies > rules.MaxSize*rules.MaxSize:
		return fmt.Errorf("ladder: %d random plies: want 0..%d", c.RandomPlies, rules.MaxSize*rules.MaxSize)
	case c.Parallel < 1:
		return fmt.Errorf("ladder: %d parallel games: want ≥ 1", c.Parallel)
	case c.Generations < 0:
		return fmt.Errorf("ladder: %d generations: want ≥ 0", c.Generations)
	}
	seen := map[string]string{}
	for _, a := range c.Anchors {
		if err := checkModelAnchor(a); err != nil {
			return err
		}
		if isGenerationName(a.Name) {
			return fmt.Errorf("ladder: anchor %s: the name is one of a generation's (give another with name=...)", a.Name)
		}
		key := fileName(a.Name)
		if other, dup := seen[key]; dup {
			return fmt.Errorf("ladder: anchors %q and %q have the same file name %q (give one another name with name=...)", other, a.Name, key)
		}
		seen[key] = a.Name
	}
	if c.anchorIndex() < 0 {
		return fmt.Errorf("ladder: --anchor %q is not one of the anchor players (%s)", c.Anchor, strings.Join(c.anchorNames(), ", "))
	}
	return nil
}

// checkModelAnchor refuses the settings a model anchor does not take: it
// searches as the generations do, with its sims= (a ptemp of 1 is that
// search's own).
func checkModelAnchor(a player.Spec) error {
	if a.Kind != player.KindModel {
		return nil
	}
	switch {
	case a.Sims < 1:
		return fmt.Errorf("ladder: anchor %s: a model anchor needs sims=N", a.Name)
	case a.Time != 0 || !onlyOwnPolicyTemp(a.Settings):
		return fmt.Errorf("ladder: anchor %s: a model anchor plays as the generations do, with sims=N only (no level, time, solver or ptemp)", a.Name)
	}
	return nil
}

// onlyOwnPolicyTemp reports whether the settings of a model spec that
// package agent reads (level, solver, ptemp) are at most a ptemp of 1,
// which the generations' search uses.
func onlyOwnPolicyTemp(settings map[string]string) bool {
	for k, v := range settings {
		if k != "ptemp" || v != "1" {
			return false
		}
	}
	return true
}

func (c Config) anchorNames() []string {
	var out []string
	for _, a := range c.Anchors {
		out = append(out, a.Name)
	}
	return out
}

// anchorIndex is the index of the anchor rated 0, or -1.
func (c Config) anchorIndex() int {
	if c.Anchor == "" {
		return 0
	}
	for i, a := range c.Anchors {
		if a.Name == c.Anchor {
			return i
		}
	}
	return -1
}

// AnchorName is the name of the player rated 0.
func (c Config) AnchorName() string { return c.Anchors[max(c.anchorIndex(), 0)].Name }

// settings are what the kept games and labels depend on: a later call must
// agree with them, or it would mix games of different players. The
// number of games, the rungs, the anchors and --every may change.
type settings struct {
	Size  int    `json:"size"`            // N of a square board N×N, 0 on a rectangle
	Board string `json:"board,omitempty"` // a rectangle, as rules.ParseBoard reads it; "" on a square

	Sims        int    `json:"sims"`
	RandomPlies int    `json:"random_plies"`
	Seed        uint64 `json:"seed"`
	Positions   int    `json:"solver_positions"`
}

// SettingsError says that a ladder directory was made with other settings.
type SettingsError struct {
	Path        string
	Saved, Want string // the differing settings, as "sims 64" lists
}

func (e *SettingsError) Error() string {
	return fmt.Sprintf("ladder: %s was made with %s, not %s; use those settings or move the ladder folder away", e.Path, e.Saved, e.Want)
}

// checkOrWriteSettings compares s with DIR/ladder/ladder.json, writing it
// if the ladder is new.
func checkOrWriteSettings(path string, s settings) error {
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		data, _ := json.MarshalIndent(s, "", "  ")
		return atomicfile.WriteFile(path, append(data, '\n'), 0o644)
	}
	if err != nil {
		return fmt.Errorf("ladder: %w", err)
	}
	var saved settings
	if err := json.Unmarshal(b, &saved); err != nil {
		return fmt.Errorf("ladder: %s is not a ladder's settings: %w", path, err)
	}
	if saved == s {
		return nil
	}
	var a, w []string
	diff := func(name string, x, y any) {
		if x != y {
			a, w = append(a, fmt.Sprintf("%s %v", name, x)), append(w, fmt.Sprintf("%s %v", name, y))
		}
	}
	diff("size", saved.Size, s.Size)
	diff("board", saved.Board, s.Board)
	diff("sims", saved.Sims, s.Sims)
	diff("random plies", saved.RandomPlies, s.RandomPlies)
	diff("seed", saved.Seed, s.Seed)
	diff("solver positions", saved.Positions, s.Positions)
	return &SettingsError{Path: filepath.Dir(path), Saved: strings.Join(a, ", "), Want: strings.Join(w, ", ")}
}

// fileName turns a player name into a file-name-safe word.
func fileName(name string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.' {
			return r
		}
		return '_'
	}, name)
}

func isGenerationName(name string) bool {
	_, ok := runfiles.ParseGenDir(name)
	return ok
}

func sortedKeys[V any](m map[int]V) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Ints(out)
	return out
}
