//go:build !noasm

#include "textflag.h"

// Constants of the vector exp, each replicated twice (one 128-bit lane
// pair): log2e, -ln2hi, -ln2lo, -708.39, 1.5·2^52, 1023 (int), 1, then the
// Taylor coefficients 1/13!, ..., 1/0!.
DATA expn<>+0(SB)/8, $1.4426950408889634
DATA expn<>+8(SB)/8, $1.4426950408889634
DATA expn<>+16(SB)/8, $-6.93147180369123816490e-01
DATA expn<>+24(SB)/8, $-6.93147180369123816490e-01
DATA expn<>+32(SB)/8, $-1.90821492927058770002e-10
DATA expn<>+40(SB)/8, $-1.90821492927058770002e-10
DATA expn<>+48(SB)/8, $-708.39
DATA expn<>+56(SB)/8, $-708.39
DATA expn<>+64(SB)/8, $6755399441055744.0
DATA expn<>+72(SB)/8, $6755399441055744.0
DATA expn<>+80(SB)/8, $1023
DATA expn<>+88(SB)/8, $1023
DATA expn<>+96(SB)/8, $1.0
DATA expn<>+104(SB)/8, $1.0
DATA expn<>+112(SB)/8, $1.6059043836821613e-10
DATA expn<>+120(SB)/8, $1.6059043836821613e-10
DATA expn<>+128(SB)/8, $2.08767569878681e-09
DATA expn<>+136(SB)/8, $2.08767569878681e-09
DATA expn<>+144(SB)/8, $2.505210838544172e-08
DATA expn<>+152(SB)/8, $2.505210838544172e-08
DATA expn<>+160(SB)/8, $2.755731922398589e-07
DATA expn<>+168(SB)/8, $2.755731922398589e-07
DATA expn<>+176(SB)/8, $2.7557319223985893e-06
DATA expn<>+184(SB)/8, $2.7557319223985893e-06
DATA expn<>+192(SB)/8, $2.48015873015873e-05
DATA expn<>+200(SB)/8, $2.48015873015873e-05
DATA expn<>+208(SB)/8, $0.0001984126984126984
DATA expn<>+216(SB)/8, $0.0001984126984126984
DATA expn<>+224(SB)/8, $0.001388888888888889
DATA expn<>+232(SB)/8, $0.001388888888888889
DATA expn<>+240(SB)/8, $0.008333333333333333
DATA expn<>+248(SB)/8, $0.008333333333333333
DATA expn<>+256(SB)/8, $0.041666666666666664
DATA expn<>+264(SB)/8, $0.041666666666666664
DATA expn<>+272(SB)/8, $0.16666666666666666
DATA expn<>+280(SB)/8, $0.16666666666666666
DATA expn<>+288(SB)/8, $0.5
DATA expn<>+296(SB)/8, $0.5
DATA expn<>+304(SB)/8, $1.0
DATA expn<>+312(SB)/8, $1.0
DATA expn<>+320(SB)/8, $1.0
DATA expn<>+328(SB)/8, $1.0
GLOBL expn<>(SB), RODATA|NOPTR, $336

// Advanced SIMD instructions Go's assembler lacks, encoded by hand for the
// .2D (two float64) arrangement: Vd = Vn op Vm.
#define FADD2D(d, n, m) WORD $(0x4E60D400 | ((m)<<16) | ((n)<<5) | (d))
#define FSUB2D(d, n, m) WORD $(0x4EE0D400 | ((m)<<16) | ((n)<<5) | (d))
#define FMUL2D(d, n, m) WORD $(0x6E60DC00 | ((m)<<16) | ((n)<<5) | (d))
#define FMIN2D(d, n, m) WORD $(0x4EE0F400 | ((m)<<16) | ((n)<<5) | (d))
#define FMAX2D(d, n, m) WORD $(0x4E60F400 | ((m)<<16) | ((n)<<5) | (d))
#define FCMGT2D(d, n, m) WORD $(0x6EE0E400 | ((m)<<16) | ((n)<<5) | (d))
#define BIC16B(d, n, m) WORD $(0x4E601C00 | ((m)<<16) | ((n)<<5) | (d))

