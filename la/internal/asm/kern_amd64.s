//go:build !noasm

#include "textflag.h"

// Constants of the vector exp, each replicated four times (32 bytes) so
// that AVX2 code can use them as memory operands; AVX-512 code broadcasts
// the first copy. Offsets: 32*index, see the #defines in gram_amd64.s.
DATA expc<>+0(SB)/8, $1.4426950408889634
DATA expc<>+8(SB)/8, $1.4426950408889634
DATA expc<>+16(SB)/8, $1.4426950408889634
DATA expc<>+24(SB)/8, $1.4426950408889634
DATA expc<>+32(SB)/8, $-6.93147180369123816490e-01
DATA expc<>+40(SB)/8, $-6.93147180369123816490e-01
DATA expc<>+48(SB)/8, $-6.93147180369123816490e-01
DATA expc<>+56(SB)/8, $-6.93147180369123816490e-01
DATA expc<>+64(SB)/8, $-1.90821492927058770002e-10
DATA expc<>+72(SB)/8, $-1.90821492927058770002e-10
DATA expc<>+80(SB)/8, $-1.90821492927058770002e-10
DATA expc<>+88(SB)/8, $-1.90821492927058770002e-10
DATA expc<>+96(SB)/8, $-746.0
DATA expc<>+104(SB)/8, $-746.0
DATA expc<>+112(SB)/8, $-746.0
DATA expc<>+120(SB)/8, $-746.0
DATA expc<>+128(SB)/8, $-708.39
DATA expc<>+136(SB)/8, $-708.39
DATA expc<>+144(SB)/8, $-708.39
DATA expc<>+152(SB)/8, $-708.39
DATA expc<>+160(SB)/8, $6755399441055744.0
DATA expc<>+168(SB)/8, $6755399441055744.0
DATA expc<>+176(SB)/8, $6755399441055744.0
DATA expc<>+184(SB)/8, $6755399441055744.0
DATA expc<>+192(SB)/8, $1.0
DATA expc<>+200(SB)/8, $1.0
DATA expc<>+208(SB)/8, $1.0
DATA expc<>+216(SB)/8, $1.0
DATA expc<>+224(SB)/8, $1.6059043836821613e-10
DATA expc<>+232(SB)/8, $1.6059043836821613e-10
DATA expc<>+240(SB)/8, $1.6059043836821613e-10
DATA expc<>+248(SB)/8, $1.6059043836821613e-10
DATA expc<>+256(SB)/8, $2.08767569878681e-09
DATA expc<>+264(SB)/8, $2.08767569878681e-09
DATA expc<>+272(SB)/8, $2.08767569878681e-09
DATA expc<>+280(SB)/8, $2.08767569878681e-09
DATA expc<>+288(SB)/8, $2.505210838544172e-08
DATA expc<>+296(SB)/8, $2.505210838544172e-08
DATA expc<>+304(SB)/8, $2.505210838544172e-08
DATA expc<>+312(SB)/8, $2.505210838544172e-08
DATA expc<>+320(SB)/8, $2.755731922398589e-07
DATA expc<>+328(SB)/8, $2.755731922398589e-07
DATA expc<>+336(SB)/8, $2.755731922398589e-07
DATA expc<>+344(SB)/8, $2.755731922398589e-07
DATA expc<>+352(SB)/8, $2.7557319223985893e-06
DATA expc<>+360(SB)/8, $2.7557319223985893e-06
DATA expc<>+368(SB)/8, $2.7557319223985893e-06
DATA expc<>+376(SB)/8, $2.7557319223985893e-06
DATA expc<>+384(SB)/8, $2.48015873015873e-05
DATA expc<>+392(SB)/8, $2.48015873015873e-05
DATA expc<>+400(SB)/8, $2.48015873015873e-05
DATA expc<>+408(SB)/8, $2.48015873015873e-05
DATA expc<>+416(SB)/8, $0.0001984126984126984
DATA expc<>+424(SB)/8, $0.0001984126984126984
DATA expc<>+432(SB)/8, $0.0001984126984126984
DATA expc<>+440(SB)/8, $0.0001984126984126984
DATA expc<>+448(SB)/8, $0.001388888888888889
DATA expc<>+456(SB)/8, $0.001388888888888889
DATA expc<>+464(SB)/8, $0.001388888888888889
DATA expc<>+472(SB)/8, $0.001388888888888889
DATA expc<>+480(SB)/8, $0.008333333333333333
DATA expc<>+488(SB)/8, $0.008333333333333333
DATA expc<>+496(SB)/8, $0.008333333333333333
DATA expc<>+504(SB)/8, $0.008333333333333333
DATA expc<>+512(SB)/8, $0.041666666666666664
DATA expc<>+520(SB)/8, $0.041666666666666664
DATA expc<>+528(SB)/8, $0.041666666666666664
DATA expc<>+536(SB)/8, $0.041666666666666664
DATA expc<>+544(SB)/8, $0.16666666666666666
DATA expc<>+552(SB)/8, $0.16666666666666666
DATA expc<>+560(SB)/8, $0.16666666666666666
DATA expc<>+568(SB)/8, $0.16666666666666666
DATA expc<>+576(SB)/8, $0.5
DATA expc<>+584(SB)/8, $0.5
DATA expc<>+592(SB)/8, $0.5
DATA expc<>+600(SB)/8, $0.5
DATA expc<>+608(SB)/8, $1.0
DATA expc<>+616(SB)/8, $1.0
DATA expc<>+624(SB)/8, $1.0
DATA expc<>+632(SB)/8, $1.0
DATA expc<>+640(SB)/8, $1.0
DATA expc<>+648(SB)/8, $1.0
DATA expc<>+656(SB)/8, $1.0
DATA expc<>+664(SB)/8, $1.0
DATA expc<>+672(SB)/8, $1023
DATA expc<>+680(SB)/8, $1023
DATA expc<>+688(SB)/8, $1023
DATA expc<>+696(SB)/8, $1023
GLOBL expc<>(SB), RODATA|NOPTR, $704

