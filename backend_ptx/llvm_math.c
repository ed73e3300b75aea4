/* backend_ptx/llvm_math.c: the math library's ops (ir/ops.def, "the math library") as LLVM
 * IR. The one place that holds the algorithms: the accurate f32 functions (log, sin, cos,
 * tanh, erf, pow) are range reductions and polynomials built here from IEEE operations
 * only (fma, add, mul, div, rint, bit operations: no approximate instruction), so that
 * they compute the same bits on any IEEE machine; exp is a reduction around one
 * ex2.approx (CUDA's expf contract; exp_f32 says why). tests/math/math_cpu.c runs these
 * very builders on the host through LLVM's JIT and measures their error against the C
 * library. The .approx ops are PTX's approximate instructions; floor .. isinf are one
 * instruction each. docs/language.md, "Math functions", states the bounds the tests check.
 *
 * Coefficients: Taylor series where they converge fast enough on the reduced range (log,
 * sin, cos, tanh near 0, erf near 0); exp_ieee's polynomial is minimax (one fma fewer
 * than its Taylor series for the same error) and erf's tail is a Chebyshev interpolant of
 * erfc(x) * exp(x^2) on [1, 4] (tools/math_coeffs.py prints both). The constants of the
 * reductions are exact float (or double) values, written in hex.
 *
 * interp/math.c repeats these expansions step by step for the interpreter (the same
 * bits, exp's ex2.approx being exp2f there): change both together; tests/interp/math.test
 * (interp_math_bits) compares them.
 */
#include "llvm_gen.h"

#include <math.h>

/* ---- shorthands for building float arithmetic ---- */

static LLVMTypeRef
ft(LlvmGen *g)
{
	return LLVMFloatTypeInContext(g->ctx);
}

static LLVMTypeRef
dt(LlvmGen *g)
{
	return LLVMDoubleTypeInContext(g->ctx);
}

/* A constant of x's type (f32 or f64): v rounded once to it. */
static LLVMValueRef
kc(LLVMValueRef x, double v)
{
	return LLVMConstReal(LLVMTypeOf(x), v);
}

static LLVMValueRef
fma3(LlvmGen *g, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c)
{
	LLVMTypeRef t = LLVMTypeOf(a);
	LLVMValueRef args[3] = {a, b, c};

	return lg_intrinsic(g, "llvm.fma", &t, 1, args, 3, "");
}

static LLVMValueRef
un(LlvmGen *g, const char *intrinsic, LLVMValueRef a)
{
	LLVMTypeRef t = LLVMTypeOf(a);

	return lg_intrinsic(g, intrinsic, &t, 1, &a, 1, "");
}

static LLVMValueRef
bin(LlvmGen *g, const char *intrinsic, LLVMValueRef a, LLVMValueRef b)
{
	LLVMTypeRef t = LLVMTypeOf(a);
	LLVMValueRef args[2] = {a, b};

	return lg_intrinsic(g, intrinsic, &t, 1, args, 2, "");
}

static LLVMValueRef
add(LlvmGen *g, LLVMValueRef a, LLVMValueRef b)
{
	return LLVMBuildFAdd(g->b, a, b, "");
}

static LLVMValueRef
sub(LlvmGen *g, LLVMValueRef a, LLVMValueRef b)
{
	return LLVMBuildFSub(g->b, a, b, "");
}

static LLVMValueRef
mul(LlvmGen *g, LLVMValueRef a, LLVMValueRef b)
{
	return LLVMBuildFMul(g->b, a, b, "");
}

static LLVMValueRef
neg(LlvmGen *g, LLVMValueRef a)
{
	return LLVMBuildFNeg(g->b, a, "");
}

static LLVMValueRef
cmp(LlvmGen *g, LLVMRealPredicate p, LLVMValueRef a, LLVMValueRef b)
{
	return LLVMBuildFCmp(g->b, p, a, b, "");
}

static LLVMValueRef
sel(LlvmGen *g, LLVMValueRef c, LLVMValueRef a, LLVMValueRef b)
{
	return LLVMBuildSelect(g->b, c, a, b, "");
}

static LLVMValueRef
phi2(LlvmGen *g, LLVMValueRef a, LLVMBasicBlockRef ba, LLVMValueRef b, LLVMBasicBlockRef bb)
{
	LLVMValueRef p = LLVMBuildPhi(g->b, LLVMTypeOf(a), "");

	LLVMAddIncoming(p, &a, &ba, 1);
	LLVMAddIncoming(p, &b, &bb, 1);
	return p;
}

/* c[0] + x * (c[1] + x * (... c[n-1])), one fma per step. */
static LLVMValueRef
horner(LlvmGen *g, LLVMValueRef x, const double *c, int n)
{
	LLVMValueRef p = kc(x, c[n - 1]);
	int i;

	for (i = n - 2; i >= 0; i--)
		p = fma3(g, p, x, kc(x, c[i]));
	return p;
}

/* The integer nearest to x (f32 or f64, already rounded by rint) as an iN; NaN gives 0
 * (the saturating conversion), whose lanes are NaN anyway. */
static LLVMValueRef
to_int(LlvmGen *g, LLVMValueRef k, unsigned bits)
{
	LLVMTypeRef it = LLVMIntTypeInContext(g->ctx, bits), st = LLVMTypeOf(k);

	return lg_intrinsic(g, "llvm.fptosi.sat", (LLVMTypeRef[]){it, st}, 2, &k, 1, "");
}

