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
		out[i] = Position{Ply: i, Side: p.Turn, Search: agent.Analysis{Side: p.Turn, Result: mcts.Result{Best: rules.NoMove}}}
		if plies != nil {
			out[i].Ply = plies[i]
		}
	}
	// A position is done when both its solver pass and its search are:
	// Progress counts positions, as the caller's report does.
	parts := make([]atomic.Int32, len(ps))
	var done atomic.Int64
	var mu sync.Mutex // orders the Progress calls
	report := func(i int) {
		if parts[i].Add(1) < 2 {
			return
		}
		n := int(done.Add(1))
		if cfg.Progress != nil {
			mu.Lock()
			cfg.Progress(n, len(ps))
			mu.Unlock()
		}
	}
	g, ctx := errgroup.WithContext(ctx)
	// The solver, from the end of the game backwards, so that its table
	// carries over from each position to the one before.
	g.Go(func() error {
		if cfg.MaxStones < 0 {
			for i := range ps {
				report(i)
			}
			return nil
		}
		s := solver.New(solver.WithTableEntries(1 << 20))
		for i := len(ps) - 1; i >= 0; i-- {
			if solver.Solvable(ps[i], cfg.MaxStones) {
				res, err := s.Analyze(ctx, ps[i])
				if err != nil {
					return fmt.Errorf("analysis: %w", err)
				}
				out[i].Exact = Lost
				if wins := solver.WinningMoves(res); len(wins) > 0 {
					out[i].Exact, out[i].Winning = Won, wins
				}
			}
			report(i)
		}
		return nil
	})
	// The searches: Parallel workers taking positions in turn, each with
	// a fresh agent (no tree carried from another position, so that the
	// result does not depend on which worker took it).
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
		g.Go(func() error {
			for i := range next {
				if !ps[i].HasMoves() {
					out[i].Search = agent.Analysis{Side: ps[i].Turn, Result: mcts.Result{Best: rules.NoMove, Value: -1, Proven: true}}
					report(i)
					continue
				}
				a, err := e.NewAgent(cfg.Seed ^ uint64(i))
				if err != nil {
					return err
				}
				an, err := a.Advise(ctx, ps[i], cfg.Limits)
				if err != nil {
					return fmt.Errorf("analysis: ply %d: %w", out[i].Ply, err)
				}
				out[i].Search = an
				report(i)
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	for i := range out {
		if s := out[i].Search; out[i].Exact == Unsolved && s.Proven {
			// MCTS-Solver proved the root: as exact as the solver, but
			// without the list of winning moves.
			out[i].Exact = Lost
			if s.Value > 0 {
				out[i].Exact = Won
			}
		}
		switch {
		case out[i].Exact == Won:
			out[i].WinProb = 1
		case out[i].Exact == Lost:
			out[i].WinProb = 0
		default:
			out[i].WinProb = out[i].Search.WinProb()
		}
	}
	return out, nil
}