#define LOG2E   expc<>+0(SB)
#define NLN2HI  expc<>+32(SB)
#define NLN2LO  expc<>+64(SB)
#define LO512   expc<>+96(SB)
#define LO2     expc<>+128(SB)
#define SHIFTER expc<>+160(SB)
#define ONE     expc<>+192(SB)
#define C13     expc<>+224(SB)
#define C12     expc<>+256(SB)
#define C11     expc<>+288(SB)
#define C10     expc<>+320(SB)
#define C9      expc<>+352(SB)
#define C8      expc<>+384(SB)
#define C7      expc<>+416(SB)
#define C6      expc<>+448(SB)
#define C5      expc<>+480(SB)
#define C4      expc<>+512(SB)
#define C3      expc<>+544(SB)
#define C2      expc<>+576(SB)
#define C1      expc<>+608(SB)
#define C0      expc<>+640(SB)
#define BIAS    expc<>+672(SB)

// Constants of the AVX-512 exp: 2^(j/16), j = 0..15 (correctly rounded),
// then 16·log2e, -ln2hi/16, -ln2lo/16, 1/16, and 1/7!, ..., 1/2!.
DATA exptab<>+0(SB)/8, $1.0
DATA exptab<>+8(SB)/8, $1.0442737824274138
DATA exptab<>+16(SB)/8, $1.0905077326652577
DATA exptab<>+24(SB)/8, $1.1387886347566916
DATA exptab<>+32(SB)/8, $1.189207115002721
DATA exptab<>+40(SB)/8, $1.241857812073484
DATA exptab<>+48(SB)/8, $1.2968395546510096
DATA exptab<>+56(SB)/8, $1.3542555469368927
DATA exptab<>+64(SB)/8, $1.4142135623730951
DATA exptab<>+72(SB)/8, $1.4768261459394993
DATA exptab<>+80(SB)/8, $1.5422108254079407
DATA exptab<>+88(SB)/8, $1.6104903319492543
DATA exptab<>+96(SB)/8, $1.681792830507429
DATA exptab<>+104(SB)/8, $1.7562521603732995
DATA exptab<>+112(SB)/8, $1.8340080864093424
DATA exptab<>+120(SB)/8, $1.9152065613971474
GLOBL exptab<>(SB), RODATA|NOPTR, $128
DATA expt2<>+0(SB)/8, $23.083120654223414
DATA expt2<>+8(SB)/8, $-0.04332169877307024
DATA expt2<>+16(SB)/8, $-1.1926343307941173e-11
DATA expt2<>+24(SB)/8, $0.0625
DATA expt2<>+32(SB)/8, $0.0001984126984126984
DATA expt2<>+40(SB)/8, $0.001388888888888889
DATA expt2<>+48(SB)/8, $0.008333333333333333
DATA expt2<>+56(SB)/8, $0.041666666666666664
DATA expt2<>+64(SB)/8, $0.16666666666666666
DATA expt2<>+72(SB)/8, $0.5
GLOBL expt2<>(SB), RODATA|NOPTR, $80

