package analysis

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/mcts"
	"github.com/konanezero/konane/player"
	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/solver"
)

// DefaultSims is the search budget of one position when Config sets
// none: 200 simulations, which analyses a 60-ply 8x8 game in well under
// two minutes on two cores (see the package documentation).
const DefaultSims = 200

// Config says how a game is analysed.
type Config struct {
	// Limits bound the search of each position (simulations and/or
	// time); the zero value is DefaultSims simulations.
	Limits player.Limits
	// Parallel is the number of positions searched at once, sharing the
	// engine's batched evaluator; 0 is 8.
	Parallel int
	// MaxStones is the solver's bound (solver.Solvable): positions with
	// at most this many stones (any position on 4x4 and 5x5) are solved
	// exactly. 0 is solver.DefaultMaxStones; negative turns the solver
	// off.
	MaxStones int
	// Seed seeds the searches (position i searches with Seed^i).
	Seed uint64
	// Progress, when set, is called after each position with the number
	// analysed and the total.
	Progress func(done, total int)
}

func (c Config) withDefaults() (Config, error) {
	if c.Limits.Sims == 0 && c.Limits.Time == 0 {
		c.Limits.Sims = DefaultSims
	}
	if err := c.Limits.Validate(); err != nil {
		return c, fmt.Errorf("analysis: %w", err)
	}
	if c.Parallel < 0 {
		return c, fmt.Errorf("analysis: %d positions in parallel: want at least 1", c.Parallel)
	}
	if c.Parallel == 0 {
		c.Parallel = 8
	}
	if c.MaxStones == 0 {
		c.MaxStones = solver.DefaultMaxStones
	}
	return c, nil
}

// Exact is the solver's verdict on a position for the side to move.
type Exact int8

// Verdicts of the solver.
const (
	Unsolved Exact = iota // too large for the solver
	Won                   // the side to move wins with perfect play
	Lost                  // the side to move loses whatever it plays
)

func (e Exact) String() string {
	switch e {
	case Won:
		return "win"
	case Lost:
		return "loss"
	}
	return ""
}

// winProb is the win probability of the side to move: 1 or 0 when the
// verdict is Won or Lost, else estimate.
func (e Exact) winProb(estimate float64) float64 {
	switch e {
	case Won:
		return 1
	case Lost:
		return 0
	}
	return estimate
}

// Position is what the analysis says of one position of the game.
type Position struct {
	Ply  int         // moves played before it (0 = the start)
	Side rules.Color // the side to move
	// WinProb is the probability that Side wins: exact (0 or 1) when
	// Exact is settled, else the search's (Value+1)/2.
	WinProb float64
	Exact   Exact // the solver's verdict, or the search's proof
	// Winning lists the moves that win, when Exact is Won by the solver
	// (nil when the search proved the win: it does not list them).
	Winning []rules.Move
	// Search is the whole search result: its best move Best
	// (rules.NoMove at the end of the game, where Moves are empty), the
	// expected line PV starting with Best, the simulations Sims, and the
	// moves' visits, values and priors.
	Search agent.Analysis
}

// Evaluate analyses the positions ps (of one board size, the engine's)
// in parallel through the engine's evaluator, and solves those small
// enough. The engine must be running. The result is parallel to ps.
func Evaluate(ctx context.Context, e *agent.Engine, ps []rules.Position, plies []int, cfg Config) ([]Position, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	out := make([]Position, len(ps))
	for i, p := range ps {
		if int(p.Size) != e.Size() {
			return nil, fmt.Errorf("analysis: the model plays %dx%d, not %dx%d", e.Size(), e.Size(), p.Size, p.Size)
		}
		out[i] = Position{Ply: i, Side: p.Turn, Search: agent.Analysis{Side: p.Turn, ResultOf: mcts.Result{Best: rules.NoMove}}}
		if plies != nil {
			out[i].Ply = plies[i]
		}
	}
	ev := &evaluation{ps: ps, out: out, cfg: cfg, parts: make([]atomic.Int32, len(ps))}
	g, ctx := errgroup.WithContext(ctx)
	g.Go(func() error { return ev.solve(ctx) })
	next := make(chan int)
	g.Go(func() error {
		defer close(next)
		for i := range ps {
			select {
			case next <- i:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		return nil
	})
	workers := min(cfg.Parallel, max(len(ps), 1))
	for range workers {
		g.Go(func() error { return ev.search(ctx, e, next) })
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	for i := range out {
		out[i].settle()
	}
	return out, nil
}

// evaluation is one call of Evaluate: its positions, their results and
// the count of parts done per position (its solver pass and its search).
type evaluation struct {
	ps    []rules.Position
	out   []Position
	cfg   Config
	parts []atomic.Int32
	done  atomic.Int64
	mu    sync.Mutex // orders the Progress calls
}

// report marks one part of position i done; a position is done when
// both its solver pass and its search are: Progress counts positions, as
// the caller's report does.
func (ev *evaluation) report(i int) {
	if ev.parts[i].Add(1) < 2 {
		return
	}
	n := int(ev.done.Add(1))
	if ev.cfg.Progress != nil {
		ev.mu.Lock()
		ev.cfg.Progress(n, len(ev.ps))
		ev.mu.Unlock()
	}
}

// solve runs the solver, from the end of the game backwards, so that its
// table carries over from each position to the one before.
func (ev *evaluation) solve(ctx context.Context) error {
	if ev.cfg.MaxStones < 0 {
		for i := range ev.ps {
			ev.report(i)
		}
		return nil
	}
	s := solver.New(solver.WithTableEntries(1 << 20))
	for i := len(ev.ps) - 1; i >= 0; i-- {
		if solver.Solvable(ev.ps[i], ev.cfg.MaxStones) {
			res, err := s.Analyze(ctx, ev.ps[i])
			if err != nil {
				return fmt.Errorf("analysis: %w", err)
			}
			ev.out[i].Exact = Lost
			if wins := solver.WinningMoves(res); len(wins) > 0 {
				ev.out[i].Exact, ev.out[i].Winning = Won, wins
			}
		}
		ev.report(i)
	}
	return nil
}

// search is one of the Parallel workers taking positions in turn from
// next, each with a fresh agent (no tree carried from another position,
// so that the result does not depend on which worker took it).
func (ev *evaluation) search(ctx context.Context, e *agent.Engine, next <-chan int) error {
	for i := range next {
		p := ev.ps[i]
		if !p.HasMoves() {
			ev.out[i].Search = agent.Analysis{Side: p.Turn, ResultOf: mcts.Result{Best: rules.NoMove, Value: -1, Proven: true}}
			ev.report(i)
			continue
		}
		a, err := e.NewAgent(ev.cfg.Seed ^ uint64(i))
		if err != nil {
			return err
		}
		an, err := a.Advise(ctx, p, ev.cfg.Limits)
		if err != nil {
			return fmt.Errorf("analysis: ply %d: %w", ev.out[i].Ply, err)
		}
		ev.out[i].Search = an
		ev.report(i)
	}
	return nil
}

// settle sets the position's exact verdict from a search that proved its
// root (MCTS-Solver: as exact as the solver, but without the list of
// winning moves) and its win probability from the verdict or the search.
func (p *Position) settle() {
	if p.Exact == Unsolved && p.Search.Proven {
		p.Exact = Lost
		if p.Search.Value > 0 {
			p.Exact = Won
		}
	}
	p.WinProb = p.Exact.winProb(p.Search.WinProb())
}
