package agent

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/konanezero/konane/player"
	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/rules/rulestest"
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
		g, _ := rules.NewGame(size)
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
					an, err := a.Move(ctx, p, player.Limits{Sims: l.Sims})
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
// of the shipped 8x8 and 6x6 agents against themselves at each level,
// with and without the solver (the endgame is where the solver works, and
// where the opening benchmark above cannot see it). Game i starts from
// the opening removals and two jumps chosen at random with seed i, as
// arena matches do, so that the games differ. It reports the mean, the
// 90th percentile and the slowest ms/move: the level's cost as a person
// meets it (the levels' sims are chosen by it, see levels). Each
// sub-benchmark has its own engine, so that the evaluator's cache does
// not carry positions from one to the next, and warms it up on the start
// position before timing.
func BenchmarkAgentGame(b *testing.B) {
	for _, size := range []int{8, 6} {
		for _, l := range Levels() {
			for _, solver := range []bool{true, false} {
				s := l.Limits()
				s.NoSolver = !solver
				name := fmt.Sprintf("%dx%d/%s", size, size, l.Name)
				if !solver {
					name += "-nosolver"
				}
				b.Run(name, func(b *testing.B) { benchmarkGame(b, size, s) })
			}
		}
	}
}

// benchmarkGame is BenchmarkAgentGame on a size×size board with the
// limits s.
func benchmarkGame(b *testing.B, size int, s player.Limits) {
	e, err := OpenEngine("", size)
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go e.Run(ctx)
	if _, err := e.Evaluate(ctx, []rules.Position{rules.NewPosition(size)}); err != nil {
		b.Fatal(err)
	}
	var times []time.Duration
	for i := 0; b.Loop(); i++ {
		a, _ := e.NewAgent(uint64(2 * i))
		o, _ := e.NewAgent(uint64(2*i + 1))
		p := randomOpening(size, 4, uint64(i))
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
			times = append(times, time.Since(start))
			p = p.Play(an.Best)
		}
	}
	slices.Sort(times)
	var total time.Duration
	for _, t := range times {
		total += t
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(total)/float64(len(times)), "ms/move")
	b.ReportMetric(ms(times[len(times)*9/10]), "p90-ms/move")
	b.ReportMetric(ms(times[len(times)-1]), "max-ms/move")
}

// randomOpening plays plies random legal moves from the start position
// of a size×size board (the first two are the removals), seeded by seed.
func randomOpening(size, plies int, seed uint64) rules.Position {
	return rulestest.Opening(rand.New(rand.NewPCG(seed, 0x6f70656e)), size, plies)
}

// BenchmarkJudge8x8 measures the coach's cost on 8x8 (issue 45: a
// judgement at medium takes at most 1 s a move): Judge with the limits of
// advice (AdviceLimits of the default level's) of a random legal move in
// mid-game positions (plies 10 to 30 of random games, seed 45; the move
// drawn with the same seed), a fresh agent each time, so no tree is
// reused, and no position judged twice up to 256 judgements, so that the
// evaluator's cache (shared, as in a server, and warmed on the start
// position before timing) does not answer for a position judged before.
// It reports ms/judgement.
//
//	go test ./agent -run '^$' -bench Judge8x8 -benchtime 32x
func BenchmarkJudge8x8(b *testing.B) {
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
	l, err := ParseLevel(DefaultLevel)
	if err != nil {
		b.Fatal(err)
	}
	s := AdviceLimits(l.Limits())
	rng := rand.New(rand.NewPCG(45, 0x6a756467))
	type judged struct {
		p rules.Position
		m rules.Move
	}
	var set []judged
	for len(set) < 256 {
		p := rulestest.AtPlies(rng, 8, 1, 10, 30)[0]
		if moves := p.LegalMoves(nil); len(moves) > 0 { // a game may end before
			set = append(set, judged{p, moves[rng.IntN(len(moves))]})
		}
	}
	start := time.Now()
	for i := 0; b.Loop(); i++ {
		j := set[i%len(set)]
		a, err := e.NewAgent(uint64(i))
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := a.Judge(ctx, j.p, j.m, s); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(b.N), "ms/judgement")
}