#define L2E16     expt2<>+0(SB)
#define NLN2HI16  expt2<>+8(SB)
#define NLN2LO16  expt2<>+16(SB)
#define SIXTEENTH expt2<>+24(SB)
#define Q7        expt2<>+32(SB)
#define Q6        expt2<>+40(SB)
#define Q5        expt2<>+48(SB)
#define Q4        expt2<>+56(SB)
#define Q3        expt2<>+64(SB)
#define Q2        expt2<>+72(SB)

// func expMapAVX512(dst, nb []float64, s, alpha, amp float64)
// dst[j] = amp·exp(min(0, alpha·dst[j] + nb[j] + s)), len(dst) a multiple of 8.
//
// x = (16m + j)·ln2/16 + r, |r| <= ln2/32; e^x = 2^m · T_j · (1 + q(r)),
// with T_j = amp·2^(j/16) looked up in two registers by VPERMI2PD (the low
// four bits of x·16log2e + 1.5·2^52 are j), q(r) = e^r - 1 a degree-7 Taylor
// polynomial (truncation below 2e-18), T_j + T_j·q one FMA, and 2^m applied
// by VSCALEFPD, which also handles gradual underflow.
TEXT ·expMapAVX512(SB), NOSPLIT, $0-72
	MOVQ         dst_base+0(FP), DI
	MOVQ         dst_len+8(FP), CX
	MOVQ         nb_base+24(FP), SI
	VBROADCASTSD s+48(FP), Z31
	VBROADCASTSD alpha+56(FP), Z30
	VBROADCASTSD amp+64(FP), Z29
	VPXORQ       Z28, Z28, Z28
	VBROADCASTSD LO512, Z27
	VBROADCASTSD SHIFTER, Z26
	VBROADCASTSD L2E16, Z25
	VBROADCASTSD NLN2HI16, Z24
	VBROADCASTSD NLN2LO16, Z23
	VBROADCASTSD SIXTEENTH, Z22
	VMULPD       exptab<>+64(SB), Z29, Z21 // amp·2^(j/16), j = 8..15
	VMULPD       exptab<>+0(SB), Z29, Z20  // j = 0..7
	VBROADCASTSD Q7, Z19
	VBROADCASTSD Q6, Z18
	VBROADCASTSD Q5, Z17
	VBROADCASTSD Q4, Z16
	VBROADCASTSD Q3, Z15
	VBROADCASTSD Q2, Z14
	VBROADCASTSD ONE, Z13
	SHRQ         $3, CX
	JZ           e512done

