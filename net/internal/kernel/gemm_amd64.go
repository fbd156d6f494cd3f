//go:build amd64 && !purego && !noasm && !openblas

package kernel

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// The assembly kernels (gemm_amd64.s) need the CPU's and the OS's support
// for the vector registers they use.
var (
	haveAVX2   = cpu.X86.HasAVX2 && cpu.X86.HasFMA
	haveAVX512 = haveAVX2 && cpu.X86.HasAVX512F // it also runs the AVX2 kernel (gemmAsm)
	HaveBF16   = haveAVX512 && cpu.X86.HasAVX512BF16
)

// sgemm4AVX512 computes 4 rows of C (rows 0, ldc, 2·ldc, 3·ldc) by up to
// 32 columns: for each of the mask's set bits j (bit j: column j; the
// set bits are the low ones), C[i,j] = fma chain over p < k of
// a[i*rs+p*ks]·b[p*ldb+j] onto C[i,j]. Strides are in elements. Nothing
// beyond a masked column is read or written.
//
//go:noescape
func sgemm4AVX512(k int, a *float32, rs, ks int, b *float32, ldb int, c *float32, ldc int, mask uint32)

// sgemm1AVX512 is sgemm4AVX512 for one row.
//
//go:noescape
func sgemm1AVX512(k int, a *float32, rs, ks int, b *float32, ldb int, c *float32, ldc int, mask uint32)

// sgemm4AVX2 is sgemm4AVX512 with up to 16 columns, those whose int32 of
// mask (16 of them) is -1 (the low ones).
//
//go:noescape
func sgemm4AVX2(k int, a *float32, rs, ks int, b *float32, ldb int, c *float32, ldc int, mask *int32)

// sgemm1AVX2 is sgemm4AVX2 for one row.
//
//go:noescape
func sgemm1AVX2(k int, a *float32, rs, ks int, b *float32, ldb int, c *float32, ldc int, mask *int32)

// sgemm8AVX512 computes 8 rows of C (rows 0, ldc, …, 7·ldc) by up to 32
// columns (mask as sgemm4AVX512), each output C[r,j] by the sequence of
// fmaBLAS: from an initial accumulator, one fused multiply-add per p in
// the order p = 0, 1, …, segs·k−1, then the epilogue. The product runs
// in segs segments of k ≥ 1 values of p: in segment s, A's row r is the
// k consecutive floats at byte offset offs[8·s+r] from x, or at zero
// (k zeros) if that offset is negative; B's row p is b[p*ldb+j]. The
// initial accumulator is h[r*ldc+j] (flag sgemmH) plus bias[j] (flag
// sgemmBias), h's alone, bias's alone, or 0; with flag sgemmReLU the
// result's negative entries and zeros become +0 (as relu does). h may
// be c; h and bias are read only if their flag is set. Nothing beyond a
// masked column is read or written.
//
//go:noescape
func sgemm8AVX512(segs, k int, offs *int32, x, zero, b *float32, ldb int, c *float32, ldc int, h, bias *float32, mask uint32, flags int)

// The flags of sgemm8AVX512.
const (
	sgemmH    = 1
	sgemmBias = 2
	sgemmReLU = 4
	sgemmBF16 = 8 // A's and B's rows hold pairs of bfloat16 (sgemm8BF16)
)

// avx2Masks[16-w:][:16] has its first w entries -1, the others 0.
var avx2Masks = [32]int32{-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1}