/* 2^e as a float of type like x's, for e (an iN) in the normal exponent range. */
static LLVMValueRef
pow2i(LlvmGen *g, LLVMValueRef x, LLVMValueRef e)
{
	int dbl = LLVMTypeOf(x) == dt(g);
	LLVMTypeRef it = LLVMIntTypeInContext(g->ctx, dbl ? 64 : 32);
	LLVMValueRef bias = LLVMConstInt(it, dbl ? 1023 : 127, 0);
	LLVMValueRef sh = LLVMConstInt(it, dbl ? 52 : 23, 0);

	return LLVMBuildBitCast(g->b, LLVMBuildShl(g->b, LLVMBuildAdd(g->b, e, bias, ""), sh, ""),
				LLVMTypeOf(x), "");
}

/* ---- exp ---- */

/* e^x for f32 from IEEE operations only, within 1 ulp: what tanh and erf build on (their
 * bounds and bits hold on the host). Cody-Waite: k = rint(x / ln 2), r = x - k ln 2 in two
 * fmas (the first is exact), |r| <= 0.35, e^r by a degree-6 polynomial (1 + r + ..., the
 * other five coefficients minimax for relative error and rounded to f32 one at a time,
 * each time re-fitting the rest: 2^-27.3; tools/math_coeffs.py), then times 2^k in two
 * exact steps so that one rounding makes a subnormal result: 2^(k + 64) built from k's
 * bits, then 2^-64, for x < 0; 2^(k - 64), then 2^64, for x >= 0 (both steps' factors are
 * normal floats for every k). x is clamped to [-104, 88.8] first (the results round to 0
 * and inf beyond), which keeps k in [-150, 128]; NaN passes through the clamps and the
 * polynomial. 18 instructions on sm_90a. */
static LLVMValueRef
exp_ieee(LlvmGen *g, LLVMValueRef x)
{
	static const double poly[7] = {1.0, 1.0, 0x1.fffffcp-2, 0x1.55548cp-3, 0x1.555858p-5,
				       0x1.123714p-7, 0x1.6a7d3cp-10};
	LLVMTypeRef i32 = lg_i32t(g);
	LLVMValueRef s, k, r, p, below, kbits, up, scale;

	x = sel(g, cmp(g, LLVMRealOGT, x, kc(x, 88.8)), kc(x, 88.8), x);
	x = sel(g, cmp(g, LLVMRealOLT, x, kc(x, -104.0)), kc(x, -104.0), x);
	/* k = rint(x log2 e) by a shifter, 1.5 * 2^23 + 63 (exact for |x log2 e| < 2^22): the
	 * sum s holds k + 63 in its low mantissa bits, so bits(s) << 23 is 2^(k - 64)'s
	 * exponent field (the shifter's other bits shift out), and 2^(k + 64)'s is 128 << 23
	 * more. One fma and an add, where rint and a conversion would each take the GPU's
	 * slower conversion pipe. */
	s = fma3(g, x, kc(x, 0x1.715476p+0), kc(x, 12582975.0));       /* log2(e) */
	k = sub(g, s, kc(x, 12582975.0));
	r = fma3(g, neg(g, k), kc(x, 0x1.62e430p-1), x);               /* ln 2, high part */
	r = fma3(g, neg(g, k), kc(x, -0x1.05c610p-29), r);             /* ln 2, low part */
	p = horner(g, r, poly, 7);
	below = cmp(g, LLVMRealOLT, x, kc(x, 0.0));
	kbits = LLVMBuildShl(g->b, LLVMBuildBitCast(g->b, s, i32, ""), lg_c32(g, 23), "");
	/* 128 << 23 for x < 0, else 0: it moves the first factor's exponent up by 128 and
	 * flips 2^64 (0x5f800000) to 2^-64 (0x1f800000); one select for both */
	up = sel(g, below, lg_c32(g, 128 << 23), lg_c32(g, 0));
	scale = LLVMBuildAdd(g->b, kbits, up, "");
	p = mul(g, p, LLVMBuildBitCast(g->b, scale, ft(g), ""));
	return mul(g, p, LLVMBuildBitCast(g->b, LLVMBuildXor(g->b, up, lg_c32(g, 0x5f800000), ""),
					  ft(g), ""));
}

/* sh + floor(x c), rounded down once: fma.rm on the GPU. The host build (math_cpu's JIT
 * has no fma with a rounding mode) computes the same bits in f64, where the product of two
 * floats is exact and the floor and the sum of integers below 2^24 are too. */
static LLVMValueRef
shift_down(LlvmGen *g, LLVMValueRef x, double c, double sh)
{
	LLVMValueRef d;

	if (!g->host_math)
		return lg_intrinsic(g, "llvm.nvvm.fma.rm.f", NULL, 0, (LLVMValueRef[]){x, kc(x, c), kc(x, sh)}, 3, "");
	d = LLVMBuildFMul(g->b, LLVMBuildFPExt(g->b, x, dt(g), ""), LLVMConstReal(dt(g), c), "");
	d = add(g, un(g, "llvm.floor", d), LLVMConstReal(dt(g), sh));
	return LLVMBuildFPTrunc(g->b, d, ft(g), "");
}

