//go:build !amd64 || openblas

package kernel

import "gonum.org/v1/gonum/blas"

// gonumTranspose is t as gonum's BLAS names it.
func gonumTranspose(t Transpose) blas.Transpose {
	if t == Trans {
		return blas.Trans
	}
	return blas.NoTrans
}
