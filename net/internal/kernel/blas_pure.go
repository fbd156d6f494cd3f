//go:build !openblas

package kernel

import "runtime"

// Backend names the matrix-multiply kernel this binary runs. On amd64:
// the package's own kernel, "pure Go, AVX-512", "pure Go, AVX2+FMA" or
// "pure Go, portable" (CPUs without AVX2, and builds with -tags purego
// or noasm), all three bit-identical (see fmaBLAS). On other
// architectures, where no assembly kernel exists and so no other path
// must match it: gonum's own Sgemm, "pure Go, gonum", as many times
// faster than the portable kernel as its exact fused multiply-adds cost
// (docs/results/2026-12-02-kernels.md). Build with -tags openblas (and
// libopenblas-dev installed) for OpenBLAS.
var Backend = "pure Go, " + backendKernel()

func backendKernel() string {
	if runtime.GOARCH != "amd64" {
		return "gonum"
	}
	return kernel.String()
}

// serialCols: fmaBLAS starts no goroutines of its own; gonum computes
// products of at most RowBlock rows and 3 of its 64×64 blocks serially
// (from 4 it starts goroutines, which RowBLAS has already done).
var serialCols = func() int {
	if runtime.GOARCH != "amd64" {
		return 3 * 64
	}
	return 0
}()

// SetBLASThreads: fmaBLAS has no threads of its own.
func SetBLASThreads(int) bool { return false }