/* e^x for f32, the language's `exp`: CUDA's expf contract (2 ulp, full range) at about half
 * the instructions of exp_ieee, since plain code (softmax, silu, softplus) is compared
 * with CUDA C++ that calls expf. x log2 e = j + f with j = floor(x log2 e) clamped to
 * [-126, 127] (by a shifter, 1.5 * 2^23 + 127, added with the product and rounded down in
 * one fma, whose low bits then hold j + 127: min and max on the sum clamp j, and NaN,
 * which fmin/fmax drop, leaves the sum at a bound), f in two fmas (x times log2 e in two
 * parts, minus j: 0 <= f < 1 unless j was clamped), then ex2.approx(f) times 2^j, a normal
 * float built from the sum's bits. Rounding j down, not to nearest, keeps 2^f in [1, 2),
 * one binade: with f in [-0.5, 0.5] the results below 1 have half the ulp, and the H100
 * measured 2.02 ulp there (bench/RESULTS.md section 45). Where j is clamped 2^f carries
 * the rest: below, the result is subnormal, rounded once by the final multiply (not
 * flushed); above, the product overflows to inf past 2^128; -inf and f below -126 give 0
 * (ex2.ftz flushes only results that the product would round to 0). The error is the
 * ex2's and the reduction's (2^-25 absolute in f, twice that for |x| near 88). On the host
 * (math_cpu) ex2 is LLVM's exact exp2. */
static LLVMValueRef
exp_f32(LlvmGen *g, LLVMValueRef x)
{
	const double sh = 12583039.0;           /* 1.5 * 2^23 + 127 */
	LLVMTypeRef i32 = lg_i32t(g);
	LLVMValueRef s, j, f, p, scale;

	s = shift_down(g, x, 0x1.715476p+0, sh);                      /* log2(e) */
	s = bin(g, "llvm.minnum", s, kc(x, sh + 127.0));
	s = bin(g, "llvm.maxnum", s, kc(x, sh - 126.0));
	j = sub(g, s, kc(x, sh));
	f = fma3(g, x, kc(x, 0x1.715476p+0), neg(g, j));
	f = fma3(g, x, kc(x, 0x1.4ae0c0p-26), f);                      /* log2(e) - its f32 */
	p = g->host_math ? un(g, "llvm.exp2", f) : un(g, "llvm.nvvm.ex2.approx.ftz", f);
	scale = LLVMBuildShl(g->b, LLVMBuildBitCast(g->b, s, i32, ""), lg_c32(g, 23), "");
	return mul(g, p, LLVMBuildBitCast(g->b, scale, ft(g), ""));
}

/* ---- log ---- */

/* ln(x) for f32. x = m 2^e with m in [sqrt(1/2), sqrt(2)) (subnormals scaled by 2^23
 * first), f = m - 1 exactly, s = f / (2 + f), and ln(1 + f) = 2 atanh(s) written as
 * f - s (f - T) with T = 2s^2/3 + 2s^4/5 + ... to s^10 (|s| <= 0.172: truncation 2^-30):
 * the error of s is scaled down by |s| <= 0.172. Then e ln 2 in two parts. Zero, negative
 * numbers, inf and NaN are selected at the end. */
static LLVMValueRef
log_f32(LlvmGen *g, LLVMValueRef x)
{
	static const double atanh2[5] = {2.0 / 3, 2.0 / 5, 2.0 / 7, 2.0 / 9, 2.0 / 11};
	LLVMTypeRef i32 = lg_i32t(g);
	LLVMValueRef tiny = cmp(g, LLVMRealOLT, x, kc(x, 0x1p-126));
	LLVMValueRef xs = sel(g, tiny, mul(g, x, kc(x, 0x1p23)), x);
	LLVMValueRef bits = LLVMBuildBitCast(g->b, xs, i32, "");
	LLVMValueRef e = LLVMBuildAShr(g->b, LLVMBuildSub(g->b, bits, lg_c32(g, 0x3f3504f3), ""),
				       lg_c32(g, 23), "");
	LLVMValueRef m = LLVMBuildBitCast(g->b, LLVMBuildSub(g->b, bits,
							      LLVMBuildShl(g->b, e, lg_c32(g, 23), ""), ""),
					  ft(g), "");
	LLVMValueRef f = sub(g, m, kc(x, 1.0));
	LLVMValueRef s = LLVMBuildFDiv(g->b, f, add(g, kc(x, 2.0), f), "");
	LLVMValueRef z = mul(g, s, s);
	LLVMValueRef t = mul(g, z, horner(g, z, atanh2, 5));
	LLVMValueRef l1p = fma3(g, neg(g, s), sub(g, f, t), f);
	LLVMValueRef ef, r;

	e = LLVMBuildSub(g->b, e, sel(g, tiny, lg_c32(g, 23), lg_c32(g, 0)), "");
	ef = LLVMBuildSIToFP(g->b, e, ft(g), "");
	r = fma3(g, ef, kc(x, 0x1.62e430p-1), fma3(g, ef, kc(x, -0x1.05c610p-29), l1p));
	r = sel(g, cmp(g, LLVMRealOEQ, x, kc(x, INFINITY)), x, r);
	r = sel(g, cmp(g, LLVMRealOEQ, x, kc(x, 0.0)), kc(x, -INFINITY), r);
	return sel(g, cmp(g, LLVMRealULT, x, kc(x, 0.0)), kc(x, NAN), r);
}

/* ---- sin, cos ---- */

