//go:build !amd64 && !openblas

package kernel

import "gonum.org/v1/gonum/blas/gonum"

// baseBLAS is gonum's Sgemm on the architectures without the assembly
// kernels (its serial kernel for blocks of up to 64 rows is
// row-independent too): no padding.
func baseBLAS() (Sgemmer, bool) { return gonumBLAS{}, false }

// gonumBLAS is gonum's Sgemm.
type gonumBLAS struct{}

func (gonumBLAS) Sgemm(tA, tB Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	gonum.Implementation{}.Sgemm(gonumTranspose(tA), gonumTranspose(tB), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}
