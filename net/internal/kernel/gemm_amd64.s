//go:build amd64 && !purego && !noasm && !openblas

#include "textflag.h"

// The kernels of gemm_amd64.go. Registers:
//	CX  k, counting down      SI  &a[i, p]   DI  &b[p, j0]   DX  &c[i, j0]
//	R8  rs·4 (next row of A)  R9  3·rs·4     R10 ks·4 (next p of A)
//	R11 ldb·4                 R12 ldc·4      R13 3·ldc·4
// Every accumulator gets one FMA per p, in the order p = 0, 1, …, k-1.

#define ARGS \
	MOVQ k+0(FP), CX    \
	MOVQ a+8(FP), SI    \
	MOVQ rs+16(FP), R8  \
	MOVQ ks+24(FP), R10 \
	MOVQ b+32(FP), DI   \
	MOVQ ldb+40(FP), R11 \
	MOVQ c+48(FP), DX   \
	MOVQ ldc+56(FP), R12 \
	SHLQ $2, R8         \
	SHLQ $2, R10        \
	SHLQ $2, R11        \
	SHLQ $2, R12        \
	LEAQ (R8)(R8*2), R9 \
	LEAQ (R12)(R12*2), R13

#define MASK512 \
	MOVL mask+64(FP), AX \
	KMOVW AX, K1         \
	SHRL $16, AX         \
	KMOVW AX, K2

// func sgemm4AVX512(k int, a *float32, rs, ks int, b *float32, ldb int, c *float32, ldc int, mask uint32)
TEXT ·sgemm4AVX512(SB), NOSPLIT, $0-68
	ARGS
	MASK512
	VMOVUPS.Z (DX), K1, Z0
	VMOVUPS.Z 64(DX), K2, Z1
	VMOVUPS.Z (DX)(R12*1), K1, Z2
	VMOVUPS.Z 64(DX)(R12*1), K2, Z3
	VMOVUPS.Z (DX)(R12*2), K1, Z4
	VMOVUPS.Z 64(DX)(R12*2), K2, Z5
	VMOVUPS.Z (DX)(R13*1), K1, Z6
	VMOVUPS.Z 64(DX)(R13*1), K2, Z7

loop4x512:
	VMOVUPS.Z    (DI), K1, Z16
	VMOVUPS.Z    64(DI), K2, Z17
	VBROADCASTSS (SI), Z18
	VBROADCASTSS (SI)(R8*1), Z19
	VBROADCASTSS (SI)(R8*2), Z20
	VBROADCASTSS (SI)(R9*1), Z21
	VFMADD231PS  Z16, Z18, Z0
	VFMADD231PS  Z17, Z18, Z1
	VFMADD231PS  Z16, Z19, Z2
	VFMADD231PS  Z17, Z19, Z3
	VFMADD231PS  Z16, Z20, Z4
	VFMADD231PS  Z17, Z20, Z5
	VFMADD231PS  Z16, Z21, Z6
	VFMADD231PS  Z17, Z21, Z7
	ADDQ         R10, SI
	ADDQ         R11, DI
	DECQ         CX
	JNZ          loop4x512

	VMOVUPS Z0, K1, (DX)
	VMOVUPS Z1, K2, 64(DX)
	VMOVUPS Z2, K1, (DX)(R12*1)
	VMOVUPS Z3, K2, 64(DX)(R12*1)
	VMOVUPS Z4, K1, (DX)(R12*2)
	VMOVUPS Z5, K2, 64(DX)(R12*2)
	VMOVUPS Z6, K1, (DX)(R13*1)
	VMOVUPS Z7, K2, 64(DX)(R13*1)
	VZEROUPPER
	RET

// func sgemm1AVX512(k int, a *float32, rs, ks int, b *float32, ldb int, c *float32, ldc int, mask uint32)
TEXT ·sgemm1AVX512(SB), NOSPLIT, $0-68
	ARGS
	MASK512
	VMOVUPS.Z (DX), K1, Z0
	VMOVUPS.Z 64(DX), K2, Z1

loop1x512:
	VMOVUPS.Z    (DI), K1, Z16
	VMOVUPS.Z    64(DI), K2, Z17
	VBROADCASTSS (SI), Z18
	VFMADD231PS  Z16, Z18, Z0
	VFMADD231PS  Z17, Z18, Z1
	ADDQ         R10, SI
	ADDQ         R11, DI
	DECQ         CX
	JNZ          loop1x512

	VMOVUPS Z0, K1, (DX)
	VMOVUPS Z1, K2, 64(DX)
	VZEROUPPER
	RET

