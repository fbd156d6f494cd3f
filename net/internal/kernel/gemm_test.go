package kernel

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// forEachKernel runs f with each kernel this CPU and build can run
// forced (portable, AVX2+FMA, AVX-512).
func forEachKernel(t *testing.T, f func(t *testing.T, k Kernel)) {
	for _, k := range Kernels() {
		t.Run(k.String(), func(t *testing.T) {
			defer UseKernel(k)()
			f(t, k)
		})
	}
}

// exactFMA32 is x·y+z rounded once to float32, computed exactly.
func exactFMA32(x, y, z float32) float32 {
	p := new(big.Float).SetPrec(2000).SetFloat64(float64(x))
	p.Mul(p, new(big.Float).SetFloat64(float64(y)))
	p.Add(p, new(big.Float).SetFloat64(float64(z)))
	f, _ := p.Float32() // nearest, ties to even
	return f
}

func finite(x float32) bool { return !math.IsNaN(float64(x)) && !math.IsInf(float64(x), 0) }

// TestFMA32 checks the portable fused multiply-add against the exact
// result on random operands and on the cases where rounding twice
// (float64, then float32) is wrong, and the assembly kernels' FMA with
// k = 1 against it.
func TestFMA32(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 35))
	type op struct{ x, y, z float32 }
	ops := []op{
		// (1+2⁻²³) + 2⁻²⁴ − 2⁻⁷⁰: just below the midpoint of 1+2⁻²³ and
		// 1+2⁻²², which float64 rounds onto the midpoint, and the tie
		// then goes to the even 1+2⁻²².
		{1 + 1.0/(1<<23), (1 - 1.0/(1<<23)) / (1 << 24), 1 + 1.0/(1<<23)},
		{float32(math.Nextafter32(1, 2)), float32(math.Nextafter32(1, 0)), -1},
		{3, 1.0 / 3, -1},
		{float32(math.MaxFloat32), 2, 0},
		{float32(math.SmallestNonzeroFloat32), 0.5, 0},
		{1e-30, 1e-30, float32(math.SmallestNonzeroFloat32)},
	}
	doubles := 0
	for range 200000 {
		x := math.Float32frombits(rng.Uint32())
		y := math.Float32frombits(rng.Uint32())
		z := math.Float32frombits(rng.Uint32())
		if rng.IntN(2) == 0 {
			// Operands near each other's scale, where cancellation and
			// ties happen.
			x = float32(rng.NormFloat64())
			y = 1 + float32(rng.IntN(1<<12))/(1<<23)
			z = -x * y * (1 + float32(rng.IntN(64)-32)/(1<<24))
		}
		if finite(x) && finite(y) && finite(z) {
			ops = append(ops, op{x, y, z})
		}
	}
	for range 100000 {
		// Results around the least normal float32 and below.
		x := float32(rng.NormFloat64() * 1e-19)
		y := float32(rng.NormFloat64() * 1e-19)
		z := float32(rng.NormFloat64() * 1e-38)
		ops = append(ops, op{x, y, z})
	}
	for _, o := range ops {
		if got := fma32Exact(o.x, o.y, o.z); math.Float32bits(got) != math.Float32bits(exactFMA32(o.x, o.y, o.z)) {
			t.Fatalf("fma32Exact(%g, %g, %g) = %g, want %g", o.x, o.y, o.z, got, exactFMA32(o.x, o.y, o.z))
		}
		want := exactFMA32(o.x, o.y, o.z)
		if got := fma32(o.x, o.y, o.z); math.Float32bits(got) != math.Float32bits(want) {
			t.Fatalf("fma32(%g, %g, %g) = %g, want %g", o.x, o.y, o.z, got, want)
		}
		if float32(float64(o.x)*float64(o.y)+float64(o.z)) != want {
			doubles++
		}
	}
	if doubles == 0 {
		t.Errorf("no case where rounding twice is wrong")
	}
	t.Logf("rounding twice was wrong on %d of %d", doubles, len(ops))
	forEachKernel(t, func(t *testing.T, k Kernel) {
		for _, o := range ops[:20000] {
			c := []float32{o.z}
			fmaBLAS{}.Sgemm(NoTrans, NoTrans, 1, 1, 1, 1, []float32{o.x}, 1, []float32{o.y}, 1, 1, c, 1)
			if want := exactFMA32(o.x, o.y, o.z); math.Float32bits(c[0]) != math.Float32bits(want) {
				t.Fatalf("%v: %g·%g+%g = %g, want %g", k, o.x, o.y, o.z, c[0], want)
			}
		}
	})
}

