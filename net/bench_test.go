package net

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/konanezero/konane/net/internal/kernel"
	"github.com/konanezero/konane/net/internal/nettestutil"
	"github.com/konanezero/konane/rules"
)

// sgemmShape is the matrix product of one 3x3 convolution of the default
// 8x8 network at the default self-play batch of 32: one row per (position,
// square), K = 9·32 inputs per row, 32 filters.
var sgemmShape = struct{ m, n, k int }{m: 32 * 64, n: 32, k: 9 * 32}

// sgemmRun computes the conv-shaped product C = A·B with the base BLAS
// of this build (Backend), its rows split over threads goroutines.
type sgemmRun struct {
	a, b, c []float32
}

func newSgemmRun() *sgemmRun {
	s := sgemmShape
	r := &sgemmRun{a: make([]float32, s.m*s.k), b: make([]float32, s.n*s.k), c: make([]float32, s.m*s.n)}
	for i := range r.a {
		r.a[i] = float32(i%7) * 0.25
	}
	for i := range r.b {
		r.b[i] = float32(i%5) * 0.5
	}
	return r
}

func (r *sgemmRun) do(threads int) {
	s := sgemmShape
	if threads == 1 {
		kernel.Default.Base.Sgemm(kernel.NoTrans, kernel.NoTrans, s.m, s.n, s.k, 1, r.a, s.k, r.b, s.n, 0, r.c, s.n)
		return
	}
	var wg sync.WaitGroup
	per := (s.m + threads - 1) / threads
	for t := 0; t < threads; t++ {
		i0 := t * per
		rows := min(per, s.m-i0)
		wg.Add(1)
		go func() {
			defer wg.Done()
			kernel.Default.Base.Sgemm(kernel.NoTrans, kernel.NoTrans, rows, s.n, s.k, 1, r.a[i0*s.k:], s.k, r.b, s.n, 0, r.c[i0*s.n:], s.n)
		}()
	}
	wg.Wait()
}

// rowBlocks computes the same product the way the network does: through
// rowBLAS, in blocks of one position's 64 rows spread over the cores.
func (r *sgemmRun) rowBlocks() {
	s := sgemmShape
	kernel.Default.SgemmBlocks(64, kernel.NoTrans, kernel.NoTrans, s.m, s.n, s.k, 1, r.a, s.k, r.b, s.n, 0, r.c, s.n)
}

func sgemmFlops() float64 {
	s := sgemmShape
	return 2 * float64(s.m) * float64(s.n) * float64(s.k)
}

// BenchmarkSgemm measures the limit of this machine and build: the BLAS
// the network uses (Backend), on the shape of a convolution of the default
// 8x8 network at the default self-play batch, with 1 and 2 threads (and,
// for comparison, in the row blocks the network actually runs). The peak
// that BenchmarkEvaluate reports against is the best of threads=1 and 2.
func BenchmarkSgemm(b *testing.B) {
	r := newSgemmRun()
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(threads))
			for i := 0; i < b.N; i++ {
				r.do(threads)
			}
			b.ReportMetric(sgemmFlops()*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
	b.Run("rowblocks", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			r.rowBlocks()
		}
		b.ReportMetric(sgemmFlops()*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	})
}

var (
	peakOnce sync.Once
	peak     float64
)

// sgemmPeak returns the best GFLOP/s of BenchmarkSgemm's threads=1 and
// threads=2 products, measured once per process (about a second).
func sgemmPeak() float64 {
	peakOnce.Do(func() {
		r := newSgemmRun()
		for _, threads := range []int{1, 2} {
			prev := runtime.GOMAXPROCS(threads)
			// The best of 5 rounds of 100ms each.
			for round := 0; round < 5; round++ {
				n, start := 0, time.Now()
				for time.Since(start) < 100*time.Millisecond {
					r.do(threads)
					n++
				}
				peak = max(peak, sgemmFlops()*float64(n)/time.Since(start).Seconds()/1e9)
			}
			runtime.GOMAXPROCS(prev)
		}
	})
	return peak
}

// BenchmarkEvaluate measures the network's throughput through the
// evaluator (encoding, batching, softmax over legal moves; cache off) for
// the default 8x8 net, one Evaluate call of a full batch per iteration:
// positions/s, GFLOP/s of the network's convolutions and products, and
// that as a percentage of this process's sgemmPeak. Allocations are
// reported: the steady state of the network run allocates nothing.
func BenchmarkEvaluate(b *testing.B) {
	cfg := DefaultConfig(8)
	m := mustModel(b, cfg, 1)
	ps := nettestutil.Positions(8, 64, 1)
	pk := sgemmPeak()
	for _, batch := range []int{1, 16, 32, 64} {
		b.Run(fmt.Sprintf("batch=%d", batch), func(b *testing.B) {
			e := startEvaluator(b, m, EvalOptions{Batch: batch})
			ctx := context.Background()
			in := ps[:batch]
			// Warm up: the first runs allocate the passes' buffers.
			for i := 0; i < 2; i++ {
				if _, err := e.Evaluate(ctx, in); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := e.Evaluate(ctx, in); err != nil {
					b.Fatal(err)
				}
			}
			pos := float64(b.N*batch) / b.Elapsed().Seconds()
			gflops := pos * float64(cfg.FLOPs()) / 1e9
			b.ReportMetric(pos, "positions/s")
			b.ReportMetric(gflops, "GFLOP/s")
			b.ReportMetric(100*gflops/pk, "%peak")
		})
	}
}

