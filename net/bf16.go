package net

import (
	"fmt"

	"github.com/konanezero/konane/net/internal/kernel"
)

// The evaluator's backends (EvalOptions.Backend), chosen explicitly,
// never by CPU detection.
const (
	// BackendFloat32, the default, is fmaBLAS's float32 arithmetic: the
	// same bits on every CPU and kernel, the backend of every golden
	// test.
	BackendFloat32 = "float32"
	// BackendBF16 computes the per-position products (the convolutions
	// and the policy's 1x1 convolutions) from bfloat16 inputs and
	// weights, rounded to nearest even, with float32 accumulation by
	// pairs (VDPBF16PS; bias, residual and ReLU in float32 as before).
	// Its numbers differ from float32's (by about bfloat16's 8 bits of
	// precision) and are deterministic on one CPU model (batch, board
	// and cores do not change them), not across CPU vendors: the
	// instruction's intermediate rounding is the CPU's. It needs
	// AVX512_BF16 (amd64).
	BackendBF16 = "bf16"
)

// Backend names the matrix-multiply kernel of this binary, which the
// float32 backend runs: "pure Go, AVX-512", "pure Go, AVX2+FMA" or
// "pure Go, portable" on amd64 (bit-identical), "pure Go, gonum"
// elsewhere, "OpenBLAS" built with -tags openblas (kernel.Backend says
// more).
var Backend = kernel.Backend

// CheckBackend reports an unknown backend, or one this CPU and build
// cannot run.
func CheckBackend(name string) error {
	switch name {
	case "", BackendFloat32:
		return nil
	case BackendBF16:
		if !kernel.HaveBF16 {
			return fmt.Errorf("net: backend bf16 needs AVX512_BF16, which this CPU or build lacks")
		}
		return nil
	}
	return fmt.Errorf("net: backend %q unknown (%s or %s)", name, BackendFloat32, BackendBF16)
}