/* Reduces x to k pi/2 + rh + rl (Cody-Waite) with |rh + rl| <= pi/4 + 0.4 and |rl| <=
 * ulp(rh), for |x| < 2^20 (sincos_f32 sends larger |x| to reduce_huge). k = rint(x 2/pi)
 * with 2/pi as a float pair (one rounding). pi/2 = P1 + P2 + P3 (floats; the rest is
 * 1e-23): x - k P1 is exact (one fma), k P2 is split exactly into a float pair (fma), the
 * subtraction of its high part is exact as a 2Sum, and the small terms go to rl. Sampled
 * on the host up to |x| = 2^22 within 1 ulp (tests/math/math_cpu.c); used below 2^20.
 * Returns rh, sets *rl and *q (k as i32). */
static LLVMValueRef
reduce_pio2(LlvmGen *g, LLVMValueRef x, LLVMValueRef *rl, LLVMValueRef *q)
{
	/* 2/pi as a float pair: x 2/pi rounded once, so k is off by at most 1/4 below 2^22 */
	LLVMValueRef k = un(g, "llvm.rint", fma3(g, x, kc(x, 0x1.45f306p-1),
						 mul(g, x, kc(x, 0x1.b93910p-26))));
	LLVMValueRef nk = neg(g, k);
	LLVMValueRef r1 = fma3(g, nk, kc(x, 0x1.921fb6p+0), x);
	LLVMValueRef th = mul(g, k, kc(x, -0x1.777a5cp-25));
	LLVMValueRef tl = fma3(g, k, kc(x, -0x1.777a5cp-25), neg(g, th));
	LLVMValueRef s = sub(g, r1, th);                                  /* 2Sum: s + err = r1 - th */
	LLVMValueRef bb = sub(g, s, r1);
	LLVMValueRef err = add(g, sub(g, r1, sub(g, s, bb)), sub(g, neg(g, th), bb));
	LLVMValueRef lo = fma3(g, nk, kc(x, -0x1.ee59dap-50), sub(g, err, tl));
	LLVMValueRef rh = add(g, s, lo);                                  /* Fast2Sum: |s| >= |lo| */

	*rl = sub(g, lo, sub(g, rh, s));
	*q = to_int(g, k, 32);
	return rh;
}

/* Bits [s, s + 128) of the 256-bit number t (four 64-bit words, least significant first;
 * zeros above), for s in [0, 191]. */
static LLVMValueRef
window128(LlvmGen *g, const uint64_t *t, LLVMValueRef s)
{
	LLVMTypeRef i64 = lg_i64t(g), i128 = LLVMIntTypeInContext(g->ctx, 128);
	LLVMValueRef w = LLVMBuildLShr(g->b, s, lg_c32(g, 6), ""), word[3], lo, hi;
	LLVMValueRef b = LLVMBuildZExt(g->b, LLVMBuildAnd(g->b, s, lg_c32(g, 63), ""), i64, "");
	int i, j;

	for (i = 0; i < 3; i++) {  /* word[i] = t[w + i] for w in 0..2 */
		word[i] = lg_c64(g, t[i]);
		for (j = 1; j < 3; j++)
			word[i] = sel(g, LLVMBuildICmp(g->b, LLVMIntEQ, w, lg_c32(g, j), ""),
				      lg_c64(g, i + j < 4 ? t[i + j] : 0), word[i]);
	}
	lo = lg_intrinsic(g, "llvm.fshr", &i64, 1, (LLVMValueRef[]){word[1], word[0], b}, 3, "");
	hi = lg_intrinsic(g, "llvm.fshr", &i64, 1, (LLVMValueRef[]){word[2], word[1], b}, 3, "");
	return LLVMBuildOr(g->b, LLVMBuildShl(g->b, LLVMBuildZExt(g->b, hi, i128, ""),
					      LLVMConstInt(i128, 64, 0), ""),
			   LLVMBuildZExt(g->b, lo, i128, ""), "");
}

/* The reduction for |x| >= 2^20 (Payne-Hanek): with |x| = m 2^e (m the 24-bit integer
 * significand), x 2/pi mod 4 needs only the bits of 2/pi from about 2^-(e+96) to 2^(2-e):
 * a 128-bit window of them (of 2/pi to 256 bits: words selected, then funnel shifts, so
 * that no wide shift goes through a stack frame) times m
 * gives 2 integer bits (the quadrant) and 62 fraction bits, whose rounding to the nearest
 * quadrant leaves r in [-1/2, 1/2) times pi/2, scaled in double and split into a float
 * pair. The sign of x is applied to r and q at the end. */
