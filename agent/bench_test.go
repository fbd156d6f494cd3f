package agent

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/konanezero/konane/rules"
)

// BenchmarkAgentMove measures how long the agent thinks about one move at
// each level on each shipped board, from the position after the two
// removals (a fresh agent each time, so no tree is reused, but the
// evaluator's cache is shared between them, as in a server). It reports
// ms/move and sims/s: what a person waits for at each level.
func BenchmarkAgentMove(b *testing.B) {
	es, err := OpenEngines("")
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go es.Run(ctx)
	for _, size := range es.Sizes() {
		e, _ := es.Get(size)
		g, _ := NewGame(size)
		for range 2 {
			g.Play(g.Position().LegalMoves(nil)[0])
		}
		p := g.Position()
		for _, l := range Levels() {
			b.Run(fmt.Sprintf("%dx%d/%s", size, size, l.Name), func(b *testing.B) {
				sims := 0
				start := time.Now()
				for i := 0; b.Loop(); i++ {
					a, err := e.NewAgent(uint64(i))
					if err != nil {
						b.Fatal(err)
					}
					an, err := a.Move(ctx, p, Strength{Sims: l.Sims})
					if err != nil {
						b.Fatal(err)
					}
					sims += an.Sims
				}
				el := time.Since(start)
				b.ReportMetric(float64(el.Milliseconds())/float64(b.N), "ms/move")
				b.ReportMetric(float64(sims)/el.Seconds(), "sims/s")
			})
		}
	}
}

// BenchmarkAgentGame measures the thinking time per move over whole games
// of the shipped 8x8 agent against itself at each level, with and without
// the solver (the endgame is where the solver works, and where the
// opening benchmark above cannot see it). It reports the mean and the
// slowest ms/move: the level's cost as a person meets it.
// Each sub-benchmark has its own engine, so that the evaluator's cache
// does not carry positions from one to the next, and warms it up on the
// start position before timing.
func BenchmarkAgentGame(b *testing.B) {
	for _, l := range Levels() {
		for _, solver := range []bool{true, false} {
			s := l.Strength()
			s.NoSolver = !solver
			name := l.Name
			if !solver {
				name += "-nosolver"
			}
			b.Run(name, func(b *testing.B) {
				e, err := OpenEngine("", 8)
				if err != nil {
					b.Fatal(err)
				}
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				go e.Run(ctx)
				if _, err := e.Evaluate(ctx, []rules.Position{rules.NewPosition(8)}); err != nil {
					b.Fatal(err)
				}
				var total time.Duration
				var slowest time.Duration
				moves := 0
				for i := 0; b.Loop(); i++ {
					a, _ := e.NewAgent(uint64(2 * i))
					o, _ := e.NewAgent(uint64(2*i + 1))
					p := rules.NewPosition(8)
					for side := 0; p.HasMoves(); side ^= 1 {
						who := a
						if side == 1 {
							who = o
						}
						start := time.Now()
						an, err := who.Move(ctx, p, s)
						if err != nil {
							b.Fatal(err)
						}
						el := time.Since(start)
						total += el
						slowest = max(slowest, el)
						moves++
						p = p.Play(an.Move)
					}
				}
				b.ReportMetric(float64(total.Milliseconds())/float64(moves), "ms/move")
				b.ReportMetric(float64(slowest.Milliseconds()), "max-ms/move")
			})
		}
	}
}
