//go:build !amd64 || purego || noasm

package net

// No assembly kernels in this build: fmaBLAS uses the portable one.
const haveAVX2, haveAVX512 = false, false

func gemmAsm(kn gemmKernel, m, n, k int, a []float32, rs, ks int, b []float32, ldb int, c []float32, ldc int) {
	panic("net: no assembly kernels in this build")
}