// BenchmarkEvaluateBoards measures the default multi-board network
// through the evaluator on AbstractPlay's boards, a full batch of 32
// positions of a random game per call (cache off): 8x8 as Positions
// (Evaluate) and as WidePositions (EvaluateWide), 9x8, 11x8 and 15x12 as
// WidePositions. positions/s is the figure to compare across boards.
func BenchmarkEvaluateBoards(b *testing.B) {
	m := mustModel(b, DefaultMultiBoardConfig(), 1)
	const batch = 32
	for _, bc := range []struct {
		name  string
		board rules.Board
		wide  bool
	}{
		{"8x8", rules.SquareBoard(8), false},
		{"8x8-wide", rules.SquareBoard(8), true},
		{"9x8", rules.Board{W: 9, H: 8, Start: rules.Gap}, true},
		{"11x8", rules.Board{W: 11, H: 8, Start: rules.Gap}, true},
		{"15x12", rules.Board{W: 15, H: 12, Start: rules.Gap}, true},
	} {
		b.Run(bc.name, func(b *testing.B) {
			mb, err := m.ForBoard(bc.board)
			if err != nil {
				b.Fatal(err)
			}
			e := startEvaluator(b, mb, EvalOptions{Batch: batch})
			ctx := context.Background()
			wps := nettestutil.WideBoardPositions(b, bc.board, batch, 1)
			ps := make([]rules.Position, len(wps))
			for i, p := range wps {
				ps[i], _ = p.Narrow()
			}
			eval := func() error {
				if bc.wide {
					_, err := e.EvaluateWide(ctx, wps)
					return err
				}
				_, err := e.Evaluate(ctx, ps)
				return err
			}
			for range 2 { // warm up
				if err := eval(); err != nil {
					b.Fatal(err)
				}
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := eval(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*batch)/b.Elapsed().Seconds(), "positions/s")
		})
	}
}

// BenchmarkEncode measures the input encoding alone.
func BenchmarkEncode(b *testing.B) {
	ps := nettestutil.Positions(8, 64, 1)
	for _, enc := range []Encoding{EncodingOrigins, EncodingCaptures} {
		b.Run(fmt.Sprintf("v%d", enc), func(b *testing.B) {
			dst := make([]float32, enc.EncodedLen(8))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				enc.Encode(ps[i%len(ps)], dst)
			}
		})
	}
}

// BenchmarkEvaluateCores measures how the evaluator shares the 2 cores at
// the default self-play batch: GOMAXPROCS 1 or 2 (the row blocks of every
// product and the other operations spread over the package's helper
// goroutines, see parallel), OpenBLAS's own threads per call 1 or 2 (the
// default is 1), and with the other core idle or busy with a CPU-bound
// goroutine standing for the tree search (random playouts).
func BenchmarkEvaluateCores(b *testing.B) {
	cfg := DefaultConfig(8)
	m := mustModel(b, cfg, 1)
	ps := nettestutil.Positions(8, 32, 1)
	for _, procs := range []int{1, 2} {
		for _, threads := range []int{1, 2} {
			for _, busy := range []bool{false, true} {
				if threads > 1 && !kernel.SetBLASThreads(1) {
					continue // gonum has no threads of its own
				}
				b.Run(fmt.Sprintf("procs=%d/blasthreads=%d/search=%v", procs, threads, busy), func(b *testing.B) {
					defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
					kernel.SetBLASThreads(threads)
					defer kernel.SetBLASThreads(1)
					e := startEvaluator(b, m, EvalOptions{Batch: 32})
					ctx := context.Background()
					var stop atomic.Bool
					var wg sync.WaitGroup
					if busy {
						wg.Add(1)
						go func() {
							defer wg.Done()
							rng := rand.New(rand.NewPCG(1, 2))
							for !stop.Load() {
								rules.Playout(rng, rules.NewPosition(8), -1)
							}
						}()
					}
					defer func() { stop.Store(true); wg.Wait() }() // before the evaluator stops
					if _, err := e.Evaluate(ctx, ps); err != nil {
						b.Fatal(err)
					}
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						if _, err := e.Evaluate(ctx, ps); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(b.N*len(ps))/b.Elapsed().Seconds(), "positions/s")
				})
			}
		}
	}
}