// func sgemm4AVX2(k int, a *float32, rs, ks int, b *float32, ldb int, c *float32, ldc int, mask *int32)
TEXT ·sgemm4AVX2(SB), NOSPLIT, $0-72
	ARGS
	MOVQ       mask+64(FP), AX
	VMOVDQU    (AX), Y12
	VMOVDQU    32(AX), Y13
	VMASKMOVPS (DX), Y12, Y0
	VMASKMOVPS 32(DX), Y13, Y1
	VMASKMOVPS (DX)(R12*1), Y12, Y2
	VMASKMOVPS 32(DX)(R12*1), Y13, Y3
	VMASKMOVPS (DX)(R12*2), Y12, Y4
	VMASKMOVPS 32(DX)(R12*2), Y13, Y5
	VMASKMOVPS (DX)(R13*1), Y12, Y6
	VMASKMOVPS 32(DX)(R13*1), Y13, Y7

loop4x256:
	VMASKMOVPS   (DI), Y12, Y8
	VMASKMOVPS   32(DI), Y13, Y9
	VBROADCASTSS (SI), Y10
	VBROADCASTSS (SI)(R8*1), Y11
	VFMADD231PS  Y8, Y10, Y0
	VFMADD231PS  Y9, Y10, Y1
	VFMADD231PS  Y8, Y11, Y2
	VFMADD231PS  Y9, Y11, Y3
	VBROADCASTSS (SI)(R8*2), Y10
	VBROADCASTSS (SI)(R9*1), Y11
	VFMADD231PS  Y8, Y10, Y4
	VFMADD231PS  Y9, Y10, Y5
	VFMADD231PS  Y8, Y11, Y6
	VFMADD231PS  Y9, Y11, Y7
	ADDQ         R10, SI
	ADDQ         R11, DI
	DECQ         CX
	JNZ          loop4x256

	VMASKMOVPS Y0, Y12, (DX)
	VMASKMOVPS Y1, Y13, 32(DX)
	VMASKMOVPS Y2, Y12, (DX)(R12*1)
	VMASKMOVPS Y3, Y13, 32(DX)(R12*1)
	VMASKMOVPS Y4, Y12, (DX)(R12*2)
	VMASKMOVPS Y5, Y13, 32(DX)(R12*2)
	VMASKMOVPS Y6, Y12, (DX)(R13*1)
	VMASKMOVPS Y7, Y13, 32(DX)(R13*1)
	VZEROUPPER
	RET

// func sgemm1AVX2(k int, a *float32, rs, ks int, b *float32, ldb int, c *float32, ldc int, mask *int32)
TEXT ·sgemm1AVX2(SB), NOSPLIT, $0-72
	ARGS
	MOVQ       mask+64(FP), AX
	VMOVDQU    (AX), Y12
	VMOVDQU    32(AX), Y13
	VMASKMOVPS (DX), Y12, Y0
	VMASKMOVPS 32(DX), Y13, Y1

loop1x256:
	VMASKMOVPS   (DI), Y12, Y8
	VMASKMOVPS   32(DI), Y13, Y9
	VBROADCASTSS (SI), Y10
	VFMADD231PS  Y8, Y10, Y0
	VFMADD231PS  Y9, Y10, Y1
	ADDQ         R10, SI
	ADDQ         R11, DI
	DECQ         CX
	JNZ          loop1x256

	VMASKMOVPS Y0, Y12, (DX)
	VMASKMOVPS Y1, Y13, 32(DX)
	VZEROUPPER
	RET

