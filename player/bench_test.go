package player

import (
	"context"
	"testing"
	"time"

	"github.com/konanezero/konane/rules"
)

// benchPosition is an 8x8 position a few jumps into the game.
func benchPosition() rules.Position {
	p := rules.Openings(8)[0].Position
	var buf [rules.MaxMoves]rules.Move
	for i := 0; i < 4; i++ {
		p = p.Play(p.LegalMoves(buf[:0])[0])
	}
	return p
}

// BenchmarkAlphaBetaDepth8 reports the search speed in nodes per second
// on 8x8, each search with a fresh transposition table (whose allocation
// is not timed).
func BenchmarkAlphaBetaDepth8(b *testing.B) {
	benchNodes(b, []rules.Position{benchPosition()}, 8, func() searcher { return NewAlphaBeta(8, 0, 1) })
}

// searcher is what benchNodes times: the Engine in both configurations.
type searcher interface {
	Search(ctx context.Context, p rules.Position, depth int) SearchResult
}

// benchNodes searches ps in turn to depth, each time with a fresh
// searcher from fresh (made outside the timer), and reports nodes per
// second of search and nodes per search.
func benchNodes(b *testing.B, ps []rules.Position, depth int, fresh func() searcher) {
	var nodes uint64
	var searching time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		e := fresh()
		b.StartTimer()
		start := time.Now()
		nodes += e.Search(context.Background(), ps[i%len(ps)], depth).Nodes
		searching += time.Since(start)
	}
	b.ReportMetric(float64(nodes)/searching.Seconds(), "nodes/s")
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/search")
}

// BenchmarkUCT reports pure MCTS simulations (with their random playouts)
// per second on 8x8.
func BenchmarkUCT(b *testing.B) {
	p := benchPosition()
	u := NewUCT(1000, 0, 0, 1)
	for i := 0; i < b.N; i++ {
		if _, err := u.Move(context.Background(), p); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(1000*b.N)/b.Elapsed().Seconds(), "sims/s")
}

// BenchmarkGreedy reports the cost of one greedy move on 8x8.
func BenchmarkGreedy(b *testing.B) {
	p := benchPosition()
	g := NewGreedy(1)
	for i := 0; i < b.N; i++ {
		g.Move(context.Background(), p)
	}
}

// BenchmarkPVSDepth10 reports the PVS engine's speed in nodes per second
// on 8x8 and its allocations (none per node: a few per search, for the
// result), each search with a fresh engine (not timed).
func BenchmarkPVSDepth10(b *testing.B) {
	b.ReportAllocs()
	benchNodes(b, []rules.Position{benchPosition()}, 10, func() searcher { return NewPVS(10, 0, 1) })
}

// BenchmarkPVSEvaluate reports the cost of one evaluation.
func BenchmarkPVSEvaluate(b *testing.B) {
	p := benchPosition()
	w := EvalDefault
	b.ReportAllocs()
	var sink int32
	for i := 0; i < b.N; i++ {
		s, _ := w.evaluate(p)
		sink += s
	}
	_ = sink
}

// BenchmarkPVSMiddleGame reports the PVS engine's speed in nodes per
// second on eight 8x8 middle-game positions (those of
// TestPVSDepthReached), each searched to depth 9 by a fresh engine (not
// timed).
func BenchmarkPVSMiddleGame(b *testing.B) {
	benchNodes(b, middleGame(8), 9, func() searcher { return NewPVS(9, 0, 1) })
}

// BenchmarkPVSWide reports the engine's speed in nodes per second on the
// wide layout: AbstractPlay's 15x12 and 16x16 a few jumps in, searched to
// depth 5 by a fresh engine (made, with its wide state, outside the
// timer).
func BenchmarkPVSWide(b *testing.B) {
	for _, name := range []string{"size-15", "16x16"} {
		b.Run(name, func(b *testing.B) {
			board, err := rules.ParseBoard(name)
			if err != nil {
				b.Fatal(err)
			}
			p, err := board.WidePosition()
			if err != nil {
				b.Fatal(err)
			}
			for range 6 {
				p = p.Play(p.LegalMoves(nil)[0])
			}
			var nodes uint64
			var searching time.Duration
			for b.Loop() {
				b.StopTimer()
				e := newPVS(5, 0, 1, 20, 1<<10)
				e.wideState() // its allocation is not timed
				b.StartTimer()
				start := time.Now()
				nodes += e.SearchWide(context.Background(), p, 5).Nodes
				searching += time.Since(start)
			}
			b.ReportMetric(float64(nodes)/searching.Seconds(), "nodes/s")
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/search")
		})
	}
}
