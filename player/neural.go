package player

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/konanezero/konane/mcts"
	"github.com/konanezero/konane/rules"
)

// timeChunk is the number of simulations a time-limited neural search
// runs between two looks at the clock.
const timeChunk = 16

// Bounds of Limits.
const (
	MaxSims = 1 << 20          // simulations of one move
	MaxTime = 10 * time.Minute // thinking time of one move
)

// Limits bound one search of a neural player: Sims simulations, or Time
// (in chunks of 16 simulations, so it may overrun by one chunk), or both,
// whichever ends first; 0 is no such limit, and at least one is set.
type Limits struct {
	Sims int
	Time time.Duration
	// NoSolver searches without MCTS-Solver and the endgame solver (plain
	// MCTS, see mcts.Config.Solver), whatever the player's configuration:
	// the easiest level plays so, and so does a measurement of what the
	// network alone has learned.
	NoSolver bool
	// Choice is how Move picks its move from the search's result: the
	// most visited move (the zero Choice) or, for a weak level, a draw.
	Choice
}

// Validate reports limits without any limit, or out of range.
func (l Limits) Validate() error {
	switch {
	case l.Sims < 0 || l.Sims > MaxSims:
		return &LimitsError{Field: "sims", Limits: l}
	case l.Time < 0 || l.Time > MaxTime:
		return &LimitsError{Field: "time", Limits: l}
	case l.Sims == 0 && l.Time == 0:
		return &LimitsError{Limits: l}
	}
	if f := l.Choice.validate(); f != "" {
		return &LimitsError{Field: f, Limits: l}
	}
	return nil
}

// LimitsError is what Limits.Validate refuses: Field is "sims" or
// "time" for a limit out of range (1..MaxSims simulations, a positive
// time up to MaxTime), "" when neither limit is set, or "temp", "topk"
// or "noise" for its Choice out of range (a temperature of 0..MaxTemp,
// 0..rules.MaxMoves moves, a share of 0..1).
type LimitsError struct {
	Field  string
	Limits Limits
}

func (e *LimitsError) Error() string {
	switch e.Field {
	case "sims":
		return fmt.Sprintf("player: %d simulations: want 1..%d", e.Limits.Sims, MaxSims)
	case "time":
		return fmt.Sprintf("player: time per move %v: want a positive duration up to %v", e.Limits.Time, MaxTime)
	case "temp":
		return fmt.Sprintf("player: temperature %v: want 0..%v", e.Limits.Temp, MaxTemp)
	case "topk":
		return fmt.Sprintf("player: top %d moves: want 0..%d", e.Limits.TopK, rules.MaxMoves)
	case "noise":
		return fmt.Sprintf("player: noise %v: want 0..1", e.Limits.Noise)
	}
	return "player: set simulations or time per move"
}

// String describes the limits for people: "64 simulations per move",
// "2s per move", "200 simulations or 2s per move".
func (l Limits) String() string {
	var s string
	switch {
	case l.Sims > 0 && l.Time > 0:
		s = fmt.Sprintf("%d simulations or %v per move", l.Sims, l.Time)
	case l.Time > 0:
		s = fmt.Sprintf("%v per move", l.Time)
	default:
		s = fmt.Sprintf("%d simulations per move", l.Sims)
	}
	if l.NoSolver {
		s += ", without the solver"
	}
	if c := l.Choice.String(); c != "" {
		s += ", " + c
	}
	return s
}

// Network is what neural players search with: a network's batched
// evaluator, safe for concurrent use and shared by the players of one
// Factory, and the board size it plays. Run must be running while the
// players move. Package agent loads models into one (agent.Engine).
type Network interface {
	mcts.Evaluator
	Size() int // the board size of the network's inputs
	Run(ctx context.Context) error
}

// Neural is the trained agent: MCTS (PUCT, no exploration noise, tree
// reused between moves) guided by an evaluator, normally a network's.
// Move searches within the player's limits, Analyze within the limits of
// the call; either plays the most visited move.
type Neural struct {
	name   string
	limits Limits // of Move
	size   int    // the board size of the evaluator; 0 = any
	search *mcts.Search
	// plain is the search of Limits.NoSolver when search uses the solver
	// (made on first use), else search itself.
	plain *mcts.Search
	// wide and widePlain are search and plain on the boards above 8x8
	// (WidePositions), made on the first wide call.
	wide, widePlain *mcts.WideSearch
	eval            mcts.Evaluator
	plainSeed       uint64
	rng             *rand.Rand // of a weak Choice's draws
}