static LLVMValueRef
reduce_huge(LlvmGen *g, LLVMValueRef x, LLVMValueRef *rl, LLVMValueRef *q)
{
	static const uint64_t two_over_pi[4] = {
		0xfe5163abdebbc561ull, 0xdb6295993c439041ull, 0xfc2757d1f534ddc0ull, 0xa2f9836e4e441529ull};
	LLVMTypeRef i32 = lg_i32t(g), i64 = lg_i64t(g), i128 = LLVMIntTypeInContext(g->ctx, 128);
	LLVMValueRef bits = LLVMBuildBitCast(g->b, x, i32, "");
	LLVMValueRef ex = LLVMBuildAnd(g->b, LLVMBuildLShr(g->b, bits, lg_c32(g, 23), ""), lg_c32(g, 255), "");
	LLVMValueRef m = LLVMBuildOr(g->b, LLVMBuildAnd(g->b, bits, lg_c32(g, 0x7fffff), ""),
				     lg_c32(g, 0x800000), "");
	/* window start s0 = 256 - e - 94 with e = ex - 150: bits 2^-(e+94) .. of 2/pi */
	LLVMValueRef s0 = LLVMBuildSub(g->b, lg_c32(g, 256 + 150 - 94), ex, "");
	LLVMValueRef win = window128(g, two_over_pi, s0);
	LLVMValueRef prod = LLVMBuildMul(g->b, win, LLVMBuildZExt(g->b, m, i128, ""), "");
	LLVMValueRef w = LLVMBuildTrunc(g->b, LLVMBuildLShr(g->b, prod, LLVMConstInt(i128, 32, 0), ""), i64, "");
	/* quadrant: w rounded to a multiple of 2^62; f: the signed rest */
	LLVMValueRef qq = LLVMBuildLShr(g->b, LLVMBuildAdd(g->b, w, lg_c64(g, 1ull << 61), ""), lg_c64(g, 62), "");
	LLVMValueRef f = LLVMBuildSub(g->b, w, LLVMBuildShl(g->b, qq, lg_c64(g, 62), ""), "");
	LLVMValueRef rd = LLVMBuildFMul(g->b, LLVMBuildSIToFP(g->b, f, dt(g), ""),
					LLVMConstReal(dt(g), 0x1.921fb54442d18p-62), "");  /* pi/2 2^-62 */
	LLVMValueRef isneg = cmp(g, LLVMRealOLT, x, kc(x, 0.0));
	LLVMValueRef rh = LLVMBuildFPTrunc(g->b, rd, ft(g), "");
	LLVMValueRef lo = LLVMBuildFPTrunc(g->b, LLVMBuildFSub(g->b, rd, LLVMBuildFPExt(g->b, rh, dt(g), ""), ""),
					   ft(g), "");

	qq = LLVMBuildTrunc(g->b, qq, i32, "");
	*q = sel(g, isneg, LLVMBuildNeg(g->b, qq, ""), qq);
	*rl = sel(g, isneg, neg(g, lo), lo);
	return sel(g, isneg, neg(g, rh), rh);
}

/* sin(rh + rl) for |rh| <= 1.2: rh + (rh z S(z) + rl (1 - z/2)), z = rh^2, S Taylor to
 * z^5 (truncation below 2^-29 relative at 1.2, 2^-36 at pi/4). */
static LLVMValueRef
sin_poly(LlvmGen *g, LLVMValueRef rh, LLVMValueRef rl)
{
	static const double s[5] = {-1.0 / 6, 1.0 / 120, -1.0 / 5040, 1.0 / 362880, -1.0 / 39916800};
	LLVMValueRef z = mul(g, rh, rh);
	LLVMValueRef tail = fma3(g, mul(g, kc(rh, -0.5), z), rl, rl);

	return add(g, rh, fma3(g, mul(g, rh, z), horner(g, z, s, 5), tail));
}

/* cos(rh + rl) for |rh| <= 1.2: 1 - z/2 + z^2 C(z) - rh rl, z = rh^2 as an exact pair
 * (z + zl) and 1 - z/2 as hi + its exact error, so that only the small terms round; C
 * Taylor to z^6 (truncation below 2^-33 at 1.2). */
static LLVMValueRef
cos_poly(LlvmGen *g, LLVMValueRef rh, LLVMValueRef rl)
{
	static const double c[5] = {1.0 / 24, -1.0 / 720, 1.0 / 40320, -1.0 / 3628800,
				    1.0 / 479001600};
	LLVMValueRef z = mul(g, rh, rh);
	LLVMValueRef zl = fma3(g, rh, rh, neg(g, z));
	LLVMValueRef h = mul(g, z, kc(rh, 0.5));
	LLVMValueRef hi = sub(g, kc(rh, 1.0), h);
	LLVMValueRef herr = sub(g, sub(g, kc(rh, 1.0), hi), h);          /* Fast2Sum: 1 >= h */
	LLVMValueRef small = sub(g, herr, fma3(g, zl, kc(rh, 0.5), mul(g, rh, rl)));

	return add(g, hi, fma3(g, mul(g, z, z), horner(g, z, c, 5), small));
}

/* sin(x) (cos: shift = 1, cos x = sin(x + pi/2)) for f32: reduce (Cody-Waite, or
 * Payne-Hanek in a branch for 2^20 <= |x| < inf), then by quadrant q + shift: 0 sin r,
 * 1 cos r, 2 -sin r, 3 -cos r. sin(+-0) keeps its sign; inf and NaN give NaN. */
