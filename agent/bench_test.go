package agent

import (
	"context"
	"fmt"
	"testing"
	"time"
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
