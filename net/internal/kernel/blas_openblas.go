//go:build openblas

package kernel

// #cgo LDFLAGS: -lopenblas
// void openblas_set_num_threads(int);
import "C"

import (
	"gonum.org/v1/netlib/blas/netlib"
)

// Backend names the matrix-multiply library this binary was built with.
const Backend = "OpenBLAS"

// baseBLAS is OpenBLAS through cgo (Debian: apt-get install
// libopenblas-dev; build with -tags openblas). OpenBLAS runs one thread
// per call: RowBLAS already spreads the row blocks over the cores.
func baseBLAS() (Sgemmer, bool) {
	C.openblas_set_num_threads(1)
	return openBLAS{}, true
}

// openBLAS is OpenBLAS's Sgemm.
type openBLAS struct{}

func (openBLAS) Sgemm(tA, tB Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	netlib.Implementation{}.Sgemm(gonumTranspose(tA), gonumTranspose(tB), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// serialCols: OpenBLAS runs one thread per call (see baseBLAS); products
// are not split by columns.
var serialCols = 0

// SetBLASThreads sets OpenBLAS's threads per call (measurements only:
// BenchmarkEvaluateCores) and reports that it could.
func SetBLASThreads(n int) bool {
	C.openblas_set_num_threads(C.int(n))
	return true
}