static LLVMValueRef
sincos_f32(LlvmGen *g, LLVMValueRef x, int shift)
{
	LLVMValueRef rl, q, rh = reduce_pio2(g, x, &rl, &q);
	LLVMValueRef ax = un(g, "llvm.fabs", x);
	LLVMValueRef huge = LLVMBuildAnd(g->b, cmp(g, LLVMRealOGE, ax, kc(x, 0x1p20)),
					 cmp(g, LLVMRealONE, ax, kc(x, INFINITY)), "");
	LLVMBasicBlockRef from = LLVMGetInsertBlock(g->b);
	LLVMBasicBlockRef slow = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "trig.huge");
	LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "trig.join");
	LLVMValueRef hrl, hq, hrh, sr, cr, r;

	/* the huge arguments branch away (rare: the warp usually skips the block) */
	LLVMBuildCondBr(g->b, huge, slow, join);
	LLVMPositionBuilderAtEnd(g->b, slow);
	hrh = reduce_huge(g, x, &hrl, &hq);
	slow = LLVMGetInsertBlock(g->b);
	LLVMBuildBr(g->b, join);
	LLVMPositionBuilderAtEnd(g->b, join);
	rh = phi2(g, rh, from, hrh, slow);
	rl = phi2(g, rl, from, hrl, slow);
	q = phi2(g, q, from, hq, slow);
	sr = sin_poly(g, rh, rl);
	cr = cos_poly(g, rh, rl);
	LLVMValueRef qq = LLVMBuildAdd(g->b, q, lg_c32(g, shift), "");
	LLVMValueRef odd = LLVMBuildTrunc(g->b, qq, LLVMInt1TypeInContext(g->ctx), "");
	LLVMValueRef flip = LLVMBuildICmp(g->b, LLVMIntNE,
					  LLVMBuildAnd(g->b, qq, lg_c32(g, 2), ""), lg_c32(g, 0), "");

	r = sel(g, odd, cr, sr);
	r = sel(g, flip, neg(g, r), r);
	if (!shift)
		r = sel(g, cmp(g, LLVMRealOEQ, x, kc(x, 0.0)), x, r);
	return r;
}

/* ---- tanh, erf ---- */

/* tanh(x) for f32: for |x| < 0.55, x + x^3 P(x^2) with the Taylor series to x^21
 * (truncation 2^-30); for |x| < 1.4, M(|x| - 0.975), a Chebyshev interpolant of tanh on
 * [0.55, 1.4] (relative error 2e-10, tools/math_coeffs.py), where the form below loses
 * most to its cancellation; beyond, 1 - 2 / (e^(2|x|) + 1) with exp_ieee (e^(2|x|)
 * overflows to inf past 44: the result is 1); the sign copied from x. */
static LLVMValueRef
tanh_f32(LlvmGen *g, LLVMValueRef x)
{
	static const double t[10] = {
		-0.33333333333333331, 0.13333333333333333, -0.053968253968253971,
		0.021869488536155203, -0.0088632355299021973, 0.0035921280365724811,
		-0.0014558343870513183, 0.00059002744094558595, -0.00023912911424355248,
		9.6915379569294509e-05};
	static const double mid_c[11] = {
		0.75089328362516716, 0.43615927426044787, -0.32750907044447092,
		0.10053819642831652, 0.033676323619502319, -0.049115691612435453,
		0.018374429499363017, 0.0039879373187517919, -0.0076423467732920332,
		0.0026297591191867275, 0.00064251452087240235};
	LLVMValueRef ax = un(g, "llvm.fabs", x);
	LLVMValueRef z = mul(g, x, x);
	LLVMValueRef small = fma3(g, mul(g, x, z), horner(g, z, t, 10), x);
	LLVMValueRef mid = bin(g, "llvm.copysign", horner(g, sub(g, ax, kc(x, 0.975)), mid_c, 11), x);
	LLVMValueRef e = exp_ieee(g, add(g, ax, ax));
	LLVMValueRef big = sub(g, kc(x, 1.0), LLVMBuildFDiv(g->b, kc(x, 2.0), add(g, e, kc(x, 1.0)), ""));

	big = sel(g, cmp(g, LLVMRealOLT, ax, kc(x, 1.4)), mid, bin(g, "llvm.copysign", big, x));
	small = sel(g, cmp(g, LLVMRealOEQ, x, kc(x, 0.0)), x, small);  /* tanh(-0) = -0 */
	return sel(g, cmp(g, LLVMRealOLT, ax, kc(x, 0.55)), small, big);
}

/* erf(x) for f32: for |x| < 1, x + x Q(x^2) with Q the Taylor series of erf(x)/x - 1 to
 * x^24 (truncation 2^-33); beyond, 1 - erfc(|x|) with erfc(a) = e^(-a^2) G(a - 2.5), where
 * G interpolates erfc(a) e^(a^2) on [1, 4] (relative error 6e-9) and a^2 is an exact pair
 * (e^(-h-l) = e^(-h)(1 - l)); |x| is clamped to 4, where erf rounds to 1. */
static LLVMValueRef
erf_f32(LlvmGen *g, LLVMValueRef x)
{
	static const double q[13] = {
		0.12837916709551257, -0.37612638903183754, 0.11283791670955126,
		-0.026866170645131252, 0.005223977625442188, -0.0008548327023450852,
		0.00012055332981789664, -1.492565035840625e-05, 1.6462114365889246e-06,
		-1.6365844691234924e-07, 1.4807192815879218e-08, -1.2290555301717926e-09,
		9.422759064650411e-11};
	static const double gc[13] = {
		0.21080636406114403, -0.074347336742042899, 0.024937994751034639,
		-0.0080016938875772971, 0.0024670657615061598, -0.00073315296433542634,
		0.00021091796372084344, -5.9523156986271997e-05, 1.6114106428795168e-05,
		-3.7472737935364469e-06, 9.7639014613521221e-07, -4.2647343141963472e-07,
		1.0301513123847302e-07};
	LLVMValueRef ax = un(g, "llvm.fabs", x);
	LLVMValueRef small = fma3(g, x, horner(g, mul(g, x, x), q, 13), x);
	LLVMValueRef a = sel(g, cmp(g, LLVMRealOGT, ax, kc(x, 4.0)), kc(x, 4.0), ax);  /* NaN stays */
	LLVMValueRef h = mul(g, a, a);
	LLVMValueRef l = fma3(g, a, a, neg(g, h));
	LLVMValueRef e = exp_ieee(g, neg(g, h));
	LLVMValueRef erfc = mul(g, fma3(g, e, neg(g, l), e), horner(g, sub(g, a, kc(x, 2.5)), gc, 13));
	LLVMValueRef big = bin(g, "llvm.copysign", sub(g, kc(x, 1.0), erfc), x);

	return sel(g, cmp(g, LLVMRealOLT, ax, kc(x, 1.0)), small, big);
}