e512loop:
	VMOVUPD     (SI), Z0
	VADDPD      Z31, Z0, Z0
	VFMADD231PD (DI), Z30, Z0    // x = alpha·dst + nb + s
	VMINPD      Z0, Z28, Z0      // min(0, x); NaN in x propagates
	VMAXPD      Z0, Z27, Z0      // max(-746, x): e^x then underflows to 0
	VMOVAPD     Z26, Z1
	VFMADD231PD Z25, Z0, Z1      // t = x·16log2e + 1.5·2^52: low bits = N
	VSUBPD      Z26, Z1, Z2      // N = round(x·16/ln2)
	VFMADD231PD Z24, Z2, Z0      // r = x - N·ln2hi/16
	VFMADD231PD Z23, Z2, Z0      // r -= N·ln2lo/16
	VMULPD      Z22, Z2, Z2      // N/16 (VSCALEFPD floors it to m)
	VPERMI2PD   Z21, Z20, Z1     // T_j, j = N mod 16
	VMOVAPD     Z19, Z3
	VFMADD213PD Z18, Z0, Z3      // Horner for q/r = 1 + r/2 + ... + r^6/7!
	VFMADD213PD Z17, Z0, Z3
	VFMADD213PD Z16, Z0, Z3
	VFMADD213PD Z15, Z0, Z3
	VFMADD213PD Z14, Z0, Z3
	VFMADD213PD Z13, Z0, Z3
	VMULPD      Z0, Z3, Z3       // q = e^r - 1
	VFMADD213PD Z1, Z1, Z3       // T_j + T_j·q
	VSCALEFPD   Z2, Z3, Z3       // ·2^m
	VMOVUPD     Z3, (DI)
	ADDQ        $64, DI
	ADDQ        $64, SI
	DECQ        CX
	JNZ         e512loop

e512done:
	VZEROUPPER
	RET

// func expMapAVX2(dst, nb []float64, s, alpha, amp float64)
// As expMapAVX512, len(dst) a multiple of 4. 2^n is built in the exponent
// field from the low bits of x·log2e + 1.5·2^52; results for x < -708.39
// (below the smallest normal) are set to 0.
TEXT ·expMapAVX2(SB), NOSPLIT, $0-72
	MOVQ         dst_base+0(FP), DI
	MOVQ         dst_len+8(FP), CX
	MOVQ         nb_base+24(FP), SI
	VBROADCASTSD s+48(FP), Y15
	VBROADCASTSD alpha+56(FP), Y14
	VBROADCASTSD amp+64(FP), Y6
	VXORPD       Y13, Y13, Y13
	VMOVUPD      LO2, Y12
	VMOVUPD      SHIFTER, Y11
	VMOVUPD      LOG2E, Y10
	VMOVUPD      NLN2HI, Y9
	VMOVUPD      NLN2LO, Y8
	VMOVUPD      BIAS, Y7
	SHRQ         $2, CX
	JZ           e2done

e2loop:
	VMOVUPD     (SI), Y0
	VADDPD      Y15, Y0, Y0
	VFMADD231PD (DI), Y14, Y0    // x = alpha·dst + nb + s
	VMINPD      Y0, Y13, Y0      // min(0, x); NaN propagates
	VMAXPD      Y0, Y12, Y1      // xc = max(-708.39, x)
	VMOVAPD     Y11, Y2
	VFMADD231PD Y10, Y1, Y2      // t = xc·log2e + 1.5·2^52 (round to nearest)
	VSUBPD      Y11, Y2, Y3      // n
	VFMADD231PD Y9, Y3, Y1       // r = xc - n·ln2hi
	VFMADD231PD Y8, Y3, Y1       // r -= n·ln2lo
	VMOVUPD     C13, Y4
	VFMADD213PD C12, Y1, Y4
	VFMADD213PD C11, Y1, Y4
	VFMADD213PD C10, Y1, Y4
	VFMADD213PD C9, Y1, Y4
	VFMADD213PD C8, Y1, Y4
	VFMADD213PD C7, Y1, Y4
	VFMADD213PD C6, Y1, Y4
	VFMADD213PD C5, Y1, Y4
	VFMADD213PD C4, Y1, Y4
	VFMADD213PD C3, Y1, Y4
	VFMADD213PD C2, Y1, Y4
	VFMADD213PD C1, Y1, Y4
	VFMADD213PD C0, Y1, Y4
	VPADDQ      Y7, Y2, Y2
	VPSLLQ      $52, Y2, Y2      // 2^n
	VMULPD      Y2, Y4, Y4
	VMULPD      Y6, Y4, Y4
	VCMPPD      $1, Y12, Y0, Y5  // x < -708.39 (false for NaN)
	VANDNPD     Y4, Y5, Y4
	VMOVUPD     Y4, (DI)
	ADDQ        $32, DI
	ADDQ        $32, SI
	DECQ        CX
	JNZ         e2loop

