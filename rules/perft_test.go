package rules

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"
)

// perftTotals sums Perft over every opening of a size.
func perftTotals(size, depth int) []uint64 {
	total := make([]uint64, depth)
	for _, o := range Openings(size) {
		Perft(o.Position, total)
	}
	return total
}

// TestPerft pins the number of move sequences of each length after the
// two removals, summed over every opening (published reference counts).
// The deepest level runs only without -short.
func TestPerft(t *testing.T) {
	for _, tc := range []struct {
		size int
		want []uint64
	}{
		{8, []uint64{28, 172, 892, 7124, 52044, 508088, 4633660}},
		{6, []uint64{28, 156, 668, 4192, 22676, 162288, 1030412}},
	} {
		t.Run(fmt.Sprintf("%dx%d", tc.size, tc.size), func(t *testing.T) {
			want := tc.want
			if testing.Short() {
				want = want[:len(want)-1]
			}
			if got := perftTotals(tc.size, len(want)); !slices.Equal(got, want) {
				t.Fatalf("perft totals %v, want %v", got, want)
			}
		})
	}
}

// TestPerftAgreesWithSlowGenerator counts the same sequences with the grid
// generator of slowgen_test.go on every size, to shallower depths.
func TestPerftAgreesWithSlowGenerator(t *testing.T) {
	depth := 7
	if testing.Short() {
		depth = 4
	}
	var slowPerft func(p Position, counts []uint64)
	slowPerft = func(p Position, counts []uint64) {
		moves := slowLegalMoves(p)
		counts[0] += uint64(len(moves))
		if len(counts) > 1 {
			for _, m := range moves {
				slowPerft(slowPlay(p, m), counts[1:])
			}
		}
	}
	for n := MinSize; n <= MaxSize; n++ {
		fast := make([]uint64, depth+2)
		slow := make([]uint64, depth+2)
		Perft(NewPosition(n), fast) // the removals included
		slowPerft(NewPosition(n), slow)
		if !slices.Equal(fast, slow) {
			t.Errorf("%dx%d from the start: Perft %v, slow generator %v", n, n, fast, slow)
		}
	}
}