/* ---- pow ---- */

/* ln(a) for a double a > 0 (finite): as log_f32, in double, T to s^18 (truncation
 * 2^-60). Good to about 2^-52 relative; pow needs 2^-40. */
static LLVMValueRef
log_f64(LlvmGen *g, LLVMValueRef a)
{
	static const double atanh2[9] = {2.0 / 3, 2.0 / 5, 2.0 / 7, 2.0 / 9, 2.0 / 11, 2.0 / 13,
					 2.0 / 15, 2.0 / 17, 2.0 / 19};
	LLVMTypeRef i64 = lg_i64t(g);
	LLVMValueRef bits = LLVMBuildBitCast(g->b, a, i64, "");
	LLVMValueRef e = LLVMBuildAShr(g->b, LLVMBuildSub(g->b, bits, lg_c64(g, 0x3fe6a09e667f3bcdull), ""),
				       lg_c64(g, 52), "");
	LLVMValueRef m = LLVMBuildBitCast(g->b, LLVMBuildSub(g->b, bits,
							      LLVMBuildShl(g->b, e, lg_c64(g, 52), ""), ""),
					  dt(g), "");
	LLVMValueRef f = sub(g, m, kc(a, 1.0));
	LLVMValueRef s = LLVMBuildFDiv(g->b, f, add(g, kc(a, 2.0), f), "");
	LLVMValueRef z = mul(g, s, s);
	LLVMValueRef l1p = fma3(g, neg(g, s), sub(g, f, mul(g, z, horner(g, z, atanh2, 9))), f);
	LLVMValueRef ef = LLVMBuildSIToFP(g->b, e, dt(g), "");

	return fma3(g, ef, kc(a, 0x1.62e42fefa39efp-1), fma3(g, ef, kc(a, 0x1.abc9e3b39803fp-56), l1p));
}

/* e^t for a double t, rounded once to f32: as exp_ieee in double, Taylor to r^12
 * (truncation 2^-58); t is clamped to [-200, 200] (beyond, f32 gives 0 or inf). */
static LLVMValueRef
exp_f64_to_f32(LlvmGen *g, LLVMValueRef t)
{
	double taylor[13];
	LLVMValueRef k, r;
	int i;

	taylor[0] = 1.0;
	for (i = 1; i < 13; i++)
		taylor[i] = taylor[i - 1] / i;
	t = sel(g, cmp(g, LLVMRealOGT, t, kc(t, 200.0)), kc(t, 200.0), t);
	t = sel(g, cmp(g, LLVMRealOLT, t, kc(t, -200.0)), kc(t, -200.0), t);
	k = un(g, "llvm.rint", mul(g, t, kc(t, 0x1.71547652b82fep+0)));
	r = fma3(g, neg(g, k), kc(t, 0x1.62e42fefa39efp-1), t);
	r = fma3(g, neg(g, k), kc(t, 0x1.abc9e3b39803fp-56), r);
	r = mul(g, horner(g, r, taylor, 13), pow2i(g, t, to_int(g, k, 64)));
	return LLVMBuildFPTrunc(g->b, r, ft(g), "");
}

/* x^y for f32 as C's powf: e^(y ln|x|) in double (error below 2^-40 relative before the one
 * rounding to f32), then the sign and the special cases: y = 0 or x = 1 give 1, as does
 * x = -1 with y = +-inf; x < 0 (finite) with a non-integer y is NaN; an odd integer y
 * keeps x's sign (-0 and -inf included). ln 0 = -inf and ln inf = inf make the zero and
 * infinite cases of |x| and y come out of the exponential. */
static LLVMValueRef
pow_f32(LlvmGen *g, LLVMValueRef x, LLVMValueRef y)
{
	LLVMValueRef ax = un(g, "llvm.fabs", x);
	LLVMValueRef ad = LLVMBuildFPExt(g->b, ax, dt(g), "");
	LLVMValueRef l = log_f64(g, ad), r, half, yint, yodd, one;

	l = sel(g, cmp(g, LLVMRealOEQ, ad, kc(ad, 0.0)), kc(ad, -INFINITY), l);
	l = sel(g, cmp(g, LLVMRealOEQ, ad, kc(ad, INFINITY)), ad, l);
	l = sel(g, cmp(g, LLVMRealUNO, ad, ad), ad, l);
	r = exp_f64_to_f32(g, mul(g, LLVMBuildFPExt(g->b, y, dt(g), ""), l));
	half = mul(g, y, kc(y, 0.5));
	yint = cmp(g, LLVMRealOEQ, un(g, "llvm.floor", y), y);
	yodd = LLVMBuildAnd(g->b, yint, cmp(g, LLVMRealUNE, un(g, "llvm.floor", half), half), "");
	r = sel(g, yodd, bin(g, "llvm.copysign", r, x), r);
	r = sel(g, LLVMBuildAnd(g->b, LLVMBuildAnd(g->b, cmp(g, LLVMRealOLT, x, kc(x, 0.0)),
						   cmp(g, LLVMRealONE, x, kc(x, -INFINITY)), ""),
				LLVMBuildNot(g->b, yint, ""), ""),
		kc(x, NAN), r);
	one = LLVMBuildOr(g->b, cmp(g, LLVMRealOEQ, y, kc(y, 0.0)), cmp(g, LLVMRealOEQ, x, kc(x, 1.0)), "");
	one = LLVMBuildOr(g->b, one, LLVMBuildAnd(g->b, cmp(g, LLVMRealOEQ, ax, kc(x, 1.0)),
						  cmp(g, LLVMRealOEQ, un(g, "llvm.fabs", y),
						      kc(y, INFINITY)), ""), "");
	return sel(g, one, kc(x, 1.0), r);
}