// func sgemm8AVX512(segs, k int, offs *int32, x, zero, b *float32, ldb int, c *float32, ldc int, h, bias *float32, mask uint32, flags int)
//
// 8 rows of C by up to 32 columns (mask as sgemm4AVX512), with the
// product's operands, its initial accumulators and its epilogue given
// apart (see gemm_amd64.go). Registers of the loop:
//	AX BX CX R8 R9 R10 R12 R13  &A-row 0..7 of the segment, + k·4
//	DX  −(k−p)·4, counting up to 0   DI  &b[p, j0]   R11 ldb·4
//	SI  the segment's offsets (offs + 32·segment)   R14 x
//	Z0–Z15 the accumulators (row r: Z(2r), Z(2r+1))   Z16, Z17 B's row p
//	Z18–Z25 A's 8 entries of p, broadcast
TEXT ·sgemm8AVX512(SB), NOSPLIT, $0-104
	MOVL mask+88(FP), AX
	KMOVW AX, K1
	SHRL $16, AX
	KMOVW AX, K2
	MOVQ flags+96(FP), BX
	MOVQ ldc+64(FP), R12
	SHLQ $2, R12

	// The initial accumulators: H's rows (flag 1) plus the bias row
	// (flag 2), or the bias row alone, or zero.
	VPXORD Z18, Z18, Z18
	VPXORD Z19, Z19, Z19
	TESTQ  $2, BX
	JZ     init
	MOVQ   bias+80(FP), AX
	VMOVUPS.Z (AX), K1, Z18
	VMOVUPS.Z 64(AX), K2, Z19

init:
	TESTQ $1, BX
	JNZ   loadh
	VMOVAPS Z18, Z0
	VMOVAPS Z19, Z1
	VMOVAPS Z18, Z2
	VMOVAPS Z19, Z3
	VMOVAPS Z18, Z4
	VMOVAPS Z19, Z5
	VMOVAPS Z18, Z6
	VMOVAPS Z19, Z7
	VMOVAPS Z18, Z8
	VMOVAPS Z19, Z9
	VMOVAPS Z18, Z10
	VMOVAPS Z19, Z11
	VMOVAPS Z18, Z12
	VMOVAPS Z19, Z13
	VMOVAPS Z18, Z14
	VMOVAPS Z19, Z15
	JMP     product

loadh:
	MOVQ      h+72(FP), SI
	VMOVUPS.Z (SI), K1, Z0
	VMOVUPS.Z 64(SI), K2, Z1
	ADDQ      R12, SI
	VMOVUPS.Z (SI), K1, Z2
	VMOVUPS.Z 64(SI), K2, Z3
	ADDQ      R12, SI
	VMOVUPS.Z (SI), K1, Z4
	VMOVUPS.Z 64(SI), K2, Z5
	ADDQ      R12, SI
	VMOVUPS.Z (SI), K1, Z6
	VMOVUPS.Z 64(SI), K2, Z7
	ADDQ      R12, SI
	VMOVUPS.Z (SI), K1, Z8
	VMOVUPS.Z 64(SI), K2, Z9
	ADDQ      R12, SI
	VMOVUPS.Z (SI), K1, Z10
	VMOVUPS.Z 64(SI), K2, Z11
	ADDQ      R12, SI
	VMOVUPS.Z (SI), K1, Z12
	VMOVUPS.Z 64(SI), K2, Z13
	ADDQ      R12, SI
	VMOVUPS.Z (SI), K1, Z14
	VMOVUPS.Z 64(SI), K2, Z15
	TESTQ     $2, BX
	JZ        product
	VADDPS    Z18, Z0, Z0
	VADDPS    Z19, Z1, Z1
	VADDPS    Z18, Z2, Z2
	VADDPS    Z19, Z3, Z3
	VADDPS    Z18, Z4, Z4
	VADDPS    Z19, Z5, Z5
	VADDPS    Z18, Z6, Z6
	VADDPS    Z19, Z7, Z7
	VADDPS    Z18, Z8, Z8
	VADDPS    Z19, Z9, Z9
	VADDPS    Z18, Z10, Z10
	VADDPS    Z19, Z11, Z11
	VADDPS    Z18, Z12, Z12
	VADDPS    Z19, Z13, Z13
	VADDPS    Z18, Z14, Z14
	VADDPS    Z19, Z15, Z15

product:
	MOVQ offs+16(FP), SI
	MOVQ x+24(FP), R14
	MOVQ b+40(FP), DI
	MOVQ ldb+48(FP), R11
	SHLQ $2, R11

