package agent

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/konanezero/konane/mcts"
	"github.com/konanezero/konane/models"
	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/player"
	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/runfiles"
)

// evalOptions suit interactive play and matches (see net.PlayEvalOptions).
var evalOptions = net.PlayEvalOptions()

// Engine is one model ready to play: the model and its batched evaluator,
// shared by every game and player of that board size. It is the one place
// where a model gets an evaluator for play (self-play keeps its own, whose
// weights training updates). Run must be running while its agents and
// players think.
//
// On boards of at most MaxSolverSize the engine is the exact solver's
// (NewSolverEngine): no model, no evaluator, and agents that play
// perfectly.
type Engine struct {
	size  int
	board rules.Board    // the board played: the shape's with its default start, or OpenBoardEngine's
	model *net.Model     // nil: the exact solver's engine
	eval  *net.Evaluator // nil with model
}

// NewEngine compiles the model's evaluator. It starts no goroutine: call
// Run.
//
// A multi-board model must have been given its board (net.Model.ForBoard,
// as LoadModel does); the engine plays that board.
func NewEngine(m *net.Model) (*Engine, error) {
	ev, err := net.NewEvaluator(m, evalOptions)
	if err != nil {
		return nil, fmt.Errorf("agent: %w", err)
	}
	w, h := rules.ShapeDims(m.Shape())
	return &Engine{size: m.Shape(), board: rules.Board{W: w, H: h, Start: rules.DefaultStart(w, h)}, model: m, eval: ev}, nil
}

// Note is "" when the engine's network was trained on its board, else
// the one line that says it was not (net.Model.BoardNote), for the
// commands to show; "" for the solver's engine.
func (e *Engine) Note() string { return e.NoteOn(e.board) }

// NoteOn is Note for a game on board b, which may have another start
// than the engine's own (Engines.GetBoard makes one engine per shape,
// for both starts): a network trained on 7x6 from the gap says it was
// not trained on 7x6 with the removals.
func (e *Engine) NoteOn(b rules.Board) string {
	if e.model == nil {
		return ""
	}
	return e.model.BoardNote(b)
}

// OpenEngine loads the model file path (see LoadModel) and returns its
// engine; with no path, on a board of at most MaxSolverSize, the exact
// solver's engine.
func OpenEngine(path string, size int) (*Engine, error) {
	if path == "" && Perfect(size) {
		return NewSolverEngine(size)
	}
	m, err := LoadModel(path, size)
	if err != nil {
		return nil, err
	}
	return NewEngine(m)
}

// OpenBoardEngine is OpenEngine on board b: a square of at most
// rules.MaxSize files (OpenEngine with its size); with no path, a board
// the shipped table gives a network (models.Shipped); with path, a
// rectangle of at most rules.MaxSize files and ranks, which the network
// of a multi-board model file plays (net.LoadForBoard; Note says when it
// was not trained there), or a board above 8x8, which it plays only when
// it was trained there (WideTrained; its players are
// player.WidePlayers). Another board, and any board but its own for a
// single-board model file: an error wrapping net.ErrSize (the classical
// engine plays there).
func OpenBoardEngine(path string, b rules.Board) (*Engine, error) {
	if b.Square() && b.Narrow() {
		return OpenEngine(path, b.W)
	}
	var m *net.Model
	var err error
	switch {
	case path == "" && !models.Shipped().Plays(b):
		return nil, fmt.Errorf("agent: %w: no shipped model plays %s", net.ErrSize, b)
	case path == "":
		m, err = models.Shipped().For(b)
	default:
		m, err = net.LoadForBoard(path, b)
	}
	if err != nil {
		return nil, modelFileError(path, err)
	}
	if !WideTrained(m, b) {
		return nil, fmt.Errorf("agent: %w: model %s was not trained on %s (it was on %s): a network plays a board above 8x8 only when trained there",
			net.ErrSize, path, b, net.BoardList(m.Boards()))
	}
	e, err := NewEngine(m)
	if err != nil {
		return nil, err
	}
	e.board = b // its start too: a network trained on 7x6 (the gap) was not on 7x6/removal
	return e, nil
}

// WideTrained reports whether model m may play board b: every board of
// at most rules.MaxSize files and ranks (trained there or not, as Note
// says), and a board above 8x8 only when m was trained on its shape,
// with either start (a start other than the trained one is played with
// Note saying so, as on the boards up to 8x8). An untrained network
// there is left to the classical engine, which plays every board.
func WideTrained(m *net.Model, b rules.Board) bool {
	if b.Narrow() {
		return true
	}
	for _, t := range m.Boards() {
		if t.W == b.W && t.H == b.H {
			return true
		}
	}
	return false
}

