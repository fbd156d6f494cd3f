package kernel

import (
	"fmt"
	"math"
)

// fmaBLAS is the Sgemmer of the default build on amd64, the package's own
// kernel (Kernel). Every output of its Sgemm is
// computed by the same sequence of fused multiply-adds whatever the
// kernel, the shape or the block of rows:
//
//	acc = beta·C[i,j]  (C[i,j] when beta = 1, 0 when beta = 0)
//	acc = fma(op(A)[i,p], op(B)[p,j], acc)  for p = 0, 1, …, k-1
//	C[i,j] = alpha·acc  (acc when alpha = 1)
//
// each step rounded once to float32. The AVX-512, AVX2+FMA and portable
// kernels therefore give bit-identical results, a row's result does not
// depend on the rows around it (no padding of tails), and a model gives
// the same numbers on every CPU.
type fmaBLAS struct{}

// Kernel is one implementation of the multiply-add loop of fmaBLAS.
type Kernel int

const (
	kernelPortable Kernel = iota // pure Go, any CPU (fma32)
	kernelAVX2                   // amd64 AVX2+FMA assembly
	kernelAVX512                 // amd64 AVX-512F assembly
)

func (k Kernel) String() string {
	switch k {
	case kernelAVX2:
		return "AVX2+FMA"
	case kernelAVX512:
		return "AVX-512"
	}
	return "portable"
}

// kernel is the kernel fmaBLAS uses: the best this CPU and build have
// (BestKernel), or the one a test forces (UseKernel).
var kernel = BestKernel()

// Kernels lists the kernels this CPU and build can run, portable first.
func Kernels() []Kernel {
	ks := []Kernel{kernelPortable}
	if haveAVX2 {
		ks = append(ks, kernelAVX2)
	}
	if haveAVX512 {
		ks = append(ks, kernelAVX512)
	}
	return ks
}

// BestKernel is the fastest kernel this CPU and build can run. AVX-512
// is preferred where it is available: see docs/results/2026-12-02-kernels.md.
func BestKernel() Kernel {
	ks := Kernels()
	return ks[len(ks)-1]
}

// UseKernel makes fmaBLAS use k (tests and benchmarks only; not safe
// while products run) and returns a function that restores the previous
// kernel.
func UseKernel(k Kernel) (restore func()) {
	prev := kernel
	kernel = k
	return func() { kernel = prev }
}

// Sgemm computes C = alpha·op(A)·op(B) + beta·C, each output by the
// sequence of fused multiply-adds stated on fmaBLAS. It panics, as gonum
// does, on a slice too short for its dimensions.
func (fmaBLAS) Sgemm(tA, tB Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	checkGemm(tA, tB, m, n, k, a, lda, b, ldb, c, ldc)
	if m == 0 || n == 0 {
		return
	}
	if beta != 1 {
		for i := range m {
			row := c[i*ldc : i*ldc+n]
			if beta == 0 {
				clear(row)
				continue
			}
			for j := range row {
				row[j] *= beta
			}
		}
	}
	if k == 0 || alpha == 0 {
		return
	}
	if alpha != 1 {
		// Rare (not in the network): the products into a scratch C of
		// zeros, then scaled and added, the same on every kernel.
		t := make([]float32, m*n)
		fmaBLAS{}.Sgemm(tA, tB, m, n, k, 1, a, lda, b, ldb, 0, t, n)
		for i := range m {
			for j, v := range t[i*n : (i+1)*n] {
				c[i*ldc+j] += alpha * v
			}
		}
		return
	}
	if tB != NoTrans {
		// Not in the network: B laid out untransposed first.
		t := make([]float32, k*n)
		for p := range k {
			for j := range n {
				t[p*n+j] = b[j*ldb+p]
			}
		}
		b, ldb = t, n
	}
	// op(A)[i,p] is a[i*rs + p*ks].
	rs, ks := lda, 1
	if tA != NoTrans {
		rs, ks = 1, lda
	}
	switch kernel {
	case kernelAVX512, kernelAVX2:
		gemmAsm(kernel, m, n, k, a, rs, ks, b, ldb, c, ldc)
	default:
		gemmPortable(m, n, k, a, rs, ks, b, ldb, c, ldc)
	}
}