// gemmDef is the definition of fmaBLAS.Sgemm with alpha = 1 and beta 0
// or 1, one output at a time.
func gemmDef(tA bool, m, n, k int, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	for i := range m {
		for j := range n {
			acc := c[i*ldc+j]
			if beta == 0 {
				acc = 0
			}
			for p := range k {
				var av float32
				if tA {
					av = a[p*lda+i]
				} else {
					av = a[i*lda+p]
				}
				acc = fma32(av, b[p*ldb+j], acc)
			}
			c[i*ldc+j] = acc
		}
	}
}

// operand returns a slice of exactly n random numbers, starting off
// floats into its allocation and ending at the end of it: where the
// system allows, right before an inaccessible page (guarded), so that a
// kernel reading past the end faults.
func operand(rng *rand.Rand, n, off int) []float32 {
	s := guarded(n + off)[off:]
	for i := range s {
		s[i] = float32(rng.NormFloat64())
	}
	return s
}

// TestGemmKernels is the property test of fmaBLAS.Sgemm: on random
// shapes (the network's and odd ones: tails of every width, single rows,
// k = 1), both layouts of A, strides wider than the rows, slices of
// exactly the needed length starting 1–7 floats into their allocation,
// every kernel gives the definition's numbers bit for bit, writes
// nothing outside C's m×n window, and is within 1e-5 relative of the
// float64 product.
func TestGemmKernels(t *testing.T) {
	type shape struct {
		tA      bool
		m, n, k int
	}
	shapes := []shape{
		{false, 64, 32, 288}, {false, 64, 32, 99}, {false, 36, 32, 288}, {false, 49, 32, 288}, {false, 25, 32, 288},
		{false, 64, 13, 32}, {false, 64, 9, 32}, {false, 64, 288, 32}, {true, 32, 48, 4096}, {true, 32, 48, 257},
		{false, 1, 1, 1}, {true, 1, 1, 1}, {false, 3, 33, 5}, {true, 7, 17, 3},
	}
	rng := rand.New(rand.NewPCG(2, 35))
	for range 150 {
		shapes = append(shapes, shape{rng.IntN(2) == 0, 1 + rng.IntN(70), 1 + rng.IntN(70), 1 + rng.IntN(300)})
	}
	if testing.Short() {
		shapes = shapes[:60]
	}
	for si, s := range shapes {
		off := 1 + si%7
		lda, ldb, ldc := s.k+si%3, s.n+si%2, s.n+si%4
		ar, ac := s.m, s.k
		if s.tA {
			ar, ac, lda = s.k, s.m, s.m+si%3
		}
		a := operand(rng, (ar-1)*lda+ac, off)
		b := operand(rng, (s.k-1)*ldb+s.n, (off+3)%7+1)
		c0 := operand(rng, (s.m-1)*ldc+s.n, (off+5)%7+1)
		for i := range c0 {
			if i%ldc >= s.n {
				c0[i] = float32(math.NaN()) // outside the window
			}
		}
		tA := Transpose(s.tA)
		for _, beta := range []float32{0, 1} {
			want := append([]float32(nil), c0...)
			gemmDef(s.tA, s.m, s.n, s.k, a, lda, b, ldb, beta, want, ldc)
			for _, k := range Kernels() {
				restore := UseKernel(k)
				c := operand(rng, len(c0), off)
				copy(c, c0)
				fmaBLAS{}.Sgemm(tA, NoTrans, s.m, s.n, s.k, 1, a, lda, b, ldb, beta, c, ldc)
				restore()
				for i := range c {
					if math.Float32bits(c[i]) != math.Float32bits(want[i]) {
						t.Fatalf("%v, shape %+v, beta %g, strides %d %d %d: c[%d,%d] = %g, want %g",
							k, s, beta, lda, ldb, ldc, i/ldc, i%ldc, c[i], want[i])
					}
				}
			}
			// Against float64.
			for i := range s.m {
				for j := range s.n {
					var acc, mag float64
					if beta == 1 {
						acc, mag = float64(c0[i*ldc+j]), math.Abs(float64(c0[i*ldc+j]))
					}
					for p := range s.k {
						var av float32
						if s.tA {
							av = a[p*lda+i]
						} else {
							av = a[i*lda+p]
						}
						acc += float64(av) * float64(b[p*ldb+j])
						mag += math.Abs(float64(av) * float64(b[p*ldb+j]))
					}
					if d := math.Abs(float64(want[i*ldc+j]) - acc); d > 1e-6*mag*math.Sqrt(float64(s.k)) {
						t.Fatalf("shape %+v: c[%d,%d] = %g, float64 %g", s, i, j, want[i*ldc+j], acc)
					}
				}
			}
		}
	}
}

