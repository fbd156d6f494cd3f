package kernel

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// RowBlock is the number of rows of a matrix product computed by one call
// of the underlying BLAS: gonum's block size, below which its Sgemm is one
// serial loop.
const RowBlock = 64

// Transpose says whether an operand of a product is transposed.
type Transpose bool

// The two Transposes.
const (
	NoTrans Transpose = false
	Trans   Transpose = true
)

// Sgemmer computes float32 matrix products, C = alpha·op(A)·op(B) +
// beta·C, as gonum's blas.Float32Level3 does (row-major, op(X) the
// transpose of X when its Transpose says so).
type Sgemmer interface {
	Sgemm(tA, tB Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int)
}

// RowBLAS is the BLAS of the network's float32 products (and of
// Gorgonia's in training). It computes
// every float32 matrix product in blocks of RowBlock rows, in parallel,
// so that each row of the result is computed by the same sequence of
// operations whatever the number of rows. A convolution is one product
// with a row per (position, square); without this, gonum switches between
// a serial and a blocked parallel algorithm depending on the batch size,
// which changes the rounding, and a position's prediction would depend on
// the batch it was evaluated in.
//
// padTail is for BLAS libraries whose kernels depend on the number of rows
// (OpenBLAS): a last block of fewer rows, in the untransposed case of
// every forward pass, is then computed as a full block of RowBlock rows.
// OpenBLAS's result for a row also depends on its place in the block (on
// AVX-512, row 60 of a 64-row block can differ in the last bit from the
// same row as row 24): products with a row per (position, square) are
// therefore computed by blocks of exactly one position's rows
// (SgemmBlocks), where every row keeps its place whatever the batch.
type RowBLAS struct {
	Base    Sgemmer // the products of one block
	padTail bool
}

// Default is the RowBLAS of this build (see Backend).
var Default = func() RowBLAS {
	b, pad := baseBLAS()
	return RowBLAS{b, pad}
}()