// Size is the board size the model plays.
func (e *Engine) Size() int { return e.size }

// Model returns the engine's model (nil for the exact solver's engine).
func (e *Engine) Model() *net.Model { return e.model }

// Run runs the evaluator until ctx ends (see net.Evaluator.Run); the
// exact solver's engine has none and just waits.
func (e *Engine) Run(ctx context.Context) error {
	if e.eval == nil {
		<-ctx.Done()
		return nil
	}
	return e.eval.Run(ctx)
}

// Stats returns what the engine's evaluator has done so far (positions,
// network runs and so the mean batch); zero for the exact solver's.
func (e *Engine) Stats() net.EvalStats {
	if e.eval == nil {
		return net.EvalStats{}
	}
	return e.eval.Stats()
}

// Evaluate implements mcts.Evaluator with the model's evaluator, so that
// an Engine is a player.Network. The exact solver's engine has no
// network: an error.
func (e *Engine) Evaluate(ctx context.Context, ps []rules.Position) ([]mcts.Prediction, error) {
	if e.eval == nil {
		return nil, fmt.Errorf("agent: the %dx%d engine is the exact solver: no network to evaluate with", e.size, e.size)
	}
	return e.eval.Evaluate(ctx, ps)
}

// EvaluateWide implements mcts.WideEvaluator with the model's evaluator
// (net.Evaluator.EvaluateWide), for the boards above 8x8, so that a
// neural player of the engine plays them (player.Neural.MoveWide).
func (e *Engine) EvaluateWide(ctx context.Context, ps []rules.WidePosition) ([]mcts.Prediction, error) {
	if e.eval == nil {
		return nil, fmt.Errorf("agent: the %dx%d engine is the exact solver: no network to evaluate with", e.size, e.size)
	}
	return e.eval.EvaluateWide(ctx, ps)
}

// NewAgent returns an agent for one game, seeded with seed.
func (e *Engine) NewAgent(seed uint64) (*Agent, error) {
	rng := rand.New(rand.NewPCG(seed, 0x63686f6f)) // "choo"
	if e.model == nil {
		return &Agent{size: e.size, perfect: true, rng: rng,
			play:   solverSearch{player.NewPerfect(seed)},
			advise: solverSearch{player.NewPerfect(seed ^ 0x61647669)}}, nil
	}
	newNeural := func(stream uint64) (*player.Neural, error) {
		// The limits are those of each call (Agent.Move, Agent.Advise).
		n, err := player.NewNeural(e, SearchConfig(e.Size()), player.Limits{Sims: levels[0].Sims}, seed^stream)
		if err != nil {
			return nil, fmt.Errorf("agent: %w", err)
		}
		return n, nil
	}
	play, err := newNeural(0)
	if err != nil {
		return nil, err
	}
	advise, err := newNeural(0x61647669) // "advi"
	if err != nil {
		return nil, err
	}
	return &Agent{size: e.Size(), play: play, advise: advise, rng: rng}, nil
}

// Players returns a factory of players named name that search with the
// engine and the search settings cfg (SearchConfig for the agent as play,
// serve and gtp offer it) within s per move and pick their moves as s's
// Choice says (as Agent.Move does), for matches (arena.Entrant): the
// factory's Run runs the engine.
func (e *Engine) Players(name string, cfg mcts.Config, s player.Limits) (*player.Factory, error) {
	if e.model == nil {
		if s.Noise == 0 {
			return player.NewFactory(player.Spec{Kind: player.KindPerfect, Name: name})
		}
		// A weak level's slips: the agent's players.
		kinds := player.Kinds{{Name: player.KindPerfect, Keys: []string{"name"}, New: func(_ player.Spec, seed uint64) (player.Player, error) {
			a, err := e.NewAgent(seed)
			return &agentPlayer{name: name, a: a, s: s}, err
		}}}
		return kinds.NewFactory(player.Spec{Kind: player.KindPerfect, Name: name})
	}
	f, err := player.NewNeuralFactory(name, e, cfg, s)
	if err != nil {
		return nil, fmt.Errorf("agent: %w", err)
	}
	return f, nil
}

// agentPlayer is an Agent as a player.Player: its moves within s.
type agentPlayer struct {
	name string
	a    *Agent
	s    player.Limits
}

func (p *agentPlayer) Name() string { return p.name }

func (p *agentPlayer) Move(ctx context.Context, pos rules.Position) (rules.Move, error) {
	an, err := p.a.Move(ctx, pos, p.s)
	return an.Best, err
}

