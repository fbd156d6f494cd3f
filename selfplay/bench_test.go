package selfplay

import (
	"context"
	"flag"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/konanezero/konane/mcts"
	shipped "github.com/konanezero/konane/models"
	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/rules"
	"golang.org/x/sync/errgroup"
)

// BenchmarkSelfplay8x8 measures self-play throughput on 8x8 at the default
// settings of konane train (a fresh default network): games per hour,
// network evaluations per second, and the endgame solver's nodes and
// proofs per game. Each iteration plays one round of Parallel games at
// once.
func BenchmarkSelfplay8x8(b *testing.B) {
	cfg := DefaultConfig(8)
	model, err := net.New(cfg.Net, 1)
	if err != nil {
		b.Fatal(err)
	}
	benchSelfplay(b, cfg, model)
}

// BenchmarkSelfplay8x8Variants is BenchmarkSelfplay8x8 with the search
// settings of 7cecfee (the endgame solver on leaves of up to 30 stones,
// mcts's default, where 8x8 self-play now solves up to 27), so that a
// change of the defaults and a change of speed can be told apart; and at
// today's defaults with the shipped 8x8 model instead of a fresh network
// (a trained network's games are longer and its searches differ).
func BenchmarkSelfplay8x8Variants(b *testing.B) {
	b.Run("stones=30", func(b *testing.B) {
		cfg := DefaultConfig(8)
		cfg.Game.MCTS.SolveStones = mcts.DefaultSolveStones
		model, err := net.New(cfg.Net, 1)
		if err != nil {
			b.Fatal(err)
		}
		benchSelfplay(b, cfg, model)
	})
	b.Run("model=shipped", func(b *testing.B) {
		model, err := shipped.Shipped().For(rules.SquareBoard(8))
		if err != nil {
			b.Fatal(err)
		}
		benchSelfplay(b, DefaultConfig(8), model)
	})
}

// benchSelfplay plays b.N rounds of cfg.Parallel self-play games of cfg
// with model and reports games/hour, evals/s, the cache's hit rate, the
// mean batch, and the endgame solver's nodes and proofs per game.
func benchSelfplay(b *testing.B, cfg Config, model *net.Model) {
	eval, err := net.NewEvaluator(model, net.EvalOptions{Batch: cfg.EvalBatch, Wait: time.Millisecond, CacheSize: cfg.CacheSize})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go eval.Run(ctx)
	seeds := make([]uint64, cfg.Parallel)
	b.ResetTimer()
	start := time.Now()
	games := 0
	var endgame mcts.EndgameStats
	for i := 0; i < b.N; i++ {
		for j := range seeds {
			seeds[j] = uint64(i*len(seeds) + j)
		}
		err := PlayGames(ctx, eval, cfg.Game, seeds, cfg.Parallel, func(_ int, g Game) error {
			games++
			endgame.Tries += g.Endgame.Tries
			endgame.Proved += g.Endgame.Proved
			endgame.Nodes += g.Endgame.Nodes
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	secs := time.Since(start).Seconds()
	st := eval.Stats()
	b.ReportMetric(float64(games)/secs*3600, "games/hour")
	b.ReportMetric(float64(st.NetPositions)/secs, "evals/s")
	b.ReportMetric(st.HitRate()*100, "cache-hit-%")
	b.ReportMetric(st.AvgBatch(), "avg-batch")
	// The endgame solver's work, the same on every machine: with the
	// profile's share of mcts.(*Search).solveLeaf, its cost per node.
	b.ReportMetric(float64(endgame.Nodes)/float64(games), "solver-nodes/game")
	b.ReportMetric(float64(endgame.Proved)/float64(games), "solved/game")
}

// coresWindow is how long BenchmarkSelfplayCores plays each setting.
var coresWindow = flag.Duration("cores.window", 20*time.Second, "BenchmarkSelfplayCores: self-play time per setting")

// BenchmarkSelfplayCores is the study behind the defaults of self-play on
// a 2-core machine (see the package documentation): 8x8 self-play at the
// default search settings and a fresh default network, played for
// -cores.window per setting, under GOMAXPROCS 1 or 2, with one evaluator
// (one inference goroutine) or two (the games split between them, each
// with its own inference goroutine and graphs), a number of games in
// flight, an evaluator batch and its wait. The games keep that many in
// flight throughout; leaves/s (positions asked of the evaluators per
// second, cache hits included) is the finer measure of the same work as
// games/hour, which counts only the games finished within the window.
//
//	go test -run '^$' -bench SelfplayCores -benchtime 1x ./selfplay
func BenchmarkSelfplayCores(b *testing.B) {
	base := DefaultConfig(8)
	model, err := net.New(base.Net, 1)
	if err != nil {
		b.Fatal(err)
	}
	for _, s := range []struct {
		procs, evaluators, parallel, batch int
		wait                               time.Duration
	}{
		{2, 1, 32, 32, 0}, // konane train's defaults
		{2, 1, 32, 32, time.Millisecond},
		{2, 1, 16, 16, 0},
		{2, 1, 64, 32, 0},
		{2, 1, 64, 64, 0},
		{2, 2, 32, 16, 0},
		{2, 2, 64, 32, 0},
		{1, 1, 32, 32, 0},
		{1, 2, 32, 16, 0},
	} {
		name := fmt.Sprintf("procs=%d/evaluators=%d/parallel=%d/batch=%d/wait=%v", s.procs, s.evaluators, s.parallel, s.batch, s.wait)
		b.Run(name, func(b *testing.B) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(s.procs))
			var games, leaves, netPos, batches atomic.Int64
			var secs float64
			for i := 0; i < b.N; i++ {
				ctx, cancel := context.WithTimeout(context.Background(), *coresWindow)
				g, gctx := errgroup.WithContext(ctx)
				var evals []*net.Evaluator
				for range s.evaluators {
					e, err := net.NewEvaluator(model, net.EvalOptions{Batch: s.batch, Wait: s.wait, CacheSize: base.CacheSize})
					if err != nil {
						b.Fatal(err)
					}
					evals = append(evals, e)
					g.Go(func() error { return e.Run(gctx) })
				}
				start := time.Now()
				var play errgroup.Group
				for k, e := range evals {
					seeds := make([]uint64, 10000)
					for j := range seeds {
						seeds[j] = uint64(j*len(evals) + k)
					}
					play.Go(func() error {
						err := PlayGames(ctx, e, base.Game, seeds, s.parallel/len(evals), func(int, Game) error { games.Add(1); return nil })
						if ctx.Err() != nil {
							return nil // the window is over
						}
						return err
					})
				}
				if err := play.Wait(); err != nil {
					b.Fatal(err)
				}
				secs += time.Since(start).Seconds()
				cancel()
				if err := g.Wait(); err != nil {
					b.Fatal(err)
				}
				for _, e := range evals {
					st := e.Stats()
					leaves.Add(st.Positions)
					netPos.Add(st.NetPositions)
					batches.Add(st.Batches)
				}
			}
			b.ReportMetric(float64(games.Load())/secs*3600, "games/hour")
			b.ReportMetric(float64(leaves.Load())/secs, "leaves/s")
			b.ReportMetric(float64(netPos.Load())/secs, "evals/s")
			b.ReportMetric(float64(netPos.Load())/float64(max(batches.Load(), 1)), "avg-batch")
		})
	}
}