// func expMapNEON(dst, nb []float64, s, alpha, amp float64)
// dst[j] = amp·exp(min(0, alpha·dst[j] + nb[j] + s)), len(dst) even.
// Same algorithm as expMapAVX2: results for x < -708.39 are flushed to 0.
TEXT ·expMapNEON(SB), NOSPLIT, $0-72
	MOVD dst_base+0(FP), R0
	MOVD dst_len+8(FP), R2
	MOVD nb_base+24(FP), R1
	MOVD s+48(FP), R4
	VDUP R4, V31.D2
	MOVD alpha+56(FP), R4
	VDUP R4, V30.D2
	MOVD amp+64(FP), R4
	VDUP R4, V29.D2
	MOVD $expn<>(SB), R5
	VLD1.P 64(R5), [V8.D2, V9.D2, V10.D2, V11.D2]    // log2e, -ln2hi, -ln2lo, lo
	VLD1.P 64(R5), [V12.D2, V13.D2, V14.D2, V15.D2]  // shifter, bias, one, c13
	VLD1.P 64(R5), [V16.D2, V17.D2, V18.D2, V19.D2]  // c12..c9
	VLD1.P 64(R5), [V20.D2, V21.D2, V22.D2, V23.D2]  // c8..c5
	VLD1.P 64(R5), [V24.D2, V25.D2, V26.D2, V27.D2]  // c4..c1
	VLD1 (R5), [V28.D2]                              // c0
	VEOR V7.B16, V7.B16, V7.B16
	LSR  $1, R2
	CBZ  R2, endexp

loopexp:
	VLD1.P 16(R1), [V0.D2]
	VLD1   (R0), [V1.D2]
	FADD2D(0, 0, 31)
	VFMLA  V1.D2, V30.D2, V0.D2   // x = alpha·dst + nb + s
	FMIN2D(0, 0, 7)               // min(x, 0); NaN propagates
	FMAX2D(1, 0, 11)              // xc = max(x, -708.39)
	VMOV   V12.B16, V2.B16
	VFMLA  V8.D2, V1.D2, V2.D2    // t = xc·log2e + 1.5·2^52
	FSUB2D(3, 2, 12)              // n = t - 1.5·2^52
	VFMLA  V9.D2, V3.D2, V1.D2    // r = xc - n·ln2hi
	VFMLA  V10.D2, V3.D2, V1.D2   // r -= n·ln2lo
	VMOV   V16.B16, V4.B16        // Horner, alternating V4/V5
	VFMLA  V15.D2, V1.D2, V4.D2   // c12 + c13·r
	VMOV   V17.B16, V5.B16
	VFMLA  V4.D2, V1.D2, V5.D2
	VMOV   V18.B16, V4.B16
	VFMLA  V5.D2, V1.D2, V4.D2
	VMOV   V19.B16, V5.B16
	VFMLA  V4.D2, V1.D2, V5.D2
	VMOV   V20.B16, V4.B16
	VFMLA  V5.D2, V1.D2, V4.D2
	VMOV   V21.B16, V5.B16
	VFMLA  V4.D2, V1.D2, V5.D2
	VMOV   V22.B16, V4.B16
	VFMLA  V5.D2, V1.D2, V4.D2
	VMOV   V23.B16, V5.B16
	VFMLA  V4.D2, V1.D2, V5.D2
	VMOV   V24.B16, V4.B16
	VFMLA  V5.D2, V1.D2, V4.D2
	VMOV   V25.B16, V5.B16
	VFMLA  V4.D2, V1.D2, V5.D2
	VMOV   V26.B16, V4.B16
	VFMLA  V5.D2, V1.D2, V4.D2
	VMOV   V27.B16, V5.B16
	VFMLA  V4.D2, V1.D2, V5.D2
	VMOV   V28.B16, V4.B16
	VFMLA  V5.D2, V1.D2, V4.D2    // p = e^r
	VADD   V13.D2, V2.D2, V2.D2
	VSHL   $52, V2.D2, V2.D2      // 2^n
	FMUL2D(4, 4, 2)
	FMUL2D(4, 4, 29)
	FCMGT2D(5, 11, 0)             // x < -708.39 (false for NaN)
	BIC16B(4, 4, 5)
	VST1.P [V4.D2], 16(R0)
	SUB    $1, R2
	CBNZ   R2, loopexp