// TestGemmRowIndependence: a row's result is the same whether it is
// computed alone, at any place of a block, or in a block of any size.
func TestGemmRowIndependence(t *testing.T) {
	const m, n, k = 70, 45, 100
	rng := rand.New(rand.NewPCG(3, 35))
	a, b := operand(rng, m*k, 0), operand(rng, k*n, 0)
	forEachKernel(t, func(t *testing.T, kn Kernel) {
		all := make([]float32, m*n)
		fmaBLAS{}.Sgemm(NoTrans, NoTrans, m, n, k, 1, a, k, b, n, 0, all, n)
		for _, size := range []int{1, 3, 5, 64} {
			for i0 := 0; i0 < m; i0 += size {
				rows := min(size, m-i0)
				c := make([]float32, rows*n)
				fmaBLAS{}.Sgemm(NoTrans, NoTrans, rows, n, k, 1, a[i0*k:], k, b, n, 0, c, n)
				for i := range c {
					if c[i] != all[i0*n+i] {
						t.Fatalf("block of %d at row %d: row %d differs", size, i0, i0+i/n)
					}
				}
			}
		}
	})
}

// TestGemmGeneral: alpha ≠ 1, beta ∉ {0, 1} and a transposed B, which
// the network does not use, are within float32 rounding of gonum's.
func TestGemmGeneral(t *testing.T) {
	const m, n, k = 9, 11, 13
	rng := rand.New(rand.NewPCG(4, 35))
	a, b, c0 := operand(rng, m*k, 0), operand(rng, k*n, 0), operand(rng, m*n, 0)
	for _, tB := range []Transpose{NoTrans, Trans} {
		ldb := n
		if tB == Trans {
			ldb = k
		}
		want := append([]float32(nil), c0...)
		gonumRef{}.Sgemm(NoTrans, tB, m, n, k, 0.5, a, k, b, ldb, -2, want, n)
		forEachKernel(t, func(t *testing.T, kn Kernel) {
			c := append([]float32(nil), c0...)
			fmaBLAS{}.Sgemm(NoTrans, tB, m, n, k, 0.5, a, k, b, ldb, -2, c, n)
			for i := range c {
				if math.Abs(float64(c[i]-want[i])) > 1e-5*(1+math.Abs(float64(want[i]))) {
					t.Fatalf("tB transposed %v: c[%d] = %g, gonum %g", tB, i, c[i], want[i])
				}
			}
		})
	}
}