// NewFactory returns the factory of a player spec's players: for a model
// spec its model file loaded into an engine (the factory's Run runs it),
// for the other kinds Kinds.NewFactory's.
func NewFactory(s player.Spec) (*player.Factory, error) {
	if s.Kind != player.KindModel {
		return Kinds.NewFactory(s)
	}
	strength, err := specLimits(s)
	if err != nil {
		return nil, fmt.Errorf("agent: %s: %w", s.Name, err)
	}
	var e *Engine
	if b, ok := specBoard(s); ok {
		e, err = OpenBoardEngine(s.Model, b)
	} else {
		e, err = OpenEngine(s.Model, 0)
	}
	if err != nil {
		return nil, fmt.Errorf("agent: %s: %w", s.Name, err)
	}
	cfg := SearchConfig(e.Size())
	if t := specPolicyTemp(s); t > 0 {
		cfg.PolicyTemp = t
	}
	return e.Players(s.Name, cfg, strength)
}

// specLimits is the strength of a model spec: its level's (when it
// names one; sims and time replace the level's simulations, as
// NewLimits does), with the solver as the level says unless solver=
// says otherwise.
func specLimits(s player.Spec) (player.Limits, error) {
	st := player.Limits{Sims: s.Sims, Time: s.Time}
	if level := s.Settings[settingLevel]; level != "" {
		var err error
		if st, err = NewLimits(level, s.Sims, s.Time); err != nil {
			return player.Limits{}, err
		}
	}
	switch s.Settings[settingSolver] {
	case "on":
		st.NoSolver = false
	case "off":
		st.NoSolver = true
	}
	return st, st.Validate()
}

// LoadModel returns the model a command plays with: the file path when
// it is set (then size, unless 0, must be the model's; a multi-board
// model plays size×size, 8x8 for size 0, trained there or not: see
// Engine.Note), else the shipped network of the size×size board
// (models.Shipped).
func LoadModel(path string, size int) (*net.Model, error) {
	var m *net.Model
	var err error
	switch {
	case path == "":
		m, err = models.Shipped().For(rules.SquareBoard(size))
	case size == 0:
		if m, err = net.Load(path); err == nil && m.Config().MultiBoard() {
			m, err = m.ForBoard(rules.SquareBoard(rules.DefaultSize))
		}
	default:
		m, err = net.LoadForSize(path, size)
	}
	if err != nil {
		return nil, modelFileError(path, err)
	}
	return m, nil
}

// modelFileError is the error of loading the model file path (err,
// prefixed), or, when path is one of a training run's pointers to its
// newest model (runfiles.PointedModel: models/latest, where a model
// file was wanted), the one line that says so and names the file to
// give.
func modelFileError(path string, err error) error {
	if path != "" && errors.Is(err, net.ErrFormat) {
		if perr := runfiles.PointerError(path); perr != nil {
			return fmt.Errorf("agent: %w", perr)
		}
	}
	return fmt.Errorf("agent: %w", err)
}

// Engines holds one engine per square board of up to rules.MaxSize
// files that has a network or the exact solver, made at the start, and
// one per other board a network plays (a rectangle, a board above 8x8),
// made on the first GetBoard of that board (an evaluator each: most are
// never asked for). It is safe for concurrent use.
type Engines struct {
	mu     sync.Mutex
	bySize map[int]*Engine // by shape code (rules.ShapeCode): N on N×N
	sizes  []int           // the square boards, made at the start
	// others gives the networks of the other boards; nil for none.
	others boardModels
	// run and group are Run's while it runs: an engine made then runs in
	// group until run ends.
	run   context.Context
	group *errgroup.Group
}

// boardModels is where Engines finds the network of a board other than
// the squares made at the start: a multi-board model file's (fileModels)
// or the shipped table's (setModels).
type boardModels interface {
	// plays reports whether a network plays b.
	plays(b rules.Board) bool
	// model returns the network of b, given b (net.Model.ForBoard); b is
	// one plays accepts.
	model(b rules.Board) (*net.Model, error)
	// wide lists the boards above 8x8 a network plays.
	wide() []rules.Board
}

// wideOf is the boards of bs above 8x8.
func wideOf(bs []rules.Board) []rules.Board {
	var out []rules.Board
	for _, b := range bs {
		if !b.Narrow() {
			out = append(out, b)
		}
	}
	return out
}

// fileModels are the boards of a multi-board model file: every
// rectangle of at most rules.MaxSize files and ranks, trained there or
// not, and the boards above 8x8 it was trained on (WideTrained), with
// either start.
type fileModels struct{ m *net.Model }