// gemmAsm is gemmPortable with the assembly kernel kn: C += op(A)·B, by
// 8 rows (AVX-512, A's rows contiguous: ks = 1), then 4 rows, then single rows and panels of 32 (AVX-512) or 16 (AVX2)
// columns, k ≥ 1. AVX-512 computes a last panel of at most 16 columns
// with the AVX2 kernel (the same numbers), which is faster there than
// half-masked zmm (docs/results/2026-12-02-kernels.md).
func gemmAsm(kn Kernel, m, n, k int, a []float32, rs, ks int, b []float32, ldb int, c []float32, ldc int) {
	width := 16
	if kn == kernelAVX512 {
		width = 32
	}
	for j0 := 0; j0 < n; j0 += width {
		w := min(width, n-j0)
		mask := uint32(1)<<w - 1
		if w == 32 {
			mask = ^uint32(0)
		}
		m2 := &avx2Masks[16-min(w, 16)]
		kp := kn
		if w <= 16 {
			kp = kernelAVX2
		}
		i := 0
		if kp == kernelAVX512 && ks == 1 && 8*rs < 1<<28 {
			var offs [8]int32
			for r := range offs {
				offs[r] = int32(4 * r * rs)
			}
			for ; i+8 <= m; i += 8 {
				pc := &c[i*ldc+j0]
				sgemm8AVX512(1, k, &offs[0], &a[i*rs], &zeroRow[0], &b[j0], ldb, pc, ldc, pc, nil, mask, sgemmH)
			}
		}
		for ; i < m; i += 4 {
			rows := m - i
			pa, pb, pc := &a[i*rs], &b[j0], &c[i*ldc+j0]
			switch {
			case rows >= 4 && kp == kernelAVX512:
				sgemm4AVX512(k, pa, rs, ks, pb, ldb, pc, ldc, mask)
			case rows >= 4:
				sgemm4AVX2(k, pa, rs, ks, pb, ldb, pc, ldc, m2)
			default:
				for r := range rows {
					pa, pc := &a[(i+r)*rs], &c[(i+r)*ldc+j0]
					if kp == kernelAVX512 {
						sgemm1AVX512(k, pa, rs, ks, pb, ldb, pc, ldc, mask)
					} else {
						sgemm1AVX2(k, pa, rs, ks, pb, ldb, pc, ldc, m2)
					}
				}
			}
		}
	}
}

// zeroRow is the input row of a neighbour off the board in linearRows8:
// zeros, multiplied all the same, as im2row's zeros are.
var zeroRow [512]float32

// linearRows8 computes rows r0..r1 of a block of a Linear (o.block >
// 0: one position's rows) by 8 at a time with sgemm8AVX512, the work
// around the product fused into it: the 3x3 gather is implicit (A's rows
// in a segment per neighbour: the input rows of the neighbours, or
// zeroRow off the board, by o.offs), the bias and the residual are the
// initial accumulators, the ReLU the epilogue. A last group of fewer
// than 8 rows is computed as 8 rows into tail (8·o.f floats; the missing
// rows' A is the block's first row, their results dropped) and copied
// out; with tail nil it is left. linearRows8 returns how many rows from
// r0 it computed: 0 unless the AVX-512 kernel is in use. The numbers are
// those of the separate passes bit for bit: the same initial accumulator
// (b[j] + h, rounded once), the same FMAs in the order of im2row's
// columns, the same ReLU.
func linearRows8(o *Linear, a linearArgs[float32], r0, r1 int, tail []float32) int {
	segs, k := 1, o.k
	if o.gather.w > 0 {
		segs, k = 9, o.k/9
	}
	if kernel != kernelAVX512 || r1 <= r0 || len(o.offs) < (r1-r0+7)/8*8*segs {
		return 0
	}
	x := a.x[r0*k : r1*k]
	return rows8(o, a, r0, r1, tail, func(offs *int32, pc, ph, pb *float32, j0 int, mask uint32, flags int) {
		sgemm8AVX512(segs, k, offs, &x[0], &zeroRow[0], &a.w[j0], o.f, pc, o.f, ph, pb, mask, flags)
	})
}

