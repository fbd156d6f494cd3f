package player

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/konanezero/konane/mcts"
)

// Kinds of player a Spec can name.
const (
	KindRandom    = "random"
	KindGreedy    = "greedy"
	KindAlphaBeta = "alphabeta"
	KindPVS       = "pvs"
	KindMCTS      = "mcts"
	KindPerfect   = "perfect"
	KindModel     = "model"
)

// DefaultDepth is the depth of an alpha-beta spec that sets neither depth
// nor time.
const DefaultDepth = 4

// settings lists the keys each kind accepts, in the order help shows them.
var settings = map[string][]string{
	KindRandom:    {"name"},
	KindGreedy:    {"name"},
	KindAlphaBeta: {"depth", "time", "name"},
	KindPVS:       {"depth", "time", "eval", "lmr", "name"},
	KindMCTS:      {"sims", "time", "c", "name"},
	KindPerfect:   {"maxstones", "name"},
	KindModel:     {"level", "sims", "time", "solver", "ptemp", "name", "file"},
}

var kinds = []string{KindRandom, KindGreedy, KindAlphaBeta, KindPVS, KindMCTS, KindPerfect, KindModel}

// Spec names a player and its settings, as written on a command line:
//
//	kind[:key=value,key=value...]
//
// for example "random", "greedy", "alphabeta:depth=4", "alphabeta:time=200ms",
// "mcts:sims=2000", "perfect", "model:models/gen3.safetensors,sims=200".
// The model kind takes the model file first (a path without ',' or '='),
// then settings; or, for any path, the file as the last setting,
// file=PATH, whose value is the whole rest of the spec, commas and '='
// included: "model:sims=200,file=runs/a,b/gen3.safetensors". Every kind
// accepts name=LABEL, the name shown in results; the default name is the
// spec text itself. Settings:
//
//	file=PATH  model: the model file (last: the rest of the spec is the path)
//	depth=N    alphabeta, pvs: search depth in plies (default 4 unless
//	           time is set)
//	time=D     alphabeta, pvs, mcts, model: time per move (Go duration:
//	           200ms, 1s)
//	eval=E     pvs: the evaluation, mob, full (the default) or weights
//	           M/S/P/T or M/S/P/T/J/R (see Weights)
//	lmr=on|off pvs: late move reductions (default on)
//	level=L    model: a difficulty level (easy, medium, hard, max: see
//	           package agent), as play, serve and gtp offer it: its
//	           simulations, unless sims or time is given, and its use of
//	           the solver, unless solver is given
//	sims=N     mcts, model: simulations per move
//	solver=on|off model: search with MCTS-Solver and the exact endgame
//	           solver (on, the default but for level=easy) or plain MCTS
//	ptemp=T    model: the temperature of the network's priors in the
//	           search (mcts.Config.PolicyTemp; default the agent's for
//	           the model's size, agent.PolicyTemp; 1 uses them as they are)
//	c=X        mcts: UCB1 exploration constant (default √2)
//	maxstones=N perfect: the most stones of a position above 5x5 it will
//	           solve (default 24; 4x4 and 5x5 are always solved)
type Spec struct {
	Kind  string
	Name  string
	Model string        // model: the model file
	Depth int           // alphabeta, pvs: 0 = no depth limit
	Sims  int           // mcts, model: 0 = no count limit
	Time  time.Duration // alphabeta, pvs, mcts, model: 0 = no time limit
	// Eval (pvs): the evaluation, as ParseWeights reads it; "" =
	// EvalDefault.
	Eval string
	// NoLMR (pvs): search without late move reductions.
	NoLMR bool
	C     float64 // mcts: 0 = DefaultUCTC
	// MaxStones (perfect): the most stones of a position above 5x5 that
	// the player will solve; 0 = solver.DefaultMaxStones.
	MaxStones int
	// Level (model): a level name, resolved by agent.NewFactory; "" = none.
	Level string
	// Solver (model): "on", "off", or "" for the level's choice (else on).
	Solver string
	// PolicyTemp (model): the temperature of the priors in the search;
	// 0 = the agent's for the model's size (agent.PolicyTemp).
	PolicyTemp float64
}

// ParseSpec reads a player spec (see Spec). Its errors name the spec and
// what is wrong with it: an unknown kind, an unknown or repeated setting,
// or a bad value.
func ParseSpec(text string) (Spec, error) {
	s, err := parseSpec(strings.TrimSpace(text))
	if err != nil {
		return Spec{}, fmt.Errorf("player: spec %q: %w", text, err)
	}
	return s, nil
}

