package kernel

import "math"

// bf16Bits is x rounded to the nearest bfloat16, ties to even (as
// toBF16AVX512 does).
func bf16Bits(x float32) uint16 {
	b := math.Float32bits(x)
	b += 0x7fff + (b>>16)&1
	return uint16(b >> 16)
}

// bf16Weight lays out a Linear's weight w (K, F) as sgemm8BF16's B:
// per segment (tap) s, pairs of input channels (2q, 2q+1; the odd
// channel count's last pair with a zero), row (s·pairs + q) of F
// uint32s, the even channel in the low half.
func bf16Weight(o *Linear, w []float32) []uint32 {
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
