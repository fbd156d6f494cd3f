package player

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/konanezero/konane/mcts"
	"github.com/konanezero/konane/rules"
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

// Kind is one kind of player, as a Spec names it: its name, the settings
// it reads, what it does once they are read, and how to make its players.
// The kinds a spec may name are a Kinds list (DefaultKinds, or a package's
// own list that adds to it): adding a kind is adding one value there.
type Kind struct {
	Name string
	// Keys is every setting of the kind, in the order errors name them;
	// "name" is every kind's. The keys that Spec has a field for are read
	// into it; the others by Set.
	Keys []string
	// Set checks the value of a key that Spec has no field for and
	// returns the value that Spec.Settings keeps; its error says what was
	// wanted. Nil when the kind has no such key.
	Set func(key, value string) (string, error)
	// Finish, when set, gives a spec of the kind its defaults and checks
	// it, once all its settings are read.
	Finish func(*Spec) error
	// New makes a player of the spec for one game, seeded with seed; nil
	// for a kind whose players need more than their spec (a model player
	// needs its network: agent.NewFactory loads it).
	New func(s Spec, seed uint64) (Player, error)
	// Wide says that New's players are WidePlayers: they play the boards
	// above rules.MaxSize files or ranks too.
	Wide bool
}

// Kinds is the list of kinds a spec may name.
type Kinds []Kind

// DefaultKinds are this package's kinds. The model kind reads the keys
// of package player only (sims, time, name, file): package agent, which
// loads model players, extends it (agent.Kinds, agent.ParseSpec).
var DefaultKinds = Kinds{
	{Name: KindRandom, Keys: []string{"name"}, Wide: true, New: func(s Spec, seed uint64) (Player, error) {
		p := NewRandom(seed)
		p.name = s.Name
		return p, nil
	}},
	{Name: KindGreedy, Keys: []string{"name"}, Wide: true, New: func(s Spec, seed uint64) (Player, error) {
		p := NewGreedy(seed)
		p.name = s.Name
		return p, nil
	}},
	{Name: KindAlphaBeta, Keys: []string{"depth", "time", "name"}, Finish: defaultDepth, Wide: true, New: func(s Spec, seed uint64) (Player, error) {
		p := NewAlphaBeta(s.Depth, s.Time, seed)
		p.name = s.Name
		return p, nil
	}},
	{Name: KindPVS, Keys: []string{"depth", "time", "eval", "lmr", "maxstones", "deepen", "name"}, Finish: defaultDepth, Wide: true, New: newPVSPlayer},
	{Name: KindMCTS, Keys: []string{"sims", "time", "c", "name"}, New: func(s Spec, seed uint64) (Player, error) {
		p := NewUCT(s.Sims, s.Time, s.C, seed)
		p.name = s.Name
		return p, nil
	}},
	{Name: KindPerfect, Keys: []string{"maxstones", "name"}, New: func(s Spec, seed uint64) (Player, error) {
		p := NewPerfect(seed)
		p.name = s.Name
		if s.MaxStones > 0 {
			p.MaxStones = s.MaxStones
		}
		return p, nil
	}},
	{Name: KindModel, Keys: []string{"sims", "time", "name", "file"}, Finish: func(s *Spec) error {
		if s.Sims == 0 && s.Time == 0 {
			return errors.New("model needs sims=N or time=D")
		}
		return nil
	}},
}

// defaultDepth is the Finish of the alpha-beta kinds: DefaultDepth when
// neither depth nor time is set.
func defaultDepth(s *Spec) error {
	if s.Depth == 0 && s.Time == 0 {
		s.Depth = DefaultDepth
	}
	return nil
}

func newPVSPlayer(s Spec, seed uint64) (Player, error) {
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
	if s.MaxStones > 0 {
		p.SolveStones = s.MaxStones
	}
	if s.Deepen > 0 {
		p.Deepen = s.Deepen
	}
	return p, nil
}

// With returns the list with k in place of the kind of its name, or
// added at the end.
func (ks Kinds) With(k Kind) Kinds {
	out := append(Kinds(nil), ks...)
	for i := range out {
		if out[i].Name == k.Name {
			out[i] = k
			return out
		}
	}
	return append(out, k)
}

// kind returns the kind named name.
func (ks Kinds) kind(name string) (*Kind, bool) {
	for i := range ks {
		if ks[i].Name == name {
			return &ks[i], true
		}
	}
	return nil, false
}

