//go:build !openblas

package net

import G "gorgonia.org/gorgonia"

// Backend names the matrix-multiply kernel this binary runs: the
// package's pure-Go build with the CPU's vector kernel, "pure Go,
// AVX-512", "pure Go, AVX2+FMA" or "pure Go, portable" (other CPUs, and
// builds with -tags purego or noasm), all three bit-identical (see
// fmaBLAS). Build with -tags openblas (and libopenblas-dev installed)
// for OpenBLAS.
var Backend = "pure Go, " + kernel.String()

// baseBLAS is gonum with the package's own Sgemm (fmaBLAS), whose rows
// do not depend on the block: no padding.
func baseBLAS() (G.BLAS, bool) { return fmaBLAS{}, false }

// serialCols: fmaBLAS starts no goroutines of its own; products are not
// split by columns.
const serialCols = 0

// setBLASThreads: fmaBLAS has no threads of its own.
func setBLASThreads(int) bool { return false }
