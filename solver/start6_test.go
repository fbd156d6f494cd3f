package solver

import (
	"context"
	"testing"
	"time"

	"github.com/konanezero/konane/rules"
)

// TestSolveStart6x6 solves 6x6 from the start (a few seconds on one core).
// No published result exists to compare with, so it checks what must
// hold: symmetric openings have the same winner, the value agrees with a
// direct Solve of the start, and the results stay those first computed by
// this solver (a regression check: a change in the rules or the search
// that alters them must be explained).
func TestSolveStart6x6(t *testing.T) {
	if testing.Short() {
		t.Skip("solves 6x6 from the start: a few seconds")
	}
	s := New()
	began := time.Now()
	start, err := s.SolveStart(context.Background(), 6, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("6x6 solved in %v, %+v", time.Since(began), s.Stats())
	for i, a := range start.Openings {
		for _, b := range start.Openings[i+1:] {
			for sym := rules.Symmetry(0); sym < rules.NumSymmetries; sym++ {
				if sym.Position(a.Position) == b.Position && a.BlackWins != b.BlackWins {
					t.Errorf("%v %v and %v %v are symmetric (%v) but have different winners", a.Black, a.White, b.Black, b.White, sym)
				}
			}
		}
	}
	win, err := s.Solve(context.Background(), rules.NewPosition(6))
	if err != nil {
		t.Fatal(err)
	}
	if win != start.BlackWins {
		t.Errorf("Solve(start) = %v, SolveStart value = %v", win, start.BlackWins)
	}
	// First computed by this solver; see the comment above.
	want := map[string]bool{
		"a1 b1": false, "a1 a2": false,
		"c3 c2": true, "c3 b3": true, "c3 d3": false, "c3 c4": false,
		"d4 d3": false, "d4 c4": false, "d4 e4": true, "d4 d5": true,
		"f6 f5": false, "f6 e6": false,
	}
	if len(start.Openings) != len(want) {
		t.Fatalf("%d openings, want %d", len(start.Openings), len(want))
	}
	for _, o := range start.Openings {
		name := o.Black.String() + " " + o.White.String()
		if w, ok := want[name]; !ok || w != o.BlackWins {
			t.Errorf("%s: black wins = %v, want %v", name, o.BlackWins, w)
		}
	}
	if start.BlackWins {
		t.Error("6x6: black wins, want white")
	}
}

// BenchmarkSolve6x6 solves 6x6 from the start with a fresh Solver.
//
//	go test ./solver -run '^$' -bench Solve6x6 -benchtime 1x
func BenchmarkSolve6x6(b *testing.B) {
	benchmarkStart(b, 6)
}

// BenchmarkSolve5x5 solves 5x5 from the start with a fresh Solver.
func BenchmarkSolve5x5(b *testing.B) {
	benchmarkStart(b, 5)
}

func benchmarkStart(b *testing.B, size int) {
	var nodes uint64
	for b.Loop() {
		s := New()
		if _, err := s.SolveStart(context.Background(), size, nil); err != nil {
			b.Fatal(err)
		}
		nodes += s.Stats().Nodes
	}
	sec := b.Elapsed().Seconds()
	b.ReportMetric(sec/float64(b.N), "s/solve")
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/solve")
	b.ReportMetric(float64(nodes)/sec, "nodes/s")
}
