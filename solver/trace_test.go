package solver

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/konanezero/konane/internal/golden"
	"github.com/konanezero/konane/rules"
)

// proveTrace replays the solver's work inside self-play on 8x8 (and a
// 6x6 and a 7x7 game): along seeded random games, every position of the
// jumping phase with at most 30 stones and each of its children is given
// to one Solver with the table size and node budget of the search's
// endgame solver (16Ki entries, 3000 nodes), in order, so that the table
// carries results from call to call as it does in a game. It writes one
// line per call to w (nil: none) and returns the Solver's Stats.
func proveTrace(tb testing.TB, w *strings.Builder, games int, seed uint64) Stats {
	tb.Helper()
	s := New(WithTableEntries(1 << 14))
	rng := rand.New(rand.NewPCG(seed, 8))
	var buf [rules.MaxMoves]rules.Move
	prove := func(p rules.Position) {
		pr, err := s.Prove(p, 3000)
		if err != nil {
			tb.Fatalf("%v: %v", p, err)
		}
		if w != nil {
			fmt.Fprintf(w, "%x %x %d %v: %v %v %v %d\n", p.Black, p.White, p.Size, p.Turn, pr.Known, pr.Win, pr.Move, pr.Nodes)
		}
	}
	for g := range games {
		size := 8
		switch g % 4 {
		case 1:
			size = 6
		case 3:
			size = 7
		}
		ps, _ := rules.Playout(rng, rules.NewPosition(size), -1)
		for _, p := range ps {
			if p.Phase() != rules.Jumping || bits.OnesCount64(p.Black|p.White) > 30 || !p.HasMoves() {
				continue
			}
			prove(p)
			for _, m := range p.LegalMoves(buf[:0]) {
				if c := p.Play(m); c.HasMoves() {
					prove(c)
				}
			}
		}
	}
	return s.Stats()
}

// TestProveTraceGolden pins the search of Prove under a node budget: the
// answer and the node count of every call of proveTrace and the total
// counts, testdata/prove-trace.golden. A change that makes the solver
// cheaper per node without changing the nodes it visits keeps this file
// (and so every self-play game); one that changes them changes which
// proofs finish in self-play, and must be a setting of the search
// instead. -update rewrites it.
func TestProveTraceGolden(t *testing.T) {
	var out strings.Builder
	st := proveTrace(t, &out, 8, 1)
	fmt.Fprintf(&out, "total: %d nodes, %d hits, %d stores\n", st.Nodes, st.Hits, st.Stores)
	golden.Check(t, "prove-trace.golden", []byte(out.String()))
}

// BenchmarkProveTrace measures the solver's speed on the work it does in
// self-play (proveTrace): nodes searched per second.
func BenchmarkProveTrace(b *testing.B) {
	var nodes uint64
	for range b.N {
		nodes += proveTrace(b, nil, 8, 1).Nodes
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}