e2done:
	VZEROUPPER
	RET

// func sqdMapAVX512(dst, nb []float64, s, alpha float64)
// dst[j] = max(0, alpha·dst[j] + nb[j] + s), len(dst) a multiple of 8.
TEXT ·sqdMapAVX512(SB), NOSPLIT, $0-64
	MOVQ         dst_base+0(FP), DI
	MOVQ         dst_len+8(FP), CX
	MOVQ         nb_base+24(FP), SI
	VBROADCASTSD s+48(FP), Z31
	VBROADCASTSD alpha+56(FP), Z30
	VPXORQ       Z28, Z28, Z28
	SHRQ         $3, CX
	JZ           q512done

q512loop:
	VMOVUPD     (SI), Z0
	VADDPD      Z31, Z0, Z0
	VFMADD231PD (DI), Z30, Z0
	VMAXPD      Z0, Z28, Z0
	VMOVUPD     Z0, (DI)
	ADDQ        $64, DI
	ADDQ        $64, SI
	DECQ        CX
	JNZ         q512loop

q512done:
	VZEROUPPER
	RET

// func sqdMapAVX2(dst, nb []float64, s, alpha float64)
TEXT ·sqdMapAVX2(SB), NOSPLIT, $0-64
	MOVQ         dst_base+0(FP), DI
	MOVQ         dst_len+8(FP), CX
	MOVQ         nb_base+24(FP), SI
	VBROADCASTSD s+48(FP), Y15
	VBROADCASTSD alpha+56(FP), Y14
	VXORPD       Y13, Y13, Y13
	SHRQ         $2, CX
	JZ           q2done

q2loop:
	VMOVUPD     (SI), Y0
	VADDPD      Y15, Y0, Y0
	VFMADD231PD (DI), Y14, Y0
	VMAXPD      Y0, Y13, Y0
	VMOVUPD     Y0, (DI)
	ADDQ        $32, DI
	ADDQ        $32, SI
	DECQ        CX
	JNZ         q2loop

q2done:
	VZEROUPPER
	RET

// func powMapAVX512(dst []float64, scale, off, amp float64, p int)
// dst[j] = amp·(g·dst[j] + off)^p by repeated squaring, as powi;
// len(dst) a multiple of 8.
TEXT ·powMapAVX512(SB), NOSPLIT, $0-56
	MOVQ         dst_base+0(FP), DI
	MOVQ         dst_len+8(FP), CX
	VBROADCASTSD scale+24(FP), Z31
	VBROADCASTSD off+32(FP), Z30
	VBROADCASTSD amp+40(FP), Z29
	VBROADCASTSD ONE, Z28
	MOVQ         p+48(FP), R8
	SHRQ         $3, CX
	JZ           p512done

p512loop:
	VMOVUPD     (DI), Z0
	VFMADD213PD Z30, Z31, Z0     // y = g·dst + off
	VMOVAPD     Z28, Z1          // r = 1
	MOVQ        R8, AX