// rows8 runs kern, a call of an 8-row kernel of sgemm8AVX512's contract
// on panels of 32 columns, for rows r0..r1 of a block of o (see
// linearRows8; offs: o.offs from the group's first row), and returns
// how many rows it computed.
func rows8(o *Linear, a linearArgs[float32], r0, r1 int, tail []float32, kern func(offs *int32, pc, ph, pb *float32, j0 int, mask uint32, flags int)) int {
	segs := 1
	if o.gather.w > 0 {
		segs = 9
	}
	flags := 0
	if a.h != nil {
		flags |= sgemmH
	}
	if a.b != nil {
		flags |= sgemmBias
	}
	if o.relu {
		flags |= sgemmReLU
	}
	f := o.f
	for i := r0; i < r1; i += 8 {
		offs := &o.offs[(i-r0)*segs]
		rows := min(8, r1-i)
		y, h := a.y[i*f:(i+rows)*f], a.h
		if h != nil {
			h = h[i*f : (i+rows)*f]
		}
		if rows < 8 {
			if len(tail) < 8*f {
				return i - r0
			}
			if h != nil {
				copy(tail, h)
				h = tail
			}
			y = tail
		}
		for j0 := 0; j0 < f; j0 += 32 {
			w := min(32, f-j0)
			mask := uint32(1)<<w - 1
			if w == 32 {
				mask = ^uint32(0)
			}
			pc := &y[j0]
			ph, pb := pc, (*float32)(nil)
			if h != nil {
				ph = &h[j0]
			}
			if a.b != nil {
				pb = &a.b[j0]
			}
			kern(offs, pc, ph, pb, j0, mask, flags)
		}
		if rows < 8 {
			copy(a.y[i*f:(i+rows)*f], tail[:rows*f])
		}
	}
	return r1 - r0
}

// rows8Offsets returns linearRows8's offsets for a block of o: for each
// group of 8 rows (the last one completed with rows that read the
// block's first row) and segment s, the byte offsets from the block's
// first input row of the 8 rows' A in that segment (-1: zeroRow), or nil
// if the fused kernel cannot compute o.
//
// The input rows are rowBytes apart: 4·channels for float32 (0: that),
// 2·(channels rounded up to even) for bfloat16.
func rows8Offsets(o *Linear, rowBytes int) []int32 {
	if !haveAVX512 || o.block <= 0 || o.k == 0 || o.f == 0 {
		return nil
	}
	groups := (o.block + 7) / 8
	if o.gather.w == 0 {
		if rowBytes == 0 {
			rowBytes = 4 * o.k
		}
		if o.block*rowBytes >= 1<<31 {
			return nil
		}
		offs := make([]int32, groups*8)
		for r := range o.block {
			offs[r] = int32(r * rowBytes)
		}
		return offs
	}
	c, nb := o.k/9, o.gather.Neighbours()
	if rowBytes == 0 {
		rowBytes = 4 * c
	}
	if c > len(zeroRow) || o.block*rowBytes >= 1<<31 {
		return nil
	}
	offs := make([]int32, groups*9*8)
	for g := range groups {
		for r := range 8 {
			sq := 8*g + r
			if sq >= o.block {
				continue // offset 0: the block's first row
			}
			for t, s := range nb[sq*9 : sq*9+9] {
				off := int32(-1)
				if s >= 0 {
					off = int32(int(s) * rowBytes)
				}
				offs[(g*9+t)*8+r] = off
			}
		}
	}
	return offs
}

// sumRowsAVX512 sets out[j], j < f, to the sum of x[r*f+j] over r < rows,
// added in the order r = 0, 1, … onto 0, times scale (each step rounded
// to float32, as SpatialSum does).
//
//go:noescape
func sumRowsAVX512(out, x *float32, rows, f int, scale float32)

// addRowAVX512 sets dst[r*f+j] = x[r*f+j] + y[j] for r < rows, j < f.
//
//go:noescape
func addRowAVX512(dst, x, y *float32, rows, f int)

// sumRows32 is sumRowsAVX512 on slices (out of f floats, x of rows·f), if
// the AVX-512 kernel is in use; it reports whether it was.
func sumRows32(out, x []float32, rows, f int, scale float32) bool {
	if kernel != kernelAVX512 || rows == 0 || f == 0 {
		return false
	}
	_, _ = out[f-1], x[rows*f-1]
	sumRowsAVX512(&out[0], &x[0], rows, f, scale)
	return true
}