/* ---- the approximate forms: PTX's instructions ---- */

static LLVMValueRef
tanh_approx(LlvmGen *g, LLVMValueRef x)
{
	LLVMTypeRef f = ft(g);
	LLVMTypeRef fty = LLVMFunctionType(f, &f, 1, 0);
	static const char text[] = "tanh.approx.f32 $0, $1;", cons[] = "=f,f";
	LLVMValueRef fn = LLVMGetInlineAsm(fty, text, sizeof text - 1, cons, sizeof cons - 1, 0, 0,
					   LLVMInlineAsmDialectATT, 0);

	return LLVMBuildCall2(g->b, fty, fn, &x, 1, "");
}

LLVMValueRef
lg_math_scalar(LlvmGen *g, int opc, LLVMValueRef *a)
{
	LLVMValueRef x = a[0];

	switch (opc) {
	case IR_EXP: return exp_f32(g, x);
	case IR_LOG: return log_f32(g, x);
	case IR_SIN: return sincos_f32(g, x, 0);
	case IR_COS: return sincos_f32(g, x, 1);
	case IR_TANH: return tanh_f32(g, x);
	case IR_ERF: return erf_f32(g, x);
	case IR_POW: return pow_f32(g, x, a[1]);
	case IR_EXP_APPROX:  /* 2^(x log2 e): the product's rounding adds |x| 2^-24 relative;
			      * .ftz as exp2 (llvm_ops.c) */
		return un(g, "llvm.nvvm.ex2.approx.ftz", mul(g, x, kc(x, 0x1.715476p+0)));
	case IR_LOG_APPROX:
		return mul(g, lg_intrinsic(g, "llvm.nvvm.lg2.approx.f", NULL, 0, &x, 1, ""),
			   kc(x, 0x1.62e430p-1));
	case IR_SIN_APPROX: return lg_intrinsic(g, "llvm.nvvm.sin.approx.f", NULL, 0, &x, 1, "");
	case IR_COS_APPROX: return lg_intrinsic(g, "llvm.nvvm.cos.approx.f", NULL, 0, &x, 1, "");
	case IR_TANH_APPROX: return tanh_approx(g, x);
	default: return NULL;
	}
}

/* One instruction each, on scalars or vectors alike (LLVM splits vectors into lanes). */
static LLVMValueRef
exact_op(LlvmGen *g, const IrOp *op, const char *nm)
{
	LLVMValueRef a = lg_arg(g, op, 0);

	switch (op->opc) {
	case IR_FLOOR: return un(g, "llvm.floor", a);
	case IR_CEIL: return un(g, "llvm.ceil", a);
	case IR_TRUNC: return un(g, "llvm.trunc", a);
	case IR_ROUND: return un(g, "llvm.round", a);
	case IR_RINT: return un(g, "llvm.rint", a);
	case IR_COPYSIGN: return bin(g, "llvm.copysign", a, lg_arg(g, op, 1));
	case IR_ISNAN: return LLVMBuildFCmp(g->b, LLVMRealUNO, a, a, nm);
	case IR_ISINF: {
		LLVMTypeRef ty = LLVMTypeOf(a);
		LLVMValueRef args[2] = {a, lg_c32(g, 0x204)};  /* fcNegInf | fcPosInf */

		return lg_intrinsic(g, "llvm.is.fpclass", &ty, 1, args, 2, nm);
	}
	default: return NULL;
	}
}

LLVMValueRef
lg_math_op(LlvmGen *g, const IrOp *op, IrType t, const char *nm)
{
	LLVMValueRef r, a[2], v[2];
	int i, j, n = op->nargs;

	r = exact_op(g, op, nm);
	if (r)
		return r;
	if (t.base != IR_F32) {
		lg_error(g, op, "%s of %s", ir_opinfo[op->opc].name, ir_base_name((IrBase)t.base));
		return LLVMGetPoison(lg_type(g, t));
	}
	for (j = 0; j < n; j++)
		v[j] = lg_arg(g, op, j);
	if (t.lanes == 1)
		return lg_math_scalar(g, op->opc, v);
	r = LLVMGetPoison(lg_type(g, t));
	for (i = 0; i < t.lanes; i++) {
		for (j = 0; j < n; j++)
			a[j] = LLVMBuildExtractElement(g->b, v[j], lg_c32(g, i), "");
		r = LLVMBuildInsertElement(g->b, r, lg_math_scalar(g, op->opc, a), lg_c32(g, i),
					   i == t.lanes - 1 ? nm : "");
	}
	return r;
}