segment:
	// Row r's A: x plus its byte offset, or zero if that is negative.
	MOVLQSX 0(SI), AX
	TESTQ   AX, AX
	LEAQ    (R14)(AX*1), AX
	CMOVQLT zero+32(FP), AX
	MOVLQSX 4(SI), BX
	TESTQ   BX, BX
	LEAQ    (R14)(BX*1), BX
	CMOVQLT zero+32(FP), BX
	MOVLQSX 8(SI), CX
	TESTQ   CX, CX
	LEAQ    (R14)(CX*1), CX
	CMOVQLT zero+32(FP), CX
	MOVLQSX 12(SI), R8
	TESTQ   R8, R8
	LEAQ    (R14)(R8*1), R8
	CMOVQLT zero+32(FP), R8
	MOVLQSX 16(SI), R9
	TESTQ   R9, R9
	LEAQ    (R14)(R9*1), R9
	CMOVQLT zero+32(FP), R9
	MOVLQSX 20(SI), R10
	TESTQ   R10, R10
	LEAQ    (R14)(R10*1), R10
	CMOVQLT zero+32(FP), R10
	MOVLQSX 24(SI), R12
	TESTQ   R12, R12
	LEAQ    (R14)(R12*1), R12
	CMOVQLT zero+32(FP), R12
	MOVLQSX 28(SI), R13
	TESTQ   R13, R13
	LEAQ    (R14)(R13*1), R13
	CMOVQLT zero+32(FP), R13
	MOVQ k+8(FP), DX
	SHLQ $2, DX
	ADDQ DX, AX
	ADDQ DX, BX
	ADDQ DX, CX
	ADDQ DX, R8
	ADDQ DX, R9
	ADDQ DX, R10
	ADDQ DX, R12
	ADDQ DX, R13
	NEGQ DX
	TESTQ $8, flags+96(FP)
	JNZ   loop8x512bf

loop8x512:
	VMOVUPS.Z    (DI), K1, Z16
	VMOVUPS.Z    64(DI), K2, Z17
	VBROADCASTSS (AX)(DX*1), Z18
	VBROADCASTSS (BX)(DX*1), Z19
	VBROADCASTSS (CX)(DX*1), Z20
	VBROADCASTSS (R8)(DX*1), Z21
	VBROADCASTSS (R9)(DX*1), Z22
	VBROADCASTSS (R10)(DX*1), Z23
	VBROADCASTSS (R12)(DX*1), Z24
	VBROADCASTSS (R13)(DX*1), Z25
	VFMADD231PS  Z16, Z18, Z0
	VFMADD231PS  Z17, Z18, Z1
	VFMADD231PS  Z16, Z19, Z2
	VFMADD231PS  Z17, Z19, Z3
	VFMADD231PS  Z16, Z20, Z4
	VFMADD231PS  Z17, Z20, Z5
	VFMADD231PS  Z16, Z21, Z6
	VFMADD231PS  Z17, Z21, Z7
	VFMADD231PS  Z16, Z22, Z8
	VFMADD231PS  Z17, Z22, Z9
	VFMADD231PS  Z16, Z23, Z10
	VFMADD231PS  Z17, Z23, Z11
	VFMADD231PS  Z16, Z24, Z12
	VFMADD231PS  Z17, Z24, Z13
	VFMADD231PS  Z16, Z25, Z14
	VFMADD231PS  Z17, Z25, Z15
	ADDQ         R11, DI
	ADDQ         $4, DX
	JNZ          loop8x512
	JMP          nextsegment

	// bf16 (flag 8, AVX512_BF16): A's and B's rows hold k pairs of
	// bfloat16 (uint32: the even p in the low half), and each step adds
	// both products of a pair with VDPBF16PS (float32 accumulation,
	// rounding as the CPU does it). The Go assembler has no AVX512_BF16
	// mnemonics: VDPBF16PS zmm1, zmm2, zmm3 (EVEX.512.F3.0F38.W0 52 /r)
	// is written as its bytes, the operands in Go's order in the comment
	// (src2, src1, destination).