// NewNeural returns a neural player searching with eval (which may be
// shared with other players: it is safe for concurrent use) and the
// search settings cfg, within limits per Move. The search keeps its tree
// between calls, which time limits need (the chunks of one move build one
// tree), so cfg.Reuse is set; a Gumbel search cannot run in chunks and is
// refused when limits has a time.
func NewNeural(eval mcts.Evaluator, cfg mcts.Config, limits Limits, seed uint64) (*Neural, error) {
	if err := limits.Validate(); err != nil {
		return nil, fmt.Errorf("player: neural: %w", err)
	}
	cfg.Reuse = true
	if limits.Time > 0 {
		cfg.Gumbel = false
	}
	s, err := mcts.New(eval, cfg, seed^streamNeural)
	if err != nil {
		return nil, fmt.Errorf("player: neural: %w", err)
	}
	n := &Neural{name: "neural", limits: limits, search: s, eval: eval, plainSeed: seed ^ streamNeural,
		rng: newRand(seed, streamChoice)}
	if !cfg.Solver {
		n.plain = s
	}
	return n, nil
}

// searchFor returns the search of limits l: the plain one for NoSolver.
func (n *Neural) searchFor(l Limits) (*mcts.Search, error) {
	if !l.NoSolver {
		return n.search, nil
	}
	if n.plain == nil {
		cfg := n.search.Config()
		cfg.Solver = false
		s, err := mcts.New(n.eval, cfg, n.plainSeed)
		if err != nil {
			return nil, fmt.Errorf("player: %s: %w", n.name, err)
		}
		n.plain = s
	}
	return n.plain, nil
}

// wideSearchFor is searchFor on the boards above 8x8: the wide searches
// (made on first use, with the same settings and seed as the narrow
// ones) of an evaluator that is also an mcts.WideEvaluator.
func (n *Neural) wideSearchFor(l Limits) (*mcts.WideSearch, error) {
	if l.NoSolver && n.widePlain != nil {
		return n.widePlain, nil
	}
	if !l.NoSolver && n.wide != nil {
		return n.wide, nil
	}
	weval, ok := n.eval.(mcts.WideEvaluator)
	if !ok {
		return nil, fmt.Errorf("player: %s: the evaluator plays boards of at most %d files and ranks", n.name, rules.MaxSize)
	}
	base := n.search.Config()
	cfg := base
	cfg.Solver = base.Solver && !l.NoSolver
	s, err := mcts.NewWide(weval, cfg, n.plainSeed)
	if err != nil {
		return nil, fmt.Errorf("player: %s: %w", n.name, err)
	}
	if !cfg.Solver {
		n.widePlain = s
	}
	if cfg.Solver || !base.Solver { // without the solver in cfg, one search serves both
		n.wide = s
	}
	return s, nil
}

// Name implements Player.
func (n *Neural) Name() string { return n.name }

// Config returns the player's search settings.
func (n *Neural) Config() mcts.Config { return n.search.Config() }

// Limits returns the limits of Move.
func (n *Neural) Limits() Limits { return n.limits }

// Move implements Player: the move of Analyze within the player's
// limits that their Choice picks (Choice.Draw; the recommended move,
// unless a weak level draws).
func (n *Neural) Move(ctx context.Context, p rules.Position) (rules.Move, error) {
	res, err := n.Analyze(ctx, p, n.limits)
	if err != nil {
		return rules.NoMove, err
	}
	return n.limits.Draw(p, res, n.rng), nil
}

// MoveWide implements WidePlayer: Move on the boards above 8x8, with a
// network that plays them (its evaluator an mcts.WideEvaluator:
// net.Evaluator, agent.Engine). The search is the same without the exact
// endgame solver, which plays Positions only (mcts.WideSearch).
func (n *Neural) MoveWide(ctx context.Context, p rules.WidePosition) (rules.WideMove, error) {
	res, err := n.AnalyzeWide(ctx, p, n.limits)
	if err != nil {
		return rules.NoWideMove, err
	}
	return n.limits.DrawWide(p, res, n.rng), nil
}

// NewNeuralFactory returns a factory of neural players named name that
// search with net and the search settings cfg within limits per move. The
// factory's Run runs net.
func NewNeuralFactory(name string, net Network, cfg mcts.Config, limits Limits) (*Factory, error) {
	if err := limits.Validate(); err != nil {
		return nil, fmt.Errorf("player: %s: %w", name, err)
	}
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("player: %s: %w", name, err)
	}
	return &Factory{spec: Spec{Kind: KindModel, Name: name, Sims: limits.Sims, Time: limits.Time},
		net: net, cfg: cfg, limits: limits}, nil
}

func (f *Factory) newNeural(seed uint64) (Player, error) {
	p, err := NewNeural(f.net, f.cfg, f.limits, seed)
	if err != nil {
		return nil, err
	}
	p.name, p.size = f.spec.Name, f.net.Size()
	return p, nil
}