func parseSpec(text string) (Spec, error) {
	if text == "" {
		return Spec{}, errors.New("empty (want kind[:key=value,...], like alphabeta:depth=4)")
	}
	kind, rest, _ := strings.Cut(text, ":")
	kind = strings.ToLower(strings.TrimSpace(kind))
	keys, ok := settings[kind]
	if !ok {
		return Spec{}, fmt.Errorf("unknown player kind %q (want one of %s)", kind, strings.Join(kinds, ", "))
	}
	s := Spec{Kind: kind, Name: text}
	fileLast := false
	if i := fileSetting(rest); kind == KindModel && i >= 0 {
		// file=PATH, the last setting, takes the rest of the spec.
		rest, s.Model = strings.TrimSuffix(strings.TrimRight(rest[:i], " "), ","), rest[i+len("file="):]
		if strings.TrimSpace(s.Model) == "" {
			return Spec{}, errors.New("setting file=\"\": want the model file")
		}
		fileLast = true
	}
	var items []string
	if rest != "" || kind == KindModel && !fileLast {
		items = strings.Split(rest, ",")
	}
	if kind == KindModel && !fileLast {
		if strings.TrimSpace(items[0]) == "" || strings.Contains(items[0], "=") {
			return Spec{}, errors.New("model needs a model file first, like model:models/gen3.safetensors,sims=200 (or last, for any path: model:sims=200,file=PATH)")
		}
		s.Model = strings.TrimSpace(items[0])
		items = items[1:]
	}
	if fileLast && len(items) > 0 && !strings.Contains(items[0], "=") {
		return Spec{}, fmt.Errorf("the model file is given twice: %q first and %q as file=", strings.TrimSpace(items[0]), s.Model)
	}
	seen := map[string]bool{}
	for _, item := range items {
		key, value, ok := strings.Cut(item, "=")
		key, value = strings.ToLower(strings.TrimSpace(key)), strings.TrimSpace(value)
		if !ok || key == "" {
			return Spec{}, fmt.Errorf("setting %q: want key=value", item)
		}
		if !contains(keys, key) {
			return Spec{}, fmt.Errorf("unknown setting %q for %s (want %s)", key, kind, strings.Join(keys, ", "))
		}
		if seen[key] {
			return Spec{}, fmt.Errorf("setting %q given twice", key)
		}
		seen[key] = true
		if err := s.set(key, value); err != nil {
			return Spec{}, fmt.Errorf("setting %s=%q: %w", key, value, err)
		}
	}
	if (kind == KindAlphaBeta || kind == KindPVS) && s.Depth == 0 && s.Time == 0 {
		s.Depth = DefaultDepth
	}
	if kind == KindModel && s.Sims == 0 && s.Time == 0 && s.Level == "" {
		return Spec{}, errors.New("model needs level=L, sims=N or time=D")
	}
	return s, nil
}

func (s *Spec) set(key, value string) error {
	switch key {
	case "name":
		if value == "" {
			return errors.New("empty name")
		}
		s.Name = value
	case "level":
		if value == "" {
			return errors.New("empty level")
		}
		s.Level = strings.ToLower(value)
	case "solver":
		v := strings.ToLower(value)
		if v != "on" && v != "off" {
			return errors.New("want on or off")
		}
		s.Solver = v
	case "eval":
		if _, err := ParseWeights(value); err != nil {
			return err
		}
		s.Eval = value
	case "lmr":
		v := strings.ToLower(value)
		if v != "on" && v != "off" {
			return errors.New("want on or off")
		}
		s.NoLMR = v == "off"
	case "depth":
		n, err := strconv.Atoi(value)
		if err != nil || n < 1 || n > maxPly {
			return fmt.Errorf("want a whole number of plies 1..%d", maxPly)
		}
		s.Depth = n
	case "sims":
		n, err := strconv.Atoi(value)
		if err != nil || n < 1 {
			return errors.New("want a whole number ≥ 1")
		}
		s.Sims = n
	case "time":
		d, err := time.ParseDuration(value)
		if err != nil || d <= 0 {
			return errors.New("want a positive duration like 200ms or 1s")
		}
		s.Time = d
	case "maxstones":
		n, err := strconv.Atoi(value)
		if err != nil || n < 2 || n > 64 {
			return errors.New("want a whole number of stones 2..64")
		}
		s.MaxStones = n
	case "ptemp":
		x, err := strconv.ParseFloat(value, 64)
		if err != nil || !(x >= mcts.MinPolicyTemp && x <= mcts.MaxPolicyTemp) {
			return fmt.Errorf("want a number in [%v, %v]", mcts.MinPolicyTemp, mcts.MaxPolicyTemp)
		}
		s.PolicyTemp = x
	case "c":
		x, err := strconv.ParseFloat(value, 64)
		if err != nil || !(x > 0) || x > 100 {
			return errors.New("want a number in (0, 100]")
		}
		s.C = x
	}
	return nil
}