func (f fileModels) plays(b rules.Board) bool                { return WideTrained(f.m, b) }
func (f fileModels) model(b rules.Board) (*net.Model, error) { return f.m.ForBoard(b) }
func (f fileModels) wide() []rules.Board                     { return wideOf(f.m.Boards()) }

// setModels are the boards of a table of networks (models.Set): exactly
// its rows, each start apart.
type setModels struct{ s *models.Set }

func (s setModels) plays(b rules.Board) bool                { return s.s.Plays(b) }
func (s setModels) model(b rules.Board) (*net.Model, error) { return s.s.For(b) }
func (s setModels) wide() []rules.Board                     { return wideOf(s.s.Boards()) }

// OpenEngines loads the model file path, giving engines for its size
// only (for a multi-board model every square board of up to 8x8, and
// the rectangles and the boards above 8x8 it was trained on on their
// first GetBoard), or, when path is "", the engines of the shipped
// networks (EnginesOf(models.Shipped())). It starts no goroutine: call
// Run.
func OpenEngines(path string) (*Engines, error) {
	if path == "" {
		return EnginesOf(models.Shipped())
	}
	m, err := net.Load(path)
	if err != nil {
		return nil, modelFileError(path, err)
	}
	if !m.Config().MultiBoard() {
		return NewEngines(m)
	}
	// A multi-board model plays every square board: an engine each.
	var ms []*net.Model
	for n := rules.MinSize; n <= rules.MaxSize; n++ {
		mb, err := m.ForBoard(rules.SquareBoard(n))
		if err != nil {
			return nil, fmt.Errorf("agent: %w", err)
		}
		ms = append(ms, mb)
	}
	es, err := NewEngines(ms...)
	if err != nil {
		return nil, err
	}
	es.others = fileModels{m}
	return es, nil
}

// EnginesOf returns the engines of the boards of a table of networks
// (models.Shipped() for the shipped ones): its networks play exactly its
// boards (a square's engine made now, the others' on their first
// GetBoard), the exact solver the squares up to MaxSolverSize (a row
// there is an error: the solver plays perfectly), and the classical
// engine every other board. It starts no goroutine: call Run.
func EnginesOf(set *models.Set) (*Engines, error) {
	var ms []*net.Model
	for _, b := range set.Boards() {
		if !b.Square() || !b.Narrow() {
			continue
		}
		if Perfect(b.W) {
			return nil, fmt.Errorf("agent: the table of networks lists %s, which the exact solver plays", b)
		}
		m, err := set.For(b)
		if err != nil {
			return nil, fmt.Errorf("agent: %w", err)
		}
		ms = append(ms, m)
	}
	es, err := newEngines(ms)
	if err != nil {
		return nil, err
	}
	es.others = setModels{set}
	for n := rules.MinSize; n <= MaxSolverSize; n++ {
		es.bySize[n], _ = NewSolverEngine(n)
		es.sizes = append(es.sizes, n)
	}
	slices.Sort(es.sizes)
	return es, nil
}

// NewEngines makes an engine of each model; two models of one size are
// an error, and so is none.
func NewEngines(ms ...*net.Model) (*Engines, error) {
	if len(ms) == 0 {
		return nil, fmt.Errorf("agent: no model")
	}
	return newEngines(ms)
}

// newEngines is NewEngines, with no model allowed.
func newEngines(ms []*net.Model) (*Engines, error) {
	es := &Engines{bySize: map[int]*Engine{}}
	for _, m := range ms {
		n := m.Shape()
		if es.bySize[n] != nil {
			return nil, fmt.Errorf("agent: two models for %dx%d", n, n)
		}
		e, err := NewEngine(m)
		if err != nil {
			return nil, err
		}
		es.bySize[n] = e
		es.sizes = append(es.sizes, n)
	}
	slices.Sort(es.sizes)
	return es, nil
}

// Sizes returns the square board sizes that have an engine, in
// increasing order.
func (es *Engines) Sizes() []int { return slices.Clone(es.sizes) }

// SizeList is Sizes written for people: "6x6, 8x8".
func (es *Engines) SizeList() string { return rules.SizeList(es.sizes) }

// Get returns the engine of size×size boards, or a *NoModelError. size
// is a shape code (rules.ShapeCode, a Position's Size): a rectangle's
// engine, once GetBoard has made it, is found by its code too.
func (es *Engines) Get(size int) (*Engine, error) {
	es.mu.Lock()
	defer es.mu.Unlock()
	if e := es.bySize[size]; e != nil {
		return e, nil
	}
	return nil, &NoModelError{Size: size, Sizes: es.Sizes()}
}

