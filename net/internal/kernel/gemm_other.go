//go:build !amd64 || purego || noasm || openblas

package kernel

// No assembly kernels in this build (not amd64, -tags purego or noasm, or
// -tags openblas: a cgo package cannot have Go assembly): fmaBLAS, if
// used, runs the portable kernel.
const haveAVX2, haveAVX512, HaveBF16 = false, false, false

func gemmAsm(kn Kernel, m, n, k int, a []float32, rs, ks int, b []float32, ldb int, c []float32, ldc int) {
	panic("net: no assembly kernels in this build")
}

// linearRows8 computes no rows in this build: linearForward does them all.
func linearRows8(o *Linear, a linearArgs[float32], r0, r1 int, tail []float32) int { return 0 }

// rows8Offsets: no fused kernel in this build.
func rows8Offsets(o *Linear, rowBytes int) []int32 { return nil }

// sumRows32, addRow32 and mulAddRow32 have no vector version in this build.
func sumRows32(out, x []float32, rows, f int, scale float32) bool { return false }
func addRow32(dst, x, g []float32, rows, f int) bool              { return false }
func mulAddRow32(y, x, w []float32, k, f int) bool                { return false }

// linearRowsBF16: no bf16 backend in this build (CheckBackend refuses it).
func linearRowsBF16(o *Linear, a linearArgs[float32], r0, r1, worker int) int { return 0 }
