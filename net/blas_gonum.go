//go:build !openblas

package net

import (
	"gonum.org/v1/gonum/blas/gonum"
	G "gorgonia.org/gorgonia"
)

// baseBLAS is pure-Go gonum; build with -tags openblas for OpenBLAS.
func baseBLAS() G.BLAS { return gonum.Implementation{} }
