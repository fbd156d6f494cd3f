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
	return playEach(parent, len(seeds), parallel, func(ctx context.Context, i int) (Game, error) {
		return PlayGame(ctx, eval, cfg, seeds[i])
	}, done)
}

// playEach plays games 0..n-1 with play, in order, at most parallel
// (at least 1) at a time, and hands each finished one to done, never
// concurrently. The first error (from play, from done, or the context)
// stops the rest.
func playEach(parent context.Context, n, parallel int, play func(ctx context.Context, index int) (Game, error),
	done func(index int, g Game) error) error {
	g, ctx := errgroup.WithContext(parent)
	g.SetLimit(max(parallel, 1))
	var mu sync.Mutex
	for i := range n {
		if ctx.Err() != nil {
			break
		}
		g.Go(func() error {
			game, err := play(ctx, i)
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
