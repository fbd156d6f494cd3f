package net

import (
	"fmt"
	"math"
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

// CheckBackend reports an unknown backend, or one this CPU and build
// cannot run.
func CheckBackend(name string) error {
	switch name {
	case "", BackendFloat32:
		return nil
	case BackendBF16:
		if !haveBF16 {
			return fmt.Errorf("net: backend bf16 needs AVX512_BF16, which this CPU or build lacks")
		}
		return nil
	}
	return fmt.Errorf("net: backend %q unknown (%s or %s)", name, BackendFloat32, BackendBF16)
}

// bf16Bits is x rounded to the nearest bfloat16, ties to even (as
// toBF16AVX512 does).
func bf16Bits(x float32) uint16 {
	b := math.Float32bits(x)
	b += 0x7fff + (b>>16)&1
	return uint16(b >> 16)
}

// bf16Weight lays out a linearOp's weight w (K, F) as sgemm8BF16's B:
// per segment (tap) s, pairs of input channels (2q, 2q+1; the odd
// channel count's last pair with a zero), row (s·pairs + q) of F
// uint32s, the even channel in the low half.
func bf16Weight(o *linearOp, w []float32) []uint32 {
	segs, c := 1, o.k
	if o.gather.w > 0 {
		segs, c = 9, o.k/9
	}
	pairs, f := (c+1)/2, o.f
	out := make([]uint32, segs*pairs*f)
	for s := range segs {
		for q := range pairs {
			for j := range f {
				lo := uint32(bf16Bits(w[(s*c+2*q)*f+j]))
				var hi uint32
				if 2*q+1 < c {
					hi = uint32(bf16Bits(w[(s*c+2*q+1)*f+j]))
				}
				out[(s*pairs+q)*f+j] = lo | hi<<16
			}
		}
	}
	return out
}
