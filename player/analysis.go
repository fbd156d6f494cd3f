package player

import (
	"context"
	"fmt"
	"time"

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
	if l.Time <= 0 {
		return n.run(ctx, p, l.Sims)
	}
	if n.search.Config().Gumbel {
		return mcts.Result{}, fmt.Errorf("player: %s: a Gumbel search cannot be limited by time", n.name)
	}
	// Chunks of timeChunk simulations until the time is up (after one
	// chunk at least) or Sims are done; the chunks build one tree.
	deadline := time.Now().Add(l.Time)
	var res mcts.Result
	done := 0
	for done == 0 || time.Now().Before(deadline) && (l.Sims <= 0 || done < l.Sims) {
		chunk := timeChunk
		if l.Sims > 0 {
			chunk = min(chunk, l.Sims-done)
		}
		var err error
		if res, err = n.run(ctx, p, chunk); err != nil {
			return mcts.Result{}, err
		}
		done += res.Sims
	}
	res.Sims = done
	return res, nil
}

// run runs sims simulations of the search from p.
func (n *Neural) run(ctx context.Context, p rules.Position, sims int) (mcts.Result, error) {
	res, err := n.search.Run(ctx, p, mcts.RunOptions{Sims: sims})
	if err != nil {
		return mcts.Result{}, fmt.Errorf("player: %s: %w", n.name, err)
	}
	return res, nil
}