p512bits:
	TESTQ   AX, AX
	JZ      p512end
	TESTQ   $1, AX
	JZ      p512sq
	VMULPD  Z0, Z1, Z1
p512sq:
	VMULPD  Z0, Z0, Z0
	SHRQ    $1, AX
	JMP     p512bits

p512end:
	VMULPD  Z29, Z1, Z1
	VMOVUPD Z1, (DI)
	ADDQ    $64, DI
	DECQ    CX
	JNZ     p512loop

p512done:
	VZEROUPPER
	RET

// func powMapAVX2(dst []float64, scale, off, amp float64, p int)
TEXT ·powMapAVX2(SB), NOSPLIT, $0-56
	MOVQ         dst_base+0(FP), DI
	MOVQ         dst_len+8(FP), CX
	VBROADCASTSD scale+24(FP), Y15
	VBROADCASTSD off+32(FP), Y14
	VBROADCASTSD amp+40(FP), Y13
	VBROADCASTSD ONE, Y12
	MOVQ         p+48(FP), R8
	SHRQ         $2, CX
	JZ           p2done

p2loop:
	VMOVUPD     (DI), Y0
	VFMADD213PD Y14, Y15, Y0
	VMOVAPD     Y12, Y1
	MOVQ        R8, AX

p2bits:
	TESTQ   AX, AX
	JZ      p2end
	TESTQ   $1, AX
	JZ      p2sq
	VMULPD  Y0, Y1, Y1
p2sq:
	VMULPD  Y0, Y0, Y0
	SHRQ    $1, AX
	JMP     p2bits

p2end:
	VMULPD  Y13, Y1, Y1
	VMOVUPD Y1, (DI)
	ADDQ    $32, DI
	DECQ    CX
	JNZ     p2loop

p2done:
	VZEROUPPER
	RET

// func sqdTileAVX512(dst *float64, ldd int, a *float64, lda int, bp *float64, d int)
// 4×16 tile of squared distances: rows a, a+lda, a+2lda, a+3lda (d each),
// columns packed in bp (16 per k). Accumulators Z0-Z7 (row r: Z2r, Z2r+1).
TEXT ·sqdTileAVX512(SB), NOSPLIT, $0-48
	MOVQ   dst+0(FP), DI
	MOVQ   ldd+8(FP), R8
	SHLQ   $3, R8
	MOVQ   a+16(FP), SI
	MOVQ   lda+24(FP), R9
	SHLQ   $3, R9
	MOVQ   bp+32(FP), DX
	MOVQ   d+40(FP), CX
	LEAQ   (SI)(R9*1), R10
	LEAQ   (R10)(R9*1), R11
	LEAQ   (R11)(R9*1), R12
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	VPXORQ Z4, Z4, Z4
	VPXORQ Z5, Z5, Z5
	VPXORQ Z6, Z6, Z6
	VPXORQ Z7, Z7, Z7

t512loop:
	VMOVUPD      (DX), Z8
	VMOVUPD      64(DX), Z9
	VBROADCASTSD (SI), Z10
	VBROADCASTSD (R10), Z11
	VBROADCASTSD (R11), Z12
	VBROADCASTSD (R12), Z13
	VSUBPD       Z8, Z10, Z14
	VSUBPD       Z9, Z10, Z15
	VSUBPD       Z8, Z11, Z16
	VSUBPD       Z9, Z11, Z17
	VSUBPD       Z8, Z12, Z18
	VSUBPD       Z9, Z12, Z19
	VSUBPD       Z8, Z13, Z20
	VSUBPD       Z9, Z13, Z21
	VFMADD231PD  Z14, Z14, Z0
	VFMADD231PD  Z15, Z15, Z1
	VFMADD231PD  Z16, Z16, Z2
	VFMADD231PD  Z17, Z17, Z3
	VFMADD231PD  Z18, Z18, Z4
	VFMADD231PD  Z19, Z19, Z5
	VFMADD231PD  Z20, Z20, Z6
	VFMADD231PD  Z21, Z21, Z7
	ADDQ         $8, SI
	ADDQ         $8, R10
	ADDQ         $8, R11
	ADDQ         $8, R12
	ADDQ         $128, DX
	DECQ         CX
	JNZ          t512loop

	VMOVUPD Z0, (DI)
	VMOVUPD Z1, 64(DI)
	ADDQ    R8, DI
	VMOVUPD Z2, (DI)
	VMOVUPD Z3, 64(DI)
	ADDQ    R8, DI
	VMOVUPD Z4, (DI)
	VMOVUPD Z5, 64(DI)
	ADDQ    R8, DI
	VMOVUPD Z6, (DI)
	VMOVUPD Z7, 64(DI)
	VZEROUPPER
	RET