// fileSetting returns where the file= setting starts in the settings of a
// model spec (at the start or after a comma; the first one), or -1.
func fileSetting(rest string) int {
	lower := strings.ToLower(rest)
	for i := 0; i < len(lower); i++ {
		if (i == 0 || lower[i-1] == ',') && strings.HasPrefix(strings.TrimLeft(lower[i:], " "), "file=") {
			return i + strings.Index(lower[i:], "file=")
		}
	}
	return -1
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Factory makes the players of one Spec, a fresh one per game (players
// keep per-game state and are not safe for concurrent use), so that
// parallel games share nothing mutable; the neural players of one factory
// share one Network, which is.
//
// A factory of neural players (NewNeuralFactory) needs Run to be running
// while its players move (Run runs the network's evaluator); for the other
// kinds Run returns at once.
type Factory struct {
	spec   Spec
	net    Network     // the neural players' network; nil for the other kinds
	cfg    mcts.Config // the neural players' search settings
	limits Limits      // the neural players' limits
}

// NewFactory checks the spec and returns the factory of its players, for
// every kind but model: a model player needs its network loaded, which
// agent.NewFactory does (then NewNeuralFactory). It starts no goroutine.
func NewFactory(s Spec) (*Factory, error) {
	switch s.Kind {
	case KindRandom, KindGreedy, KindAlphaBeta, KindPVS, KindMCTS, KindPerfect:
		return &Factory{spec: s}, nil
	case KindModel:
		return nil, fmt.Errorf("player: %s: a model player needs its network (agent.NewFactory loads it)", s.Name)
	}
	return nil, fmt.Errorf("player: unknown player kind %q", s.Kind)
}

// Name is the name of the factory's players.
func (f *Factory) Name() string { return f.spec.Name }

// CheckSize reports whether the factory's players can play on a
// size×size board (a network plays the size it was trained for only).
func (f *Factory) CheckSize(size int) error {
	if f.net == nil {
		return nil
	}
	if n := f.net.Size(); n != size {
		return fmt.Errorf("player: %s: the model plays %dx%d, not %dx%d", f.spec.Name, n, n, size, size)
	}
	return nil
}

// Run runs what the factory's players share (the network's evaluator of
// neural players) until ctx ends, and returns nil then; it may be called
// once. For the other kinds it returns nil at once.
func (f *Factory) Run(ctx context.Context) error {
	if f.net == nil {
		return nil
	}
	return f.net.Run(ctx)
}

// New makes a player for one game, seeded with seed.
func (f *Factory) New(seed uint64) (Player, error) {
	s := f.spec
	switch s.Kind {
	case KindRandom:
		p := NewRandom(seed)
		p.name = s.Name
		return p, nil
	case KindGreedy:
		p := NewGreedy(seed)
		p.name = s.Name
		return p, nil
	case KindAlphaBeta:
		p := NewAlphaBeta(s.Depth, s.Time, seed)
		p.name = s.Name
		return p, nil
	case KindPVS:
		p := NewPVS(s.Depth, s.Time, seed)
		p.name = s.Name
		if s.Eval != "" {
			w, err := ParseWeights(s.Eval)
			if err != nil {
				return nil, fmt.Errorf("player: %s: eval=%s: %w", s.Name, s.Eval, err)
			}
			p.Eval = w
		}
		p.LMR = !s.NoLMR
		return p, nil
	case KindMCTS:
		p := NewUCT(s.Sims, s.Time, s.C, seed)
		p.name = s.Name
		return p, nil
	case KindPerfect:
		p := NewPerfect(seed)
		p.name = s.Name
		if s.MaxStones > 0 {
			p.MaxStones = s.MaxStones
		}
		return p, nil
	}
	return f.newNeural(seed)
}