// Sgemm computes C = alpha·op(A)·op(B) + beta·C by blocks of rows of C,
// spread over the cores (see Parallel); which goroutine computes a block
// does not change it.
func (r RowBLAS) Sgemm(tA, tB Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	r.SgemmBlocks(RowBlock, tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// SgemmBlocks is Sgemm by blocks of size rows; with size RowBlock, the
// last block is padded to RowBlock rows if shorter and padTail is set.
func (r RowBLAS) SgemmBlocks(size int, tA, tB Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if size != RowBlock {
		r.padTail = false // every block has size rows
	}
	if m <= size {
		r.block(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	j := sgemmPool.Get().(*sgemmJob)
	*j = sgemmJob{r: r, tA: tA, tB: tB, m: m, n: n, k: k, alpha: alpha, a: a, lda: lda, b: b, ldb: ldb, beta: beta, c: c, ldc: ldc, size: size}
	Parallel((m+size-1)/size, j)
	*j = sgemmJob{}
	sgemmPool.Put(j)
}

// sgemmJob is one product split into row blocks.
type sgemmJob struct {
	r             RowBLAS
	tA, tB        Transpose
	m, n, k       int
	alpha, beta   float32
	a, b, c       []float32
	lda, ldb, ldc int
	size          int
}

func (j *sgemmJob) DoBlock(blk, _ int) {
	i0 := blk * j.size
	rows := min(j.size, j.m-i0)
	// Rows i0.. of op(A): rows of A, or columns of A when transposed.
	aSub := j.a[i0*j.lda:]
	if j.tA != NoTrans {
		aSub = j.a[i0:]
	}
	j.r.block(j.tA, j.tB, rows, j.n, j.k, j.alpha, aSub, j.lda, j.b, j.ldb, j.beta, j.c[i0*j.ldc:], j.ldc)
}

// BlockWork is work split into numbered blocks that can be done in any
// order and concurrently: DoBlock(blk, worker) does block blk; worker,
// below MaxWorkers, is the same for no two concurrent calls, so that
// work may keep scratch per worker.
type BlockWork interface {
	DoBlock(blk, worker int)
}

// MaxWorkers bounds the worker numbers of Parallel.
var MaxWorkers = runtime.NumCPU()

// Parallel does blocks 0..blocks-1 of w: the calling goroutine and up to
// GOMAXPROCS-1 of the package's helper goroutines (started at the first
// call with more than one block) take blocks in turn until none is left.
// A helper busy with other work is not waited for. The result must not
// depend on which goroutine does a block, so that it is the same on any
// number of cores. Parallel allocates nothing.
func Parallel(blocks int, w BlockWork) {
	if blocks <= 1 || runtime.GOMAXPROCS(0) == 1 {
		for b := range blocks {
			w.DoBlock(b, 0)
		}
		return
	}
	j := jobPool.Get().(*job)
	j.w, j.blocks = w, blocks
	j.next.Store(0)
	j.workers.Store(1)
	helpersOnce.Do(startHelpers)
	for range min(runtime.GOMAXPROCS(0), blocks, MaxWorkers) - 1 {
		j.wg.Add(1)
		select {
		case helperJobs <- j:
			continue
		default: // every helper is busy: do without
		}
		j.wg.Done()
		break
	}
	j.work(0)
	j.wg.Wait()
	j.w = nil
	jobPool.Put(j)
}

// job is one call of Parallel: its blocks are taken in turn by the
// goroutines working on it.
type job struct {
	w       BlockWork
	blocks  int
	next    atomic.Int64 // the next block to take
	workers atomic.Int64 // worker numbers handed out
	wg      sync.WaitGroup
}

func (j *job) work(worker int) {
	for {
		blk := int(j.next.Add(1)) - 1
		if blk >= j.blocks {
			return
		}
		j.w.DoBlock(blk, worker)
	}
}

var (
	jobPool     = sync.Pool{New: func() any { return new(job) }}
	sgemmPool   = sync.Pool{New: func() any { return new(sgemmJob) }}
	helperJobs  = make(chan *job)
	helpersOnce sync.Once
)

// startHelpers starts the helper goroutines of Parallel, one per CPU but
// one; they live as long as the process and sleep when there is no work.
func startHelpers() {
	for range MaxWorkers - 1 {
		go func() {
			for j := range helperJobs {
				j.work(int(j.workers.Add(1)) - 1)
				j.wg.Done()
			}
		}()
	}
}

// padPool holds the scratch of padded blocks.
var padPool = sync.Pool{New: func() any { return new([]float32) }}

// block computes one block of at most RowBlock rows.
func (r RowBLAS) block(tA, tB Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if serialCols > 0 && n > serialCols {
		// Columns by parts, so that gonum runs its serial kernel instead
		// of starting goroutines of its own for this block.
		for j0 := 0; j0 < n; j0 += serialCols {
			bSub := b[j0:]
			if tB != NoTrans {
				bSub = b[j0*ldb:]
			}
			r.Base.Sgemm(tA, tB, m, min(serialCols, n-j0), k, alpha, a, lda, bSub, ldb, beta, c[j0:], ldc)
		}
		return
	}
	if !r.padTail || m == RowBlock || tA != NoTrans {
		r.Base.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	buf := padPool.Get().(*[]float32)
	defer padPool.Put(buf)
	if need := RowBlock * (k + n); cap(*buf) < need {
		*buf = make([]float32, need)
	}
	pa, pc := (*buf)[:RowBlock*k], (*buf)[RowBlock*k:RowBlock*(k+n)]
	clear(pa)
	for i := 0; i < m; i++ {
		copy(pa[i*k:(i+1)*k], a[i*lda:i*lda+k])
		copy(pc[i*n:(i+1)*n], c[i*ldc:i*ldc+n])
	}
	r.Base.Sgemm(tA, tB, RowBlock, n, k, alpha, pa, k, b, ldb, beta, pc, n)
	for i := 0; i < m; i++ {
		copy(c[i*ldc:i*ldc+n], pc[i*n:(i+1)*n])
	}
}
