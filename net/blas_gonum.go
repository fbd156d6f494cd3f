//go:build !openblas

package net

import (
	"gonum.org/v1/gonum/blas/gonum"
	G "gorgonia.org/gorgonia"
)

// Backend names the matrix-multiply library this binary was built with.
// Build with -tags openblas (and libopenblas-dev installed) for OpenBLAS.
const Backend = "gonum (pure Go)"

// baseBLAS is pure-Go gonum; build with -tags openblas for OpenBLAS.
// Its serial kernel for blocks of up to 64 rows is row-independent: no padding.
func baseBLAS() (G.BLAS, bool) { return gonum.Implementation{}, false }

// serialCols is the widest product gonum computes with its serial kernel
// when it has at most rowBlock rows (3 of its 64×64 blocks; from 4 it
// starts goroutines, which rowBLAS has already done).
const serialCols = 3 * 64

// setBLASThreads: gonum has no threads of its own.
func setBLASThreads(int) bool { return false }
