package selfplay

import (
	"context"
	"sync"

	"github.com/konanezero/konane/mcts"
	"golang.org/x/sync/errgroup"
)

// PlayGames plays len(seeds) games, at most parallel at a time, all
// sharing eval (whose batching is what makes many games in flight cheap).
// done is called once per finished game, never concurrently, in the order
// the games finish; it may save the game. The first error (from a game,
// from done, or the context) stops the rest.
func PlayGames(parent context.Context, eval mcts.Evaluator, cfg GameConfig, seeds []uint64, parallel int,
	done func(index int, g Game) error) error {
	g, ctx := errgroup.WithContext(parent)
	g.SetLimit(max(parallel, 1))
	var mu sync.Mutex
	for i, seed := range seeds {
		if ctx.Err() != nil {
			break
		}
		g.Go(func() error {
			game, err := PlayGame(ctx, eval, cfg, seed)
			if err != nil {
				return err
			}
			mu.Lock()
			defer mu.Unlock()
			return done(i, game)
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	return parent.Err()
}