endexp:
	RET

// func sqdMapNEON(dst, nb []float64, s, alpha float64)
// dst[j] = max(0, alpha·dst[j] + nb[j] + s), len(dst) even.
TEXT ·sqdMapNEON(SB), NOSPLIT, $0-64
	MOVD dst_base+0(FP), R0
	MOVD dst_len+8(FP), R2
	MOVD nb_base+24(FP), R1
	MOVD s+48(FP), R4
	VDUP R4, V31.D2
	MOVD alpha+56(FP), R4
	VDUP R4, V30.D2
	VEOR V7.B16, V7.B16, V7.B16
	LSR  $1, R2
	CBZ  R2, endsqd

loopsqd:
	VLD1.P 16(R1), [V0.D2]
	VLD1   (R0), [V1.D2]
	FADD2D(0, 0, 31)
	VFMLA  V1.D2, V30.D2, V0.D2
	FMAX2D(0, 0, 7)
	VST1.P [V0.D2], 16(R0)
	SUB    $1, R2
	CBNZ   R2, loopsqd

endsqd:
	RET

// func powMapNEON(dst []float64, scale, off, amp float64, p int)
// dst[j] = amp·(scale·dst[j] + off)^p by repeated squaring, len(dst) even.
TEXT ·powMapNEON(SB), NOSPLIT, $0-56
	MOVD dst_base+0(FP), R0
	MOVD dst_len+8(FP), R2
	MOVD scale+24(FP), R4
	VDUP R4, V31.D2
	MOVD off+32(FP), R4
	VDUP R4, V30.D2
	MOVD amp+40(FP), R4
	VDUP R4, V29.D2
	MOVD $0x3FF0000000000000, R4  // 1.0
	VDUP R4, V28.D2
	MOVD p+48(FP), R3
	LSR  $1, R2
	CBZ  R2, endpow

looppow:
	VLD1  (R0), [V0.D2]
	VMOV  V30.B16, V1.B16
	VFMLA V0.D2, V31.D2, V1.D2    // y = scale·dst + off
	VMOV  V28.B16, V2.B16         // r = 1
	MOVD  R3, R4

bitspow:
	CBZ  R4, donepow
	TBZ  $0, R4, sqpow
	FMUL2D(2, 2, 1)

sqpow:
	FMUL2D(1, 1, 1)
	LSR  $1, R4
	B    bitspow

donepow:
	FMUL2D(2, 2, 29)
	VST1.P [V2.D2], 16(R0)
	SUB    $1, R2
	CBNZ   R2, looppow

endpow:
	RET

// func sqdTileNEON(dst *float64, ldd int, a *float64, lda int, bp *float64, d int)
// 4×4 tile of squared distances; accumulators V0-V7 (row r: V2r, V2r+1).
TEXT ·sqdTileNEON(SB), NOSPLIT, $0-48
	MOVD dst+0(FP), R0
	MOVD ldd+8(FP), R1
	LSL  $3, R1
	MOVD a+16(FP), R2
	MOVD lda+24(FP), R3
	LSL  $3, R3
	MOVD bp+32(FP), R4
	MOVD d+40(FP), R5
	ADD  R3, R2, R6
	ADD  R3, R6, R7
	ADD  R3, R7, R8
	VEOR V0.B16, V0.B16, V0.B16
	VEOR V1.B16, V1.B16, V1.B16
	VEOR V2.B16, V2.B16, V2.B16
	VEOR V3.B16, V3.B16, V3.B16
	VEOR V4.B16, V4.B16, V4.B16
	VEOR V5.B16, V5.B16, V5.B16
	VEOR V6.B16, V6.B16, V6.B16
	VEOR V7.B16, V7.B16, V7.B16

