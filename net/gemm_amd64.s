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
