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
func baseBLAS() (BLAS, bool) {
	C.openblas_set_num_threads(1)
	return netlib.Implementation{}, true
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