loop8x512bf:
	VMOVUPS.Z    (DI), K1, Z16
	VMOVUPS.Z    64(DI), K2, Z17
	VPBROADCASTD (AX)(DX*1), Z18
	VPBROADCASTD (BX)(DX*1), Z19
	VPBROADCASTD (CX)(DX*1), Z20
	VPBROADCASTD (R8)(DX*1), Z21
	VPBROADCASTD (R9)(DX*1), Z22
	VPBROADCASTD (R10)(DX*1), Z23
	VPBROADCASTD (R12)(DX*1), Z24
	VPBROADCASTD (R13)(DX*1), Z25
	BYTE $0x62; BYTE $0xb2; BYTE $0x6e; BYTE $0x40; BYTE $0x52; BYTE $0xc0 // VDPBF16PS Z16, Z18, Z0
	BYTE $0x62; BYTE $0xb2; BYTE $0x6e; BYTE $0x40; BYTE $0x52; BYTE $0xc9 // VDPBF16PS Z17, Z18, Z1
	BYTE $0x62; BYTE $0xb2; BYTE $0x66; BYTE $0x40; BYTE $0x52; BYTE $0xd0 // VDPBF16PS Z16, Z19, Z2
	BYTE $0x62; BYTE $0xb2; BYTE $0x66; BYTE $0x40; BYTE $0x52; BYTE $0xd9 // VDPBF16PS Z17, Z19, Z3
	BYTE $0x62; BYTE $0xb2; BYTE $0x5e; BYTE $0x40; BYTE $0x52; BYTE $0xe0 // VDPBF16PS Z16, Z20, Z4
	BYTE $0x62; BYTE $0xb2; BYTE $0x5e; BYTE $0x40; BYTE $0x52; BYTE $0xe9 // VDPBF16PS Z17, Z20, Z5
	BYTE $0x62; BYTE $0xb2; BYTE $0x56; BYTE $0x40; BYTE $0x52; BYTE $0xf0 // VDPBF16PS Z16, Z21, Z6
	BYTE $0x62; BYTE $0xb2; BYTE $0x56; BYTE $0x40; BYTE $0x52; BYTE $0xf9 // VDPBF16PS Z17, Z21, Z7
	BYTE $0x62; BYTE $0x32; BYTE $0x4e; BYTE $0x40; BYTE $0x52; BYTE $0xc0 // VDPBF16PS Z16, Z22, Z8
	BYTE $0x62; BYTE $0x32; BYTE $0x4e; BYTE $0x40; BYTE $0x52; BYTE $0xc9 // VDPBF16PS Z17, Z22, Z9
	BYTE $0x62; BYTE $0x32; BYTE $0x46; BYTE $0x40; BYTE $0x52; BYTE $0xd0 // VDPBF16PS Z16, Z23, Z10
	BYTE $0x62; BYTE $0x32; BYTE $0x46; BYTE $0x40; BYTE $0x52; BYTE $0xd9 // VDPBF16PS Z17, Z23, Z11
	BYTE $0x62; BYTE $0x32; BYTE $0x3e; BYTE $0x40; BYTE $0x52; BYTE $0xe0 // VDPBF16PS Z16, Z24, Z12
	BYTE $0x62; BYTE $0x32; BYTE $0x3e; BYTE $0x40; BYTE $0x52; BYTE $0xe9 // VDPBF16PS Z17, Z24, Z13
	BYTE $0x62; BYTE $0x32; BYTE $0x36; BYTE $0x40; BYTE $0x52; BYTE $0xf0 // VDPBF16PS Z16, Z25, Z14
	BYTE $0x62; BYTE $0x32; BYTE $0x36; BYTE $0x40; BYTE $0x52; BYTE $0xf9 // VDPBF16PS Z17, Z25, Z15
	ADDQ         R11, DI
	ADDQ         $4, DX
	JNZ          loop8x512bf

nextsegment:
	ADDQ $32, SI
	DECQ segs+0(FP)
	JNZ  segment

	// The epilogue: ReLU (flag 4) on the bits, as relu does (a negative
	// number or zero becomes +0), then the stores.
	MOVQ  flags+96(FP), BX
	TESTQ $4, BX
	JZ    store
	VPSRAD  $31, Z0, Z16
	VPANDND Z0, Z16, Z0
	VPSRAD  $31, Z1, Z17
	VPANDND Z1, Z17, Z1
	VPSRAD  $31, Z2, Z16
	VPANDND Z2, Z16, Z2
	VPSRAD  $31, Z3, Z17
	VPANDND Z3, Z17, Z3
	VPSRAD  $31, Z4, Z16
	VPANDND Z4, Z16, Z4
	VPSRAD  $31, Z5, Z17
	VPANDND Z5, Z17, Z5
	VPSRAD  $31, Z6, Z16
	VPANDND Z6, Z16, Z6
	VPSRAD  $31, Z7, Z17
	VPANDND Z7, Z17, Z7
	VPSRAD  $31, Z8, Z16
	VPANDND Z8, Z16, Z8
	VPSRAD  $31, Z9, Z17
	VPANDND Z9, Z17, Z9
	VPSRAD  $31, Z10, Z16
	VPANDND Z10, Z16, Z10
	VPSRAD  $31, Z11, Z17
	VPANDND Z11, Z17, Z11
	VPSRAD  $31, Z12, Z16
	VPANDND Z12, Z16, Z12
	VPSRAD  $31, Z13, Z17
	VPANDND Z13, Z17, Z13
	VPSRAD  $31, Z14, Z16
	VPANDND Z14, Z16, Z14
	VPSRAD  $31, Z15, Z17
	VPANDND Z15, Z17, Z15