// addRow32 is addRowAVX512 on slices (dst and x of rows·f floats, g of
// f), if the AVX-512 kernel is in use; it reports whether it was.
func addRow32(dst, x, g []float32, rows, f int) bool {
	if kernel != kernelAVX512 || rows == 0 || f == 0 {
		return false
	}
	_, _, _ = dst[rows*f-1], x[rows*f-1], g[f-1]
	addRowAVX512(&dst[0], &x[0], &g[0], rows, f)
	return true
}

// mulAddRowAVX512 adds x[i]·w[i*f+j] to y[j] for i = 0, 1, …, k−1 in that
// order, j < f, the product and the sum each rounded to float32 (as the
// plain loop of linearForward does).
//
//go:noescape
func mulAddRowAVX512(y, x, w *float32, k, f int)

// mulAddRow32 is mulAddRowAVX512 on slices (y of f floats, x of k, w of
// k·f), if the AVX-512 kernel is in use; it reports whether it was.
func mulAddRow32(y, x, w []float32, k, f int) bool {
	if kernel != kernelAVX512 || k == 0 || f == 0 {
		return false
	}
	_, _, _ = y[f-1], x[k-1], w[k*f-1]
	mulAddRowAVX512(&y[0], &x[0], &w[0], k, f)
	return true
}

// sgemm8BF16 is sgemm8AVX512 on pairs of bfloat16 (its flag sgemmBF16:
// one kernel, the loop over p chosen per segment): k pairs per segment,
// A's rows of k uint32 at x plus offs (zero when negative), B's rows of
// ldb pairs; each step adds a pair's two products (VDPBF16PS). Only
// with HaveBF16.
func sgemm8BF16(segs, k int, offs *int32, x, zero, b *uint32, ldb int, c *float32, ldc int, h, bias *float32, mask uint32, flags int) {
	sgemm8AVX512(segs, k, offs, (*float32)(unsafe.Pointer(x)), (*float32)(unsafe.Pointer(zero)), (*float32)(unsafe.Pointer(b)), ldb, c, ldc, h, bias, mask, flags|sgemmBF16)
}

// toBF16AVX512 rounds n float32s to bfloat16 (ties to even).
//
//go:noescape
func toBF16AVX512(dst *uint16, src *float32, n int)

// linearRowsBF16 is linearRows8 for a Linear of the bf16 backend:
// the block's input rows rounded to bfloat16 pairs into o's scratch of
// worker, the products by sgemm8BF16 on o's bfloat16 weight (wbf). It
// computes every row.
func linearRowsBF16(o *Linear, a linearArgs[float32], r0, r1, worker int) int {
	c := o.k
	if o.gather.w > 0 {
		c = o.k / 9
	}
	cp := c + c%2
	xb := o.xbf[worker][:(r1-r0)*cp]
	if cp == c {
		toBF16AVX512(&xb[0], &a.x[r0*c], (r1-r0)*c)
	} else {
		for r := range r1 - r0 {
			toBF16AVX512(&xb[r*cp], &a.x[(r0+r)*c], c)
			xb[r*cp+c] = 0
		}
	}
	segs := 1
	if o.gather.w > 0 {
		segs = 9
	}
	var tail []float32
	if o.tail32 != nil {
		tail = o.tail32[worker]
	}
	x := (*uint32)(unsafe.Pointer(&xb[0]))
	zero := (*uint32)(unsafe.Pointer(&zeroRow[0]))
	return rows8(o, a, r0, r1, tail, func(offs *int32, pc, ph, pb *float32, j0 int, mask uint32, flags int) {
		sgemm8BF16(segs, cp/2, offs, x, zero, &o.wbf[j0], o.f, pc, o.f, ph, pb, mask, flags)
	})
}