// BenchmarkGemm measures the products of the default 8x8 network (one
// block of a 3x3 convolution, and of towers of 64 and 48 filters, the policy's 1x1 convolution, the input
// gradient's block, a part of the weight gradient) with each kernel and,
// for comparison, with gonum's Sgemm.
func BenchmarkGemm(b *testing.B) {
	type shape struct {
		name    string
		tA      bool
		m, n, k int
	}
	for _, s := range []shape{{"conv3x3", false, 64, 32, 288}, {"conv3x3f64", false, 64, 64, 576}, {"conv3x3f48", false, 64, 48, 432}, {"policy1x1", false, 64, 13, 32}, {"gradx", false, 64, 288, 32}, {"gradw", true, 32, 48, 4096}} {
		rng := rand.New(rand.NewPCG(5, 35))
		lda := s.k
		if s.tA {
			lda = s.m
		}
		a, bm, c := operand(rng, s.m*s.k, 0), operand(rng, s.k*s.n, 0), make([]float32, s.m*s.n)
		tA := Transpose(s.tA)
		flops := 2 * float64(s.m*s.n*s.k)
		run := func(name string, impl Sgemmer) {
			b.Run(s.name+"/"+name, func(b *testing.B) {
				for range b.N {
					impl.Sgemm(tA, NoTrans, s.m, s.n, s.k, 1, a, lda, bm, s.n, 0, c, s.n)
				}
				b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
		run("gonum", gonumRef{})
		for _, k := range Kernels() {
			restore := UseKernel(k)
			run(k.String(), fmaBLAS{})
			restore()
		}
	}
}

// TestFusedLinearKernels: a block of one position's rows of Linear
// (3x3 with its implicit gather, or 1x1; with and without bias, residual
// and ReLU; filters filling 32-column panels or not) and the row sums
// and additions of the global pooling and the products with a row per
// position give the same bits with every kernel — on AVX-512 the fused
// kernel (linearRows8; the last rows of a block, when fewer than 8, with
// its tail scratch and without, by the separate passes), elsewhere the
// separate passes.
// Inputs hold zeros of both signs and negative numbers, so the ReLU and
// the initial accumulators meet them.
func TestFusedLinearKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 35))
	signed := func(n int) []float32 {
		s := operand(rng, n, 0)
		for i := range s {
			switch rng.IntN(8) {
			case 0:
				s[i] = 0
			case 1:
				s[i] = float32(math.Copysign(0, -1))
			}
		}
		return s
	}
	type shape struct{ w, h, c, f int }
	for _, s := range []shape{{8, 8, 32, 32}, {6, 6, 7, 13}, {7, 7, 32, 48}, {5, 3, 3, 64}, {8, 8, 16, 33}, {2, 2, 5, 40}} {
		g := Grid{s.w, s.h}
		nn := g.NN()
		for _, gather := range []bool{true, false} {
			for variant := range 8 {
				bias, res, relu := variant&1 != 0, variant&2 != 0, variant&4 != 0
				k := s.c
				o := &Linear{rows: 2 * nn, f: s.f, block: nn, bias: bias, res: res, relu: relu}
				if gather {
					o.gather, k = g, 9*s.c
				}
				o.k = k
				o.prepareFused()
				x := signed(2 * nn * s.c)
				if !gather {
					x = signed(2 * nn * k)
				}
				a := linearArgs[float32]{x: x, w: signed(k * s.f)}
				if bias {
					a.b = signed(s.f)
				}
				if res {
					a.h = signed(2 * nn * s.f)
				}
				var want []float32
				tail := o.tail32
				for pass, kn := range append(Kernels(), BestKernel()) {
					if pass == len(Kernels()) {
						o.tail32 = nil // the last rows by the separate passes
					}
					restore := UseKernel(kn)
					a.y = signed(2 * nn * s.f)
					scratch := [][]float32{make([]float32, nn*k)}
					for blk := range 2 {
						linearForward(o, a, scratch, blk*nn, (blk+1)*nn, 0)
					}
					restore()
					o.tail32 = tail
					if want == nil {
						want = a.y
						continue
					}
					for i := range want {
						if math.Float32bits(a.y[i]) != math.Float32bits(want[i]) {
							t.Fatalf("%v, %+v, gather %v, bias %v, res %v, relu %v: y[%d] = %g, want %g",
								kn, s, gather, bias, res, relu, i, a.y[i], want[i])
						}
					}
				}
			}
		}
		// A product with a row per position (block 0: the pooling's and
		// the value head's), its plain loop by vectors on AVX-512.
		{
			o := &Linear{rows: 3, k: s.c + 30, f: s.f, bias: true, relu: true}
			a := linearArgs[float32]{x: signed(3 * o.k), w: signed(o.k * o.f), b: signed(o.f)}
			var want []float32
			for _, kn := range Kernels() {
				restore := UseKernel(kn)
				a.y = signed(3 * o.f)
				linearForward(o, a, nil, 0, 3, 0)
				restore()
				if want == nil {
					want = a.y
					continue
				}
				for i := range want {
					if math.Float32bits(a.y[i]) != math.Float32bits(want[i]) {
						t.Fatalf("%v, %+v, a row per position: y[%d] = %g, want %g", kn, s, i, a.y[i], want[i])
					}
				}
			}
		}
		// The global pooling's sums and the per-position bias.
		x, pb := signed(2*nn*s.f), signed(2*s.f)
		var wantSum, wantAdd []float32
		for _, kn := range Kernels() {
			restore := UseKernel(kn)
			sum, add := signed(2*s.f), signed(2*nn*s.f)
			SpatialSum(x, sum, nn, s.f, 1/float32(nn))
			SpreadRows(x, pb, add, nn, s.f, 1)
			restore()
			if wantSum == nil {
				wantSum, wantAdd = sum, add
				continue
			}
			for i := range sum {
				if math.Float32bits(sum[i]) != math.Float32bits(wantSum[i]) {
					t.Fatalf("%v, %+v: spatial sum %d = %g, want %g", kn, s, i, sum[i], wantSum[i])
				}
			}
			for i := range add {
				if math.Float32bits(add[i]) != math.Float32bits(wantAdd[i]) {
					t.Fatalf("%v, %+v: per-position add %d = %g, want %g", kn, s, i, add[i], wantAdd[i])
				}
			}
		}
	}
}

// gonumRef is gonum's Sgemm, the reference of the tests and benchmarks.
type gonumRef struct{}

func (gonumRef) Sgemm(tA, tB Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	t := func(x Transpose) blas.Transpose {
		if x == Trans {
			return blas.Trans
		}
		return blas.NoTrans
	}
	gonum.Implementation{}.Sgemm(t(tA), t(tB), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}
