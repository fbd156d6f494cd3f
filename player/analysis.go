package player

import (
	"context"
	"fmt"

	"github.com/konanezero/konane/mcts"
	"github.com/konanezero/konane/rules"
)

// Analyze searches p within limits l (Sims simulations, or Time in
// chunks, whichever ends first) and returns the whole search result
// rather than the move alone: the recommended move Best, the root's
// Value for the side to move, the principal variation PV and the
// statistics of every move. Its Sims field counts the simulations of the
// whole call. Like Move, it reuses the tree of the previous call.
func (n *Neural) Analyze(ctx context.Context, p rules.Position, l Limits) (mcts.Result, error) {
	if err := checkMove(ctx, p); err != nil {
		return mcts.Result{}, err
	}
	if n.size != 0 && int(p.Size) != n.size {
		return mcts.Result{}, fmt.Errorf("player: %s: the model plays %dx%d, not %dx%d", n.name, n.size, n.size, p.Size, p.Size)
	}
	if err := l.Validate(); err != nil {
		return mcts.Result{}, fmt.Errorf("player: %s: %w", n.name, err)
	}
	s, err := n.searchFor(l)
	if err != nil {
		return mcts.Result{}, err
	}
	return analyze(n, l, func(sims int) (mcts.Result, error) { return n.run(ctx, s, p, sims) })
}

// AnalyzeWide is Analyze on the boards above 8x8 (see MoveWide): the
// wide search's result, without the exact endgame solver.
func (n *Neural) AnalyzeWide(ctx context.Context, p rules.WidePosition, l Limits) (mcts.WideResult, error) {
	if err := checkWide(ctx, p); err != nil {
		return mcts.WideResult{}, err
	}
	if n.size != 0 && rules.ShapeCode(int(p.W), int(p.H)) != n.size {
		w, h := rules.ShapeDims(n.size)
		return mcts.WideResult{}, fmt.Errorf("player: %s: the model plays %dx%d, not %s", n.name, w, h, p.Dims())
	}
	if err := l.Validate(); err != nil {
		return mcts.WideResult{}, fmt.Errorf("player: %s: %w", n.name, err)
	}
	s, err := n.wideSearchFor(l)
	if err != nil {
		return mcts.WideResult{}, err
	}
	return analyze(n, l, func(sims int) (mcts.WideResult, error) {
		res, err := s.Run(ctx, p, mcts.RunOptions{Sims: sims})
		if err != nil {
			return mcts.WideResult{}, fmt.Errorf("player: %s: %w", n.name, err)
		}
		return res, nil
	})
}

// analyze is the search of Analyze and AnalyzeWide within l, run(sims)
// running sims simulations of one tree: all of l.Sims at once without a
// time limit, else chunks of timeChunk simulations until the time is up
// (after one chunk at least), Sims are done, the root is proven, or the
// most visited move can no longer be overtaken in the simulations left at
// the rate so far.
func analyze[M comparable](n *Neural, l Limits, run func(sims int) (mcts.ResultOf[M], error)) (mcts.ResultOf[M], error) {
	if l.Time <= 0 {
		return run(l.Sims)
	}
	if n.search.Config().Gumbel {
		return mcts.ResultOf[M]{}, fmt.Errorf("player: %s: a Gumbel search cannot be limited by time", n.name)
	}
	st := newStopper(l.Sims, l.Time)
	done := 0
	for {
		chunk := timeChunk
		if l.Sims > 0 {
			chunk = min(chunk, l.Sims-done)
		}
		res, err := run(chunk)
		if err != nil {
			return mcts.ResultOf[M]{}, err
		}
		done += res.Sims
		if res.Proven || st.done(done) || decided(res, st.left(done)) {
			res.Sims = done
			return res, nil
		}
	}
}

// decided reports whether no other move of res can reach the visits of
// the most visited one, Best, within left more simulations.
func decided[M comparable](res mcts.ResultOf[M], left float64) bool {
	best := 0
	for i, m := range res.Moves {
		if m == res.Best {
			best = i
		}
	}
	second := 0
	for i, v := range res.Visits {
		if i != best {
			second = max(second, v)
		}
	}
	return float64(second)+left < float64(res.Visits[best])
}

// run runs sims simulations of the search from p.
func (n *Neural) run(ctx context.Context, s *mcts.Search, p rules.Position, sims int) (mcts.Result, error) {
	res, err := s.Run(ctx, p, mcts.RunOptions{Sims: sims})
	if err != nil {
		return mcts.Result{}, fmt.Errorf("player: %s: %w", n.name, err)
	}
	return res, nil
}