store:
	MOVQ    c+56(FP), DX
	MOVQ    ldc+64(FP), R12
	SHLQ    $2, R12
	VMOVUPS Z0, K1, (DX)
	VMOVUPS Z1, K2, 64(DX)
	ADDQ    R12, DX
	VMOVUPS Z2, K1, (DX)
	VMOVUPS Z3, K2, 64(DX)
	ADDQ    R12, DX
	VMOVUPS Z4, K1, (DX)
	VMOVUPS Z5, K2, 64(DX)
	ADDQ    R12, DX
	VMOVUPS Z6, K1, (DX)
	VMOVUPS Z7, K2, 64(DX)
	ADDQ    R12, DX
	VMOVUPS Z8, K1, (DX)
	VMOVUPS Z9, K2, 64(DX)
	ADDQ    R12, DX
	VMOVUPS Z10, K1, (DX)
	VMOVUPS Z11, K2, 64(DX)
	ADDQ    R12, DX
	VMOVUPS Z12, K1, (DX)
	VMOVUPS Z13, K2, 64(DX)
	ADDQ    R12, DX
	VMOVUPS Z14, K1, (DX)
	VMOVUPS Z15, K2, 64(DX)
	VZEROUPPER
	RET

// K1 := the mask of min(DX, 16) columns; CX := that count. Clobbers AX.
#define COLMASK \
	MOVQ  DX, CX  \
	CMPQ  CX, $16 \
	JLE   2(PC)   \
	MOVQ  $16, CX \
	MOVL  $1, AX  \
	SHLL  CX, AX  \
	DECL  AX      \
	KMOVW AX, K1

// K1, K2 := the masks of the first and second 16 of min(DX, 32) columns;
// CX := that count. Clobbers AX.
#define COLMASK32 \
	MOVQ  DX, CX  \
	CMPQ  CX, $32 \
	JLE   2(PC)   \
	MOVQ  $32, CX \
	MOVQ  $1, AX  \
	SHLQ  CX, AX  \
	DECQ  AX      \
	KMOVW AX, K1  \
	SHRQ  $16, AX \
	KMOVW AX, K2

// func sumRowsAVX512(out, x *float32, rows, f int, scale float32)
//
// By 32 columns (two chains of additions, one per 16), rows inner.
TEXT ·sumRowsAVX512(SB), NOSPLIT, $0-36
	MOVQ         out+0(FP), DI
	MOVQ         x+8(FP), SI
	MOVQ         rows+16(FP), R8
	MOVQ         f+24(FP), DX
	VBROADCASTSS scale+32(FP), Z2
	MOVQ         DX, R11
	SHLQ         $2, R11
	TESTQ        DX, DX
	JZ           sumdone

sumchunk:
	COLMASK32
	VPXORD Z0, Z0, Z0
	VPXORD Z3, Z3, Z3
	MOVQ   SI, R9
	MOVQ   R8, R10
	TESTQ  R10, R10
	JZ     sumscale

sumrow:
	VMOVUPS.Z (R9), K1, Z1
	VMOVUPS.Z 64(R9), K2, Z4
	VADDPS    Z1, Z0, Z0
	VADDPS    Z4, Z3, Z3
	ADDQ      R11, R9
	DECQ      R10
	JNZ       sumrow

sumscale:
	VMULPS  Z2, Z0, Z0
	VMULPS  Z2, Z3, Z3
	VMOVUPS Z0, K1, (DI)
	VMOVUPS Z3, K2, 64(DI)
	LEAQ    (DI)(CX*4), DI
	LEAQ    (SI)(CX*4), SI
	SUBQ    CX, DX
	JNZ     sumchunk

