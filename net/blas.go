package net

import (
	"runtime"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/blas"
	G "gorgonia.org/gorgonia"
)

// rowBlock is the number of rows of a matrix product computed by one call
// of the underlying BLAS: gonum's block size, below which its Sgemm is one
// serial loop.
const rowBlock = 64

// rowBLAS is the BLAS that Gorgonia uses in this package. It computes
// every float32 matrix product in blocks of rowBlock rows, in parallel,
// so that each row of the result is computed by the same sequence of
// operations whatever the number of rows. A convolution is one product
// with a row per (position, square); without this, gonum switches between
// a serial and a blocked parallel algorithm depending on the batch size,
// which changes the rounding, and a position's prediction would depend on
// the batch it was evaluated in. The other operations are the base BLAS's.
//
// padTail is for BLAS libraries whose kernels depend on the number of rows
// (OpenBLAS): a last block of fewer rows, in the untransposed case of
// every forward pass, is then computed as a full block of rowBlock rows.
// OpenBLAS's result for a row also depends on its place in the block (on
// AVX-512, row 60 of a 64-row block can differ in the last bit from the
// same row as row 24): products with a row per (position, square) are
// therefore computed by blocks of exactly one position's rows
// (sgemmBlocks), where every row keeps its place whatever the batch.
type rowBLAS struct {
	G.BLAS
	padTail bool
}

// blasImpl is the rowBLAS that Gorgonia and the network's own operations
// use (see Backend).
var blasImpl rowBLAS

func init() {
	b, pad := baseBLAS()
	blasImpl = rowBLAS{b, pad}
	G.Use(blasImpl)
}

// Sgemm computes C = alpha·op(A)·op(B) + beta·C by blocks of rows of C.
// The calling goroutine and up to GOMAXPROCS-1 of the package's helper
// goroutines (started at the first product of more than one block) take
// blocks in turn; which goroutine computes a block does not change it.
func (r rowBLAS) Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	r.sgemmBlocks(rowBlock, tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// sgemmBlocks is Sgemm by blocks of size rows; with size rowBlock, the
// last block is padded to rowBlock rows if shorter and padTail is set.
func (r rowBLAS) sgemmBlocks(size int, tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if size != rowBlock {
		r.padTail = false // every block has size rows
	}
	if m <= size {
		r.block(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	j := jobPool.Get().(*sgemmJob)
	*j = sgemmJob{r: r, tA: tA, tB: tB, m: m, n: n, k: k, alpha: alpha, a: a, lda: lda, b: b, ldb: ldb, beta: beta, c: c, ldc: ldc,
		size: size, blocks: (m + size - 1) / size}
	helpersOnce.Do(startHelpers)
	for range min(runtime.GOMAXPROCS(0), j.blocks) - 1 {
		j.wg.Add(1)
		select {
		case helperJobs <- j:
			continue
		default: // every helper is busy: do without
		}
		j.wg.Done()
		break
	}
	j.work()
	j.wg.Wait()
	*j = sgemmJob{}
	jobPool.Put(j)
}

// sgemmJob is one product split into row blocks, taken in turn by the
// goroutines working on it.
type sgemmJob struct {
	r             rowBLAS
	tA, tB        blas.Transpose
	m, n, k       int
	alpha, beta   float32
	a, b, c       []float32
	lda, ldb, ldc int
	size, blocks  int
	next          atomic.Int64 // the next block to take
	wg            sync.WaitGroup
}

func (j *sgemmJob) work() {
	for {
		blk := int(j.next.Add(1)) - 1
		if blk >= j.blocks {
			return
		}
		i0 := blk * j.size
		rows := min(j.size, j.m-i0)
		// Rows i0.. of op(A): rows of A, or columns of A when transposed.
		aSub := j.a[i0*j.lda:]
		if j.tA != blas.NoTrans {
			aSub = j.a[i0:]
		}
		j.r.block(j.tA, j.tB, rows, j.n, j.k, j.alpha, aSub, j.lda, j.b, j.ldb, j.beta, j.c[i0*j.ldc:], j.ldc)
	}
}

var (
	jobPool     = sync.Pool{New: func() any { return new(sgemmJob) }}
	helperJobs  = make(chan *sgemmJob)
	helpersOnce sync.Once
)

// startHelpers starts the helper goroutines of rowBLAS, one per CPU but
// one; they live as long as the process and sleep when there is no work.
func startHelpers() {
	for range runtime.NumCPU() - 1 {
		go func() {
			for j := range helperJobs {
				j.work()
				j.wg.Done()
			}
		}()
	}
}

// padPool holds the scratch of padded blocks.
var padPool = sync.Pool{New: func() any { return new([]float32) }}

// block computes one block of at most rowBlock rows.
func (r rowBLAS) block(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if !r.padTail || m == rowBlock || tA != blas.NoTrans {
		r.BLAS.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	buf := padPool.Get().(*[]float32)
	defer padPool.Put(buf)
	if need := rowBlock * (k + n); cap(*buf) < need {
		*buf = make([]float32, need)
	}
	pa, pc := (*buf)[:rowBlock*k], (*buf)[rowBlock*k:rowBlock*(k+n)]
	clear(pa)
	for i := 0; i < m; i++ {
		copy(pa[i*k:(i+1)*k], a[i*lda:i*lda+k])
		copy(pc[i*n:(i+1)*n], c[i*ldc:i*ldc+n])
	}
	r.BLAS.Sgemm(tA, tB, rowBlock, n, k, alpha, pa, k, b, ldb, beta, pc, n)
	for i := 0; i < m; i++ {
		copy(c[i*ldc:i*ldc+n], pc[i*n:(i+1)*n])
	}
}