// GetBoard returns the engine of board b: Get's on a square board of at
// most rules.MaxSize files; on another board, the network's that plays
// it (with a multi-board model file, every rectangle up to 8x8, Note
// saying when it was not trained there, and the boards above 8x8 it was
// trained on: WideTrained; with the shipped networks, the boards of
// their table), made on the first call and run while Run runs (its
// agents play a board above 8x8 with Agent.MoveAny). Otherwise a
// *NoModelError (the classical engine plays).
func (es *Engines) GetBoard(b rules.Board) (*Engine, error) {
	es.mu.Lock()
	defer es.mu.Unlock()
	e, more := es.find(b)
	switch {
	case e != nil:
		return e, nil
	case !more && b.Square() && b.Narrow():
		return nil, &NoModelError{Size: b.W, Sizes: es.Sizes()}
	case !more && es.others != nil:
		return nil, &NoModelError{Board: b, Sizes: es.Sizes(), Wide: es.others.wide()}
	case !more:
		return nil, &NoModelError{Board: b, Sizes: es.Sizes()}
	}
	m, err := es.others.model(b)
	if err != nil {
		return nil, fmt.Errorf("agent: %w", err)
	}
	e, err = NewEngine(m)
	if err != nil {
		return nil, err
	}
	es.bySize[rules.ShapeCode(b.W, b.H)] = e
	if es.run != nil && es.run.Err() == nil {
		es.group.Go(func() error { return e.Run(es.run) })
	}
	return e, nil
}

// find is GetBoard's look-up, es.mu held: the engine of b, or else
// whether es.others has a network of b whose engine GetBoard makes, or
// neither (the classical engine plays b).
func (es *Engines) find(b rules.Board) (e *Engine, more bool) {
	if b.Square() && b.Narrow() {
		return es.bySize[b.W], false
	}
	if es.others == nil || !es.others.plays(b) {
		return nil, false
	}
	if e := es.bySize[rules.ShapeCode(b.W, b.H)]; e != nil {
		return e, false
	}
	return nil, true
}

// Who plays a board, as Engines.PlayerOn says.
const (
	PlayerSolver    = "solver"    // the exact solver (4x4 and 5x5 without a model)
	PlayerNetwork   = "network"   // a model's network
	PlayerClassical = "classical" // no engine: the classical engine plays
)

// PlayerOn says who plays board b with these engines, as GetBoard gives
// it, without making an engine: PlayerSolver, PlayerNetwork with its
// engine's note on b (Engine.NoteOn: "" where the network was trained on
// b), or PlayerClassical (GetBoard's *NoModelError).
func (es *Engines) PlayerOn(b rules.Board) (who, note string) {
	es.mu.Lock()
	e, more := es.find(b)
	es.mu.Unlock()
	switch {
	case e != nil && e.model == nil:
		return PlayerSolver, ""
	case e != nil:
		return PlayerNetwork, e.NoteOn(b)
	case more:
		m, err := es.others.model(b)
		if err != nil {
			return PlayerNetwork, err.Error() // GetBoard fails alike
		}
		return PlayerNetwork, m.BoardNote(b)
	}
	return PlayerClassical, ""
}

// NoModelError is the error of Engines.Get for a board size without a
// model: the size asked for (or the rectangle: Board), the sizes there
// are and the boards above 8x8 a network plays, for each interface to
// phrase for its users (List).
type NoModelError struct {
	Size  int
	Board rules.Board // a rectangle asked for (GetBoard); zero with Size
	Sizes []int
	Wide  []rules.Board // the boards above 8x8 a network plays; nil for none
}

// List names the boards there is a model for: "4x4, 5x5, 6x6" and, when
// there are some, the boards above 8x8: "6x6, 7x7 and 9x8, 15x12".
func (e *NoModelError) List() string {
	s := rules.SizeList(e.Sizes)
	if len(e.Wide) > 0 {
		names := make([]string, len(e.Wide))
		for i, b := range e.Wide {
			names[i] = b.String()
		}
		s += " and " + strings.Join(names, ", ")
	}
	return s
}

func (e *NoModelError) Error() string {
	if e.Board != (rules.Board{}) {
		return fmt.Sprintf("agent: no model for %s (there is one for %s)", e.Board, e.List())
	}
	return fmt.Sprintf("agent: no model for %dx%d (there is one for %s)", e.Size, e.Size, e.List())
}

// Run runs every engine's evaluator, and those GetBoard makes while it
// runs, until ctx ends.
func (es *Engines) Run(ctx context.Context) error {
	g, ctx := errgroup.WithContext(ctx)
	es.mu.Lock()
	for _, e := range es.bySize {
		g.Go(func() error { return e.Run(ctx) })
	}
	es.run, es.group = ctx, g
	es.mu.Unlock()
	return g.Wait()
}