sumdone:
	VZEROUPPER
	RET

// func addRowAVX512(dst, x, y *float32, rows, f int)
//
// By 32 columns (y's in registers), rows inner.
TEXT ·addRowAVX512(SB), NOSPLIT, $0-40
	MOVQ  dst+0(FP), DI
	MOVQ  x+8(FP), SI
	MOVQ  y+16(FP), BX
	MOVQ  rows+24(FP), R8
	MOVQ  f+32(FP), DX
	MOVQ  DX, R11
	SHLQ  $2, R11
	TESTQ R8, R8
	JZ    adddone
	TESTQ DX, DX
	JZ    adddone

addchunk:
	COLMASK32
	VMOVUPS.Z (BX), K1, Z2
	VMOVUPS.Z 64(BX), K2, Z3
	MOVQ      SI, R9
	MOVQ      DI, R12
	MOVQ      R8, R10

addrow:
	VMOVUPS.Z (R9), K1, Z0
	VMOVUPS.Z 64(R9), K2, Z1
	VADDPS    Z2, Z0, Z0
	VADDPS    Z3, Z1, Z1
	VMOVUPS   Z0, K1, (R12)
	VMOVUPS   Z1, K2, 64(R12)
	ADDQ      R11, R9
	ADDQ      R11, R12
	DECQ      R10
	JNZ       addrow
	LEAQ      (DI)(CX*4), DI
	LEAQ      (SI)(CX*4), SI
	LEAQ      (BX)(CX*4), BX
	SUBQ      CX, DX
	JNZ       addchunk

adddone:
	VZEROUPPER
	RET

// func mulAddRowAVX512(y, x, w *float32, k, f int)
TEXT ·mulAddRowAVX512(SB), NOSPLIT, $0-40
	MOVQ  y+0(FP), DI
	MOVQ  w+16(FP), SI
	MOVQ  k+24(FP), R8
	MOVQ  f+32(FP), DX
	MOVQ  DX, R11
	SHLQ  $2, R11
	TESTQ DX, DX
	JZ    madone
	TESTQ R8, R8
	JZ    madone

machunk:
	COLMASK
	VMOVUPS.Z (DI), K1, Z0
	MOVQ      x+8(FP), BX
	MOVQ      SI, R9
	MOVQ      R8, R10

marow:
	VBROADCASTSS (BX), Z1
	VMULPS.Z     (R9), Z1, K1, Z2
	VADDPS       Z2, Z0, Z0
	ADDQ         $4, BX
	ADDQ         R11, R9
	DECQ         R10
	JNZ          marow
	VMOVUPS      Z0, K1, (DI)
	LEAQ         (DI)(CX*4), DI
	LEAQ         (SI)(CX*4), SI
	SUBQ         CX, DX
	JNZ          machunk

madone:
	VZEROUPPER
	RET

// func toBF16AVX512(dst *uint16, src *float32, n int)
//
// dst[i] = src[i] rounded to the nearest bfloat16 (ties to even), i < n:
// the float32 bits plus 0x7FFF plus the kept part's lowest bit, shifted
// right by 16 (the rounding of VCVTNEPS2BF16 for finite numbers).
TEXT ·toBF16AVX512(SB), NOSPLIT, $0-24
	MOVQ         dst+0(FP), DI
	MOVQ         src+8(FP), SI
	MOVQ         n+16(FP), DX
	MOVL         $0x7fff, AX
	VPBROADCASTD AX, Z2
	MOVL         $1, AX
	VPBROADCASTD AX, Z3
	TESTQ        DX, DX
	JZ           bfdone

bfchunk:
	COLMASK
	VMOVDQU32.Z (SI), K1, Z0
	VPSRLD      $16, Z0, Z1
	VPANDD      Z3, Z1, Z1
	VPADDD      Z2, Z0, Z0
	VPADDD      Z1, Z0, Z0
	VPSRLD      $16, Z0, Z0
	VPMOVDW     Z0, K1, (DI)
	LEAQ        (DI)(CX*2), DI
	LEAQ        (SI)(CX*4), SI
	SUBQ        CX, DX
	JNZ         bfchunk

bfdone:
	VZEROUPPER
	RET