// func sqdTileAVX2(dst *float64, ldd int, a *float64, lda int, bp *float64, d int)
// 4×8 tile; accumulators Y0-Y7.
TEXT ·sqdTileAVX2(SB), NOSPLIT, $0-48
	MOVQ   dst+0(FP), DI
	MOVQ   ldd+8(FP), R8
	SHLQ   $3, R8
	MOVQ   a+16(FP), SI
	MOVQ   lda+24(FP), R9
	SHLQ   $3, R9
	MOVQ   bp+32(FP), DX
	MOVQ   d+40(FP), CX
	LEAQ   (SI)(R9*1), R10
	LEAQ   (R10)(R9*1), R11
	LEAQ   (R11)(R9*1), R12
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7

t2loop:
	VMOVUPD      (DX), Y8
	VMOVUPD      32(DX), Y9
	VBROADCASTSD (SI), Y10
	VSUBPD       Y8, Y10, Y11
	VSUBPD       Y9, Y10, Y12
	VFMADD231PD  Y11, Y11, Y0
	VFMADD231PD  Y12, Y12, Y1
	VBROADCASTSD (R10), Y10
	VSUBPD       Y8, Y10, Y13
	VSUBPD       Y9, Y10, Y14
	VFMADD231PD  Y13, Y13, Y2
	VFMADD231PD  Y14, Y14, Y3
	VBROADCASTSD (R11), Y10
	VSUBPD       Y8, Y10, Y11
	VSUBPD       Y9, Y10, Y12
	VFMADD231PD  Y11, Y11, Y4
	VFMADD231PD  Y12, Y12, Y5
	VBROADCASTSD (R12), Y15
	VSUBPD       Y8, Y15, Y13
	VSUBPD       Y9, Y15, Y14
	VFMADD231PD  Y13, Y13, Y6
	VFMADD231PD  Y14, Y14, Y7
	ADDQ         $8, SI
	ADDQ         $8, R10
	ADDQ         $8, R11
	ADDQ         $8, R12
	ADDQ         $64, DX
	DECQ         CX
	JNZ          t2loop

	VMOVUPD Y0, (DI)
	VMOVUPD Y1, 32(DI)
	ADDQ    R8, DI
	VMOVUPD Y2, (DI)
	VMOVUPD Y3, 32(DI)
	ADDQ    R8, DI
	VMOVUPD Y4, (DI)
	VMOVUPD Y5, 32(DI)
	ADDQ    R8, DI
	VMOVUPD Y6, (DI)
	VMOVUPD Y7, 32(DI)
	VZEROUPPER
	RET

// func dotTileAVX512(dst *float64, ldd int, a *float64, lda int, bp *float64, d int)
// 4×16 tile of inner products, operands as sqdTileAVX512.
TEXT ·dotTileAVX512(SB), NOSPLIT, $0-48
	MOVQ   dst+0(FP), DI
	MOVQ   ldd+8(FP), R8
	SHLQ   $3, R8
	MOVQ   a+16(FP), SI
	MOVQ   lda+24(FP), R9
	SHLQ   $3, R9
	MOVQ   bp+32(FP), DX
	MOVQ   d+40(FP), CX
	LEAQ   (SI)(R9*1), R10
	LEAQ   (R10)(R9*1), R11
	LEAQ   (R11)(R9*1), R12
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	VPXORQ Z4, Z4, Z4
	VPXORQ Z5, Z5, Z5
	VPXORQ Z6, Z6, Z6
	VPXORQ Z7, Z7, Z7