func (ks Kinds) names() string {
	names := make([]string, len(ks))
	for i, k := range ks {
		names[i] = k.Name
	}
	return strings.Join(names, ", ")
}

// specFields are the keys that Spec has a field for: Spec.set reads them.
var specFields = []string{"name", "file", "depth", "time", "eval", "lmr", "sims", "c", "maxstones", "deepen"}

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
// spec text itself. The settings this package reads:
//
//	file=PATH  model: the model file (last: the rest of the spec is the path)
//	depth=N    alphabeta, pvs: search depth in plies (default 4 unless
//	           time is set)
//	time=D     alphabeta, pvs, mcts, model: time per move (Go duration:
//	           200ms, 1s)
//	eval=E     pvs: the evaluation, mob, full (the default) or weights
//	           M/S/P/T or M/S/P/T/J/R (see Weights)
//	lmr=on|off pvs: late move reductions (default on)
//	sims=N     mcts, model: simulations per move
//	c=X        mcts: UCB1 exploration constant (default √2)
//	maxstones=N perfect: the most stones of a position above 5x5 it will
//	           solve (default 24; 4x4 and 5x5 are always solved); pvs:
//	           its SolveStones (default DefaultSolveStones, with a time
//	           limit DefaultTimedSolveStones)
//	deepen=P   pvs: no new iteration after P% of the time per move
//	           (default DefaultDeepen)
//
// A model spec needs sims or time. A package that reads other settings
// of a kind gives its own Kind value (Kinds.With): package agent, which
// loads model players, reads the model kind's level, solver and ptemp
// (agent.ParseSpec).
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
	// Deepen (pvs): Engine.Deepen; 0 = DefaultDeepen.
	Deepen int
	// Settings are the settings given of the keys that Spec has no field
	// for, by key, as the kind's Set returned them; nil when none was
	// given.
	Settings map[string]string
}

// ParseSpec reads a player spec of one of DefaultKinds (see Spec).
func ParseSpec(text string) (Spec, error) { return DefaultKinds.Parse(text) }

// Parse reads a player spec of one of the kinds (see Spec). Its errors
// name the spec and what is wrong with it: an unknown kind, an unknown or
// repeated setting, or a bad value.
func (ks Kinds) Parse(text string) (Spec, error) {
	s, err := ks.parse(strings.TrimSpace(text))
	if err != nil {
		return Spec{}, fmt.Errorf("player: spec %q: %w", text, err)
	}
	return s, nil
}

func (ks Kinds) parse(text string) (Spec, error) {
	if text == "" {
		return Spec{}, errors.New("empty (want kind[:key=value,...], like alphabeta:depth=4)")
	}
	name, rest, _ := strings.Cut(text, ":")
	name = strings.ToLower(strings.TrimSpace(name))
	k, ok := ks.kind(name)
	if !ok {
		return Spec{}, fmt.Errorf("unknown player kind %q (want one of %s)", name, ks.names())
	}
	s := Spec{Kind: name, Name: text}
	var items []string
	if rest != "" {
		items = strings.Split(rest, ",")
	}
	if contains(k.Keys, "file") {
		var err error
		if s.Model, items, err = modelFile(rest); err != nil {
			return Spec{}, err
		}
	}
	if err := s.readSettings(items, k); err != nil {
		return Spec{}, err
	}
	if k.Finish != nil {
		if err := k.Finish(&s); err != nil {
			return Spec{}, err
		}
	}
	return s, nil
}

// modelFile splits the settings of a model spec into its model file,
// first or as file=PATH last, and the other settings.
func modelFile(rest string) (model string, items []string, err error) {
	if i := fileSetting(rest); i >= 0 {
		// file=PATH, the last setting, takes the rest of the spec.
		rest, model = strings.TrimSuffix(strings.TrimRight(rest[:i], " "), ","), rest[i+len("file="):]
		if strings.TrimSpace(model) == "" {
			return "", nil, errors.New("setting file=\"\": want the model file")
		}
		if rest != "" {
			items = strings.Split(rest, ",")
		}
		if len(items) > 0 && !strings.Contains(items[0], "=") {
			return "", nil, fmt.Errorf("the model file is given twice: %q first and %q as file=", strings.TrimSpace(items[0]), model)
		}
		return model, items, nil
	}
	items = strings.Split(rest, ",")
	if strings.TrimSpace(items[0]) == "" || strings.Contains(items[0], "=") {
		return "", nil, errors.New("model needs a model file first, like model:models/gen3.safetensors,sims=200 (or last, for any path: model:sims=200,file=PATH)")
	}
	return strings.TrimSpace(items[0]), items[1:], nil
}