// checkGemm panics if a, b or c is too short for the product.
func checkGemm(tA, tB Transpose, m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	if m < 0 || n < 0 || k < 0 {
		panic(fmt.Sprintf("net: sgemm of %d×%d×%d", m, n, k))
	}
	ar, ac := m, k
	if tA != NoTrans {
		ar, ac = k, m
	}
	br, bc := k, n
	if tB != NoTrans {
		br, bc = n, k
	}
	short := func(s []float32, rows, cols, ld int) bool {
		if rows == 0 || cols == 0 {
			return false
		}
		return ld < cols || len(s) < (rows-1)*ld+cols
	}
	if short(a, ar, ac, lda) || short(b, br, bc, ldb) || short(c, m, n, ldc) {
		panic(fmt.Sprintf("net: sgemm %d×%d×%d: a slice is too short or a stride too small (len %d, %d, %d; strides %d, %d, %d)",
			m, n, k, len(a), len(b), len(c), lda, ldb, ldc))
	}
}

// gemmPortable is C += op(A)·B with C as the initial accumulators: the
// kernel of every CPU, and the definition the assembly kernels match bit
// for bit. op(A)[i,p] is a[i*rs+p*ks].
func gemmPortable(m, n, k int, a []float32, rs, ks int, b []float32, ldb int, c []float32, ldc int) {
	for i := range m {
		cr := c[i*ldc : i*ldc+n]
		j := 0
		for ; j+4 <= n; j += 4 {
			// Four accumulators in registers, four independent chains.
			c0, c1, c2, c3 := cr[j], cr[j+1], cr[j+2], cr[j+3]
			for p := range k {
				av := a[i*rs+p*ks]
				br := b[p*ldb+j : p*ldb+j+4]
				r0, ok0 := fma32Fast(av, br[0], c0)
				r1, ok1 := fma32Fast(av, br[1], c1)
				r2, ok2 := fma32Fast(av, br[2], c2)
				r3, ok3 := fma32Fast(av, br[3], c3)
				if !(ok0 && ok1 && ok2 && ok3) {
					r0, r1 = fma32(av, br[0], c0), fma32(av, br[1], c1)
					r2, r3 = fma32(av, br[2], c2), fma32(av, br[3], c3)
				}
				c0, c1, c2, c3 = r0, r1, r2, r3
			}
			cr[j], cr[j+1], cr[j+2], cr[j+3] = c0, c1, c2, c3
		}
		for ; j < n; j++ {
			acc := cr[j]
			for p := range k {
				acc = fma32(a[i*rs+p*ks], b[p*ldb+j], acc)
			}
			cr[j] = acc
		}
	}
}

// fma32 returns x·y+z rounded once to float32, as the FMA instructions
// of the assembly kernels do. x·y is exact in float64 (24+24 bits), so
// the float64 sum s is x·y+z rounded once; rounding s to float32 then
// gives the correctly rounded result unless s landed exactly on a
// midpoint between two float32s (rounding to nearest is monotonic and
// every midpoint is a float64), or the result is subnormal in float32,
// where the midpoints fall elsewhere: those rare cases take fma32Exact.
func fma32(x, y, z float32) float32 {
	if r, ok := fma32Fast(x, y, z); ok {
		return r
	}
	return fma32Exact(x, y, z)
}

// fma32Fast is fma32 but for the rare cases, where ok is false: small
// enough to be inlined into the kernel's loop.
func fma32Fast(x, y, z float32) (r float32, ok bool) {
	s := float64(x)*float64(y) + float64(z)
	bits := math.Float64bits(s)
	const (
		low      = 1<<29 - 1          // the bits float32 drops
		midpoint = 1 << 28            // … when s is halfway
		minNorm  = 0x3810000000000000 // 2⁻¹²⁶, the least normal float32
	)
	return float32(s), bits&low != midpoint && bits&^(1<<63) >= minNorm
}

// fma32Exact is fma32 by rounding to odd: the float64 sum is rounded,
// then, if it was inexact and its last bit is 0, moved one step towards
// the exact sum, whose error TwoSum gives exactly. With 53 ≥ 24+2 bits,
// rounding that to float32 is the correctly rounded result, subnormals
// included. A plain float32(float64(x)*float64(y)+float64(z)) rounds
// twice and can differ in the last bit: a sum just below the midpoint of
// two float32s that float64 rounds onto the midpoint, and the tie then
// goes to the even one.
func fma32Exact(x, y, z float32) float32 {
	p := float64(x) * float64(y)
	zz := float64(z)
	s := p + zz
	v := s - p
	e := (p - (s - v)) + (zz - v) // s + e = p + zz exactly (TwoSum)
	if e == 0 || e != e {         // exact; e is NaN for an infinite s
		return float32(s)
	}
	bits := math.Float64bits(s)
	if bits&1 == 0 {
		// One step away from zero if e has s's sign, else towards it.
		if (e > 0) == (s > 0) {
			bits++
		} else {
			bits--
		}
	}
	return float32(math.Float64frombits(bits))
}