d512loop:
	VMOVUPD      (DX), Z8
	VMOVUPD      64(DX), Z9
	VBROADCASTSD (SI), Z10
	VBROADCASTSD (R10), Z11
	VBROADCASTSD (R11), Z12
	VBROADCASTSD (R12), Z13
	VFMADD231PD  Z8, Z10, Z0
	VFMADD231PD  Z9, Z10, Z1
	VFMADD231PD  Z8, Z11, Z2
	VFMADD231PD  Z9, Z11, Z3
	VFMADD231PD  Z8, Z12, Z4
	VFMADD231PD  Z9, Z12, Z5
	VFMADD231PD  Z8, Z13, Z6
	VFMADD231PD  Z9, Z13, Z7
	ADDQ         $8, SI
	ADDQ         $8, R10
	ADDQ         $8, R11
	ADDQ         $8, R12
	ADDQ         $128, DX
	DECQ         CX
	JNZ          d512loop

	VMOVUPD Z0, (DI)
	VMOVUPD Z1, 64(DI)
	ADDQ    R8, DI
	VMOVUPD Z2, (DI)
	VMOVUPD Z3, 64(DI)
	ADDQ    R8, DI
	VMOVUPD Z4, (DI)
	VMOVUPD Z5, 64(DI)
	ADDQ    R8, DI
	VMOVUPD Z6, (DI)
	VMOVUPD Z7, 64(DI)
	VZEROUPPER
	RET

// func dotTileAVX2(dst *float64, ldd int, a *float64, lda int, bp *float64, d int)
// 4×8 tile of inner products.
TEXT ·dotTileAVX2(SB), NOSPLIT, $0-48
	MOVQ   dst+0(FP), DI
	MOVQ   ldd+8(FP), R8
	SHLQ   $3, R8
	MOVQ   a+16(FP), SI
	MOVQ   lda+24(FP), R9
	SHLQ   $3, R9
	MOVQ   bp+32(FP), DX
	MOVQ   d+40(FP), CX
	LEAQ   (SI)(R9*1), R10
	LEAQ   (R10)(R9*1), R11
	LEAQ   (R11)(R9*1), R12
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7

d2loop:
	VMOVUPD      (DX), Y8
	VMOVUPD      32(DX), Y9
	VBROADCASTSD (SI), Y10
	VFMADD231PD  Y8, Y10, Y0
	VFMADD231PD  Y9, Y10, Y1
	VBROADCASTSD (R10), Y11
	VFMADD231PD  Y8, Y11, Y2
	VFMADD231PD  Y9, Y11, Y3
	VBROADCASTSD (R11), Y12
	VFMADD231PD  Y8, Y12, Y4
	VFMADD231PD  Y9, Y12, Y5
	VBROADCASTSD (R12), Y13
	VFMADD231PD  Y8, Y13, Y6
	VFMADD231PD  Y9, Y13, Y7
	ADDQ         $8, SI
	ADDQ         $8, R10
	ADDQ         $8, R11
	ADDQ         $8, R12
	ADDQ         $64, DX
	DECQ         CX
	JNZ          d2loop

	VMOVUPD Y0, (DI)
	VMOVUPD Y1, 32(DI)
	ADDQ    R8, DI
	VMOVUPD Y2, (DI)
	VMOVUPD Y3, 32(DI)
	ADDQ    R8, DI
	VMOVUPD Y4, (DI)
	VMOVUPD Y5, 32(DI)
	ADDQ    R8, DI
	VMOVUPD Y6, (DI)
	VMOVUPD Y7, 32(DI)
	VZEROUPPER
	RET