looptile:
	VLD1.P  32(R4), [V8.D2, V9.D2]
	VLD1R.P 8(R2), [V10.D2]
	VLD1R.P 8(R6), [V11.D2]
	VLD1R.P 8(R7), [V12.D2]
	VLD1R.P 8(R8), [V13.D2]
	FSUB2D(14, 10, 8)
	FSUB2D(15, 10, 9)
	FSUB2D(16, 11, 8)
	FSUB2D(17, 11, 9)
	FSUB2D(18, 12, 8)
	FSUB2D(19, 12, 9)
	FSUB2D(20, 13, 8)
	FSUB2D(21, 13, 9)
	VFMLA   V14.D2, V14.D2, V0.D2
	VFMLA   V15.D2, V15.D2, V1.D2
	VFMLA   V16.D2, V16.D2, V2.D2
	VFMLA   V17.D2, V17.D2, V3.D2
	VFMLA   V18.D2, V18.D2, V4.D2
	VFMLA   V19.D2, V19.D2, V5.D2
	VFMLA   V20.D2, V20.D2, V6.D2
	VFMLA   V21.D2, V21.D2, V7.D2
	SUB     $1, R5
	CBNZ    R5, looptile

	VST1 [V0.D2, V1.D2], (R0)
	ADD  R1, R0
	VST1 [V2.D2, V3.D2], (R0)
	ADD  R1, R0
	VST1 [V4.D2, V5.D2], (R0)
	ADD  R1, R0
	VST1 [V6.D2, V7.D2], (R0)
	RET

// func dotTileNEON(dst *float64, ldd int, a *float64, lda int, bp *float64, d int)
// 4×4 tile of inner products.
TEXT ·dotTileNEON(SB), NOSPLIT, $0-48
	MOVD dst+0(FP), R0
	MOVD ldd+8(FP), R1
	LSL  $3, R1
	MOVD a+16(FP), R2
	MOVD lda+24(FP), R3
	LSL  $3, R3
	MOVD bp+32(FP), R4
	MOVD d+40(FP), R5
	ADD  R3, R2, R6
	ADD  R3, R6, R7
	ADD  R3, R7, R8
	VEOR V0.B16, V0.B16, V0.B16
	VEOR V1.B16, V1.B16, V1.B16
	VEOR V2.B16, V2.B16, V2.B16
	VEOR V3.B16, V3.B16, V3.B16
	VEOR V4.B16, V4.B16, V4.B16
	VEOR V5.B16, V5.B16, V5.B16
	VEOR V6.B16, V6.B16, V6.B16
	VEOR V7.B16, V7.B16, V7.B16

loopdot:
	VLD1.P  32(R4), [V8.D2, V9.D2]
	VLD1R.P 8(R2), [V10.D2]
	VLD1R.P 8(R6), [V11.D2]
	VLD1R.P 8(R7), [V12.D2]
	VLD1R.P 8(R8), [V13.D2]
	VFMLA   V8.D2, V10.D2, V0.D2
	VFMLA   V9.D2, V10.D2, V1.D2
	VFMLA   V8.D2, V11.D2, V2.D2
	VFMLA   V9.D2, V11.D2, V3.D2
	VFMLA   V8.D2, V12.D2, V4.D2
	VFMLA   V9.D2, V12.D2, V5.D2
	VFMLA   V8.D2, V13.D2, V6.D2
	VFMLA   V9.D2, V13.D2, V7.D2
	SUB     $1, R5
	CBNZ    R5, loopdot

	VST1 [V0.D2, V1.D2], (R0)
	ADD  R1, R0
	VST1 [V2.D2, V3.D2], (R0)
	ADD  R1, R0
	VST1 [V4.D2, V5.D2], (R0)
	ADD  R1, R0
	VST1 [V6.D2, V7.D2], (R0)
	RET