// TestPerftPerOpening checks the per-opening lines: their sum is the
// total, counting from the start (removals included) gives the same
// numbers two levels down, openings that are images of each other under a
// symmetry have identical lines, and Perft leaves its position unchanged.
func TestPerftPerOpening(t *testing.T) {
	const depth = 5
	for _, n := range []int{6, 8} {
		total := make([]uint64, depth)
		lines := map[[2]Move][]uint64{}
		for _, o := range Openings(n) {
			before := o.Position
			counts := make([]uint64, depth)
			Perft(o.Position, counts)
			if o.Position != before {
				t.Fatalf("%dx%d: Perft changed the position", n, n)
			}
			lines[[2]Move{o.Black, o.White}] = counts
			for i, c := range counts {
				total[i] += c
			}
		}
		fromStart := make([]uint64, depth+2)
		Perft(NewPosition(n), fromStart)
		if !slices.Equal(fromStart[2:], total) {
			t.Errorf("%dx%d: from the start %v, sum of openings %v", n, n, fromStart[2:], total)
		}
		if fromStart[1] != uint64(len(Openings(n))) {
			t.Errorf("%dx%d: %d removal pairs, %d openings", n, n, fromStart[1], len(Openings(n)))
		}
		// Symmetric openings: every opening's image must have the same line.
		pairs := 0
		for _, o := range Openings(n) {
			for s := Symmetry(0); s < NumSymmetries; s++ {
				key := [2]Move{s.Move(o.Black, n), s.Move(o.White, n)}
				img, ok := lines[key]
				if !ok {
					continue // the image is not an opening (a corner holding White)
				}
				pairs++
				if !slices.Equal(img, lines[[2]Move{o.Black, o.White}]) {
					t.Errorf("%dx%d: opening %v %v gives %v but its %v image %v %v gives %v",
						n, n, o.Black, o.White, lines[[2]Move{o.Black, o.White}], s, key[0], key[1], img)
				}
			}
		}
		if pairs < 2*len(lines) {
			t.Errorf("%dx%d: only %d symmetric pairs of openings compared", n, n, pairs)
		}
	}
	// Two 8x8 lines whose first level is worked out by hand: Black lands
	// only on squares of its own colour, so after d4 e4 only d4 can be
	// reached (from b4, d2 and d6, over c4, d3 and d5), and after a1 b1 only
	// a1 (from a3 over a2; c1 has no stone to jump on b1). Each deeper level
	// is the sum of the level above over the first moves.
	for _, tc := range []struct {
		black, white string
		first        []string
	}{
		{"d4", "e4", []string{"b4-d4", "d2-d4", "d6-d4"}},
		{"a1", "b1", []string{"a3-a1"}},
	} {
		p := mustPlay(t, NewPosition(8), tc.black, tc.white)
		counts := make([]uint64, depth)
		Perft(p, counts)
		if got := moveStrings(p.LegalMoves(nil)); !slices.Equal(got, tc.first) {
			t.Errorf("8x8 %s %s: first moves %v, want %v", tc.black, tc.white, got, tc.first)
		}
		if counts[0] != uint64(len(tc.first)) {
			t.Errorf("8x8 %s %s: level 1 is %d, want %d", tc.black, tc.white, counts[0], len(tc.first))
		}
		sum := make([]uint64, depth-1)
		for _, m := range p.LegalMoves(nil) {
			Perft(p.Play(m), sum)
		}
		if !slices.Equal(counts[1:], sum) {
			t.Errorf("8x8 %s %s: levels 2.. are %v, sum over the first moves %v", tc.black, tc.white, counts[1:], sum)
		}
	}
}

// TestPerftContext: without cancellation PerftContext counts what Perft
// counts; cancelled in the middle of a walk that would take hours (8x8,
// depth 14, one opening) it returns context.Canceled promptly instead of
// finishing the opening.
func TestPerftContext(t *testing.T) {
	o := Openings(6)[0]
	want := make([]uint64, 5)
	Perft(o.Position, want)
	got := make([]uint64, 5)
	if err := PerftContext(context.Background(), o.Position, got); err != nil || !slices.Equal(got, want) {
		t.Errorf("PerftContext = %v, %v; Perft %v", got, err, want)
	}

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- PerftContext(ctx, Openings(8)[0].Position, make([]uint64, 14)) }()
	time.Sleep(20 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled walk returned %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second): // generous for a loaded machine; BenchmarkPerftCancel measures
		t.Fatal("PerftContext did not stop within 10 s of the cancellation")
	}
}

// BenchmarkPerftCancel measures how long a deep walk (8x8, depth 14) takes
// to return after its context is cancelled. Target: well under 100 ms.
func BenchmarkPerftCancel(b *testing.B) {
	p := Openings(8)[0].Position
	var worst time.Duration
	for b.Loop() {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			PerftContext(ctx, p, make([]uint64, 14))
			close(done)
		}()
		time.Sleep(5 * time.Millisecond)
		start := time.Now()
		cancel()
		<-done
		worst = max(worst, time.Since(start))
	}
	b.ReportMetric(float64(worst.Microseconds()), "worst-µs-to-stop")
}

// BenchmarkPerft counts every opening of 8x8 to depth 7 (4.6M leaves) and
// reports leaves per second on one core. Target: ≥150M leaves/s.
func BenchmarkPerft(b *testing.B) {
	const depth = 7
	openings := Openings(8)
	var leaves uint64
	b.ResetTimer()
	for b.Loop() {
		counts := make([]uint64, depth)
		for _, o := range openings {
			Perft(o.Position, counts)
		}
		leaves += counts[depth-1]
	}
	b.ReportMetric(float64(leaves)/b.Elapsed().Seconds(), "leaves/s")
}