// readSettings reads the key=value items into s: each once, of the keys
// of s's kind k.
func (s *Spec) readSettings(items []string, k *Kind) error {
	keys := k.Keys
	seen := map[string]bool{}
	for _, item := range items {
		key, value, ok := strings.Cut(item, "=")
		key, value = strings.ToLower(strings.TrimSpace(key)), strings.TrimSpace(value)
		if !ok || key == "" {
			return fmt.Errorf("setting %q: want key=value", item)
		}
		if !contains(keys, key) {
			return fmt.Errorf("unknown setting %q for %s (want %s)", key, s.Kind, strings.Join(keys, ", "))
		}
		if seen[key] {
			return fmt.Errorf("setting %q given twice", key)
		}
		seen[key] = true
		if err := s.set(key, value, k); err != nil {
			return fmt.Errorf("setting %s=%q: %w", key, value, err)
		}
	}
	return nil
}

// set reads the setting key=value into s: into its field, or else by the
// kind's Set into s.Settings.
func (s *Spec) set(key, value string, k *Kind) error {
	if !contains(specFields, key) {
		if k.Set == nil {
			return fmt.Errorf("player: kind %s has no Set for its key %q", k.Name, key)
		}
		v, err := k.Set(key, value)
		if err != nil {
			return err
		}
		if s.Settings == nil {
			s.Settings = map[string]string{}
		}
		s.Settings[key] = v
		return nil
	}
	switch key {
	case "name":
		if value == "" {
			return errors.New("empty name")
		}
		s.Name = value
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
	case "deepen":
		n, err := strconv.Atoi(value)
		if err != nil || n < 1 || n > 100 {
			return errors.New("want a whole percentage 1..100")
		}
		s.Deepen = n
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
	newer  func(Spec, uint64) (Player, error) // the kind's New; nil for neural players
	wide   bool                               // the kind's Wide
	net    Network                            // the neural players' network; nil for the other kinds
	cfg    mcts.Config                        // the neural players' search settings
	limits Limits                             // the neural players' limits
}

// NewFactory is DefaultKinds.NewFactory.
func NewFactory(s Spec) (*Factory, error) { return DefaultKinds.NewFactory(s) }

// NewFactory checks the spec and returns the factory of its players, for
// every kind with a New: not for model, whose players need their network
// loaded, which agent.NewFactory does (then NewNeuralFactory). It starts
// no goroutine.
func (ks Kinds) NewFactory(s Spec) (*Factory, error) {
	k, ok := ks.kind(s.Kind)
	switch {
	case !ok:
		return nil, fmt.Errorf("player: unknown player kind %q", s.Kind)
	case k.New == nil:
		return nil, fmt.Errorf("player: %s: a %s player needs its network (agent.NewFactory loads it)", s.Name, s.Kind)
	}
	return &Factory{spec: s, newer: k.New, wide: k.Wide}, nil
}

// Name is the name of the factory's players.
func (f *Factory) Name() string { return f.spec.Name }

// CheckBoard reports whether the factory's players can play on board b:
// a network plays the one board of its inputs only (its Size, a shape
// code), the other kinds every board Position holds and, when they are
// WidePlayers (Kind.Wide), every board. The error names the boards they
// play.
func (f *Factory) CheckBoard(b rules.Board) error {
	if err := b.Validate(); err != nil {
		return fmt.Errorf("player: %s: %w", f.spec.Name, err)
	}
	if f.net != nil {
		if n := f.net.Size(); n != rules.ShapeCode(b.W, b.H) {
			w, h := rules.ShapeDims(n)
			return fmt.Errorf("player: %s: the model plays %dx%d, not %dx%d", f.spec.Name, w, h, b.W, b.H)
		}
		return nil
	}
	if !b.Narrow() && !f.wide {
		return fmt.Errorf("player: %s: a %s player plays boards of at most %d files and ranks, not %dx%d (pvs, alphabeta, greedy and random play every board)",
			f.spec.Name, f.spec.Kind, rules.MaxSize, b.W, b.H)
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
	if f.newer != nil {
		return f.newer(f.spec, seed)
	}
	return f.newNeural(seed)
}
