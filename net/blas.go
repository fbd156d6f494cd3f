package net

import (
	"runtime"
	"sync"

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
func (r rowBLAS) Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if m <= rowBlock {
		r.block(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	blocks := (m + rowBlock - 1) / rowBlock
	workers := min(runtime.GOMAXPROCS(0), blocks)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for blk := w; blk < blocks; blk += workers {
				i0 := blk * rowBlock
				rows := min(rowBlock, m-i0)
				// Rows i0.. of op(A): rows of A, or columns of A when transposed.
				aSub := a[i0*lda:]
				if tA != blas.NoTrans {
					aSub = a[i0:]
				}
				r.block(tA, tB, rows, n, k, alpha, aSub, lda, b, ldb, beta, c[i0*ldc:], ldc)
			}
		}()
	}
	wg.Wait()
}

// block computes one block of at most rowBlock rows.
func (r rowBLAS) block(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if !r.padTail || m == rowBlock || tA != blas.NoTrans {
		r.BLAS.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	pa := make([]float32, rowBlock*k)
	pc := make([]float32, rowBlock*n)
	for i := 0; i < m; i++ {
		copy(pa[i*k:(i+1)*k], a[i*lda:i*lda+k])
		copy(pc[i*n:(i+1)*n], c[i*ldc:i*ldc+n])
	}
	r.BLAS.Sgemm(tA, tB, rowBlock, n, k, alpha, pa, k, b, ldb, beta, pc, n)
	for i := 0; i < m; i++ {
		copy(c[i*ldc:i*ldc+n], pc[i*n:(i+1)*n])
	}
}
