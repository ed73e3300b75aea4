/* tests/math/math_cpu.c: the math library's accurate f32 algorithms run on the host. It
 * builds each function with the backend's own builder (lg_math_scalar, backend_ptx/
 * llvm_math.c), compiles it for this machine with LLVM's JIT and compares it with the C
 * library in double over a sweep of inputs: every 4093rd f32 bit pattern (both signs, all
 * exponents: about a million values), dense grids where the algorithms switch branches
 * or lose accuracy, and the special values. The algorithms use IEEE operations only (fma,
 * add, mul, div, rint, bit operations), so the host computes the bits the GPU computes:
 * this checks the algorithms and the bounds of docs/language.md without a GPU (the GPU
 * check tests/gpu/checks/math.cake checks the same bounds on the device). But exp: its
 * one approximate step (ex2.approx) is built as LLVM's exact exp2 here (host_math), so
 * its row checks the reduction, to a tighter bound than the documented one.
 *
 * Prints, per function, `PASS math exp: max_ulp 0.51 <= 1 (n=...)` or FAIL with the worst
 * input; exits 1 on a failure. `math_cpu STRIDE` sweeps every STRIDE-th bit pattern instead
 * (1: all 2^32 of them, minutes). Environment: MATH_CPU_WORST=1 prints every function's
 * worst input, MATH_CPU_DEBUG=1 every input with a wrong special value, MATH_CPU_AT=x the
 * values at x (and nothing else), MATH_CPU_RANGE=r limits sin and cos to |x| <= r. */
#include "llvm_gen.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/ExecutionEngine.h>
#include <llvm-c/Target.h>

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef float (*Fn1)(float);
typedef float (*Fn2)(float, float);

/* One function under test: its op, its reference, the documented bound in ulp and the
 * |x| up to which the bound is documented to hold. */
typedef struct Case {
	const char *name;
	int opc;
	double (*ref1)(double);
	double (*ref2)(double, double);
	double bound;
	double range;
	Fn1 fn1;
	Fn2 fn2;
	double max_ulp;
	float worst[2];
	long n;
} Case;

static Case cases[] = {
	/* exp: ex2 is exact here, so the bound is the reduction's share of the documented 2
	 * (f in [0, 1) is rounded to 2^-25 absolute: 1.15 ulp at worst, where 2^f nears 2) */
	{"exp", IR_EXP, exp, NULL, 1.2, INFINITY, NULL, NULL, 0, {0, 0}, 0},
	{"log", IR_LOG, log, NULL, 1.0, INFINITY, NULL, NULL, 0, {0, 0}, 0},
	{"sin", IR_SIN, sin, NULL, 1.0, INFINITY, NULL, NULL, 0, {0, 0}, 0},
	{"cos", IR_COS, cos, NULL, 1.0, INFINITY, NULL, NULL, 0, {0, 0}, 0},
	{"tanh", IR_TANH, tanh, NULL, 2.0, INFINITY, NULL, NULL, 0, {0, 0}, 0},
	{"erf", IR_ERF, erf, NULL, 2.0, INFINITY, NULL, NULL, 0, {0, 0}, 0},
	{"pow", IR_POW, NULL, pow, 1.0, INFINITY, NULL, NULL, 0, {0, 0}, 0},
};
#define NCASES ((int)(sizeof cases / sizeof cases[0]))

static float
f_of(uint32_t u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

/* The error of got in units of the last place of the f32 nearest to the exact ref (ulps
 * of subnormals below 2^-126; of FLT_MAX above). NaN and infinities must match exactly,
 * zeros in sign too. */
static double
ulp_err(float got, double ref)
{
	int e;

	if (isnan(ref) || isnan(got))
		return isnan(ref) && isnan(got) ? 0 : INFINITY;
	if (ref == 0)
		return got == 0 && !signbit(got) == !signbit(ref) ? 0 : INFINITY;
	if (isinf(got) || isinf((float)ref))
		return got == (float)ref ? 0 : INFINITY;
	frexp(ref, &e);  /* ref = m 2^e, m in [0.5, 1) */
	if (e - 1 < -126)
		e = -125;
	if (e - 1 > 127)
		e = 128;
	return fabs((double)got - ref) / ldexp(1.0, e - 1 - 23);
}

static void
check1(Case *c, float x)
{
	double err;
	float got;

	if (!(fabsf(x) <= c->range) && !isinf(x) && !isnan(x))
		return;
	got = c->fn1(x);
	err = ulp_err(got, c->ref1(x));
	c->n++;
	if (err > 1e9 && getenv("MATH_CPU_DEBUG"))
		printf("%s(%a) = %a, C: %a\n", c->name, x, got, c->ref1(x));
	if (err > c->max_ulp) {
		c->max_ulp = err;
		c->worst[0] = x;
	}
}

static void
check2(Case *c, float x, float y)
{
	double err;
	float got = c->fn2(x, y);

	err = ulp_err(got, c->ref2(x, y));
	c->n++;
	if (err > c->max_ulp) {
		c->max_ulp = err;
		c->worst[0] = x;
		c->worst[1] = y;
	}
}

/* Builds every case's function into one module in ctx and compiles it for the host. */
static LLVMExecutionEngineRef
build(LLVMContextRef ctx)
{
	LLVMModuleRef mod = LLVMModuleCreateWithNameInContext("math_cpu", ctx);
	LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
	LLVMTypeRef f = LLVMFloatTypeInContext(ctx), args[2] = {f, f};
	struct LLVMMCJITCompilerOptions opts;
	LLVMExecutionEngineRef ee;
	Buf err = {0};
	char *msg = NULL, name[32];
	int i;

	for (i = 0; i < NCASES; i++) {
		LlvmGen g;
		LLVMValueRef fn, a[2];
		int n = cases[i].ref2 ? 2 : 1;

		memset(&g, 0, sizeof g);
		snprintf(name, sizeof name, "cake_%s", cases[i].name);
		fn = LLVMAddFunction(mod, name, LLVMFunctionType(f, args, (unsigned)n, 0));
		LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, fn, "entry"));
		g.ctx = ctx;
		g.mod = mod;
		g.b = b;
		g.fn = fn;
		g.err = &err;
		g.host_math = 1;   /* exp's ex2.approx as exp2, which the host runs */
		a[0] = LLVMGetParam(fn, 0);
		a[1] = n > 1 ? LLVMGetParam(fn, 1) : NULL;
		LLVMBuildRet(b, lg_math_scalar(&g, cases[i].opc, a));
		if (g.failed) {
			fprintf(stderr, "math_cpu: %s: %s\n", cases[i].name, err.s);
			exit(1);
		}
	}
	if (LLVMVerifyModule(mod, LLVMPrintMessageAction, &msg)) {
		fprintf(stderr, "math_cpu: invalid module\n");
		exit(1);
	}
	LLVMDisposeMessage(msg);
	LLVMDisposeBuilder(b);
	buf_free(&err);
	LLVMLinkInMCJIT();
	LLVMInitializeNativeTarget();
	LLVMInitializeNativeAsmPrinter();
	LLVMInitializeMCJITCompilerOptions(&opts, sizeof opts);
	opts.OptLevel = 2;
	if (LLVMCreateMCJITCompilerForModule(&ee, mod, &opts, sizeof opts, &msg)) {
		fprintf(stderr, "math_cpu: no JIT: %s\n", msg);
		exit(1);
	}
	for (i = 0; i < NCASES; i++) {
		snprintf(name, sizeof name, "cake_%s", cases[i].name);
		if (cases[i].ref2)
			cases[i].fn2 = (Fn2)(uintptr_t)LLVMGetFunctionAddress(ee, name);
		else
			cases[i].fn1 = (Fn1)(uintptr_t)LLVMGetFunctionAddress(ee, name);
	}
	return ee;
}

/* Values every function meets: signed zeros, infinities, NaN, subnormals, the extremes. */
static const float specials[] = {
	0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1.0f, -1.0f, 0.5f, -0.5f, 2.0f, -2.0f, 3.0f, -3.0f,
	1e-45f, -1e-45f, 1e-40f, -1e-40f, FLT_MIN, -FLT_MIN, FLT_MAX, -FLT_MAX, 1e-7f, 1e-20f,
	88.72283f, 88.7229f, -87.33654f, -103.97208f, -104.0f, 0.54999995f, 0.55f, 0.99999994f,
	1.0000001f, 3.9999998f, 4.0f, 9.0f, 44.0f, 1.5707964f, 3.1415927f, 105615.0f, 1e10f, 1e30f,
};
#define NSPECIALS ((int)(sizeof specials / sizeof specials[0]))

static void
sweep1(Case *c, uint32_t stride)
{
	uint64_t u;
	int i;

	for (u = 0; u < (UINT64_C(1) << 32); u += stride)
		check1(c, f_of((uint32_t)u));
	for (i = 0; i < NSPECIALS; i++)
		check1(c, specials[i]);
	/* every f32 near the branch points and the hard ranges */
	for (u = 0; u < (1u << 20); u++) {
		float t = 0.5f + (float)u * 0x1p-20f;  /* [0.5, 1.5): log near 1, tanh, erf */

		check1(c, t);
		check1(c, -t);
		check1(c, t * 3.0f);   /* [1.5, 4.5): erf's tail */
		check1(c, -t * 3.0f);
		check1(c, 80.0f + t * 16.0f);   /* exp near overflow, -exp near underflow */
		check1(c, -90.0f - t * 16.0f);
		check1(c, (float)u * 0.0996f);  /* sin, cos: k pi/2 up to 104000 */
	}
}

/* pow: C's special cases over the special values, then random pairs with |result| in and
 * out of range, negative bases with integer exponents, and x near 1 with large y. */
static void
sweep_pow(Case *c)
{
	static const float ys[] = {0.0f, -0.0f, 1.0f, -1.0f, 2.0f, -2.0f, 3.0f, -3.0f, 0.5f, -0.5f,
				   1.5f, INFINITY, -INFINITY, NAN, 16777216.0f, 16777215.0f,
				   -16777215.0f, 1e30f, -1e30f, 1e-45f, 127.0f, -149.0f};
	uint32_t s = 12345;
	int i, j;

	for (i = 0; i < NSPECIALS; i++)
		for (j = 0; j < (int)(sizeof ys / sizeof ys[0]); j++) {
			check2(c, specials[i], ys[j]);
			check2(c, ys[j], specials[i]);
		}
	for (i = 0; i < 4000000; i++) {
		float x, y;

		s = s * 1664525u + 1013904223u;
		x = ldexpf(1.0f + (float)(s >> 9) * 0x1p-23f, (int)(s % 64) - 32);
		s = s * 1664525u + 1013904223u;
		y = ((float)(s >> 8) * 0x1p-24f - 0.5f) * 300.0f;
		if (i % 4 == 1)
			y = rintf(y);
		if (i % 4 == 1 && (s & 1))
			x = -x;
		if (i % 4 == 2) {  /* x near 1, large y */
			x = 1.0f + ((float)(s >> 8) * 0x1p-24f - 0.5f) * 0x1p-10f;
			y *= 1e4f;
		}
		if (i % 4 == 3) {  /* all scales, small half-integer exponents */
			x = ldexpf(1.0f + (float)(s >> 9) * 0x1p-23f, (int)(s % 300) - 150);
			y = (float)((s >> 3) % 7) - 3.0f + 0.5f;
		}
		check2(c, x, y);
	}
}

int
main(int argc, char **argv)
{
	uint32_t stride = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 0) : 4093;
	LLVMContextRef ctx = LLVMContextCreate();
	LLVMExecutionEngineRef ee = build(ctx);
	int i, failed = 0;

	if (getenv("MATH_CPU_RANGE"))  /* to explore where sin and cos stay within the bound */
		cases[2].range = cases[3].range = strtod(getenv("MATH_CPU_RANGE"), NULL);
	if (getenv("MATH_CPU_AT")) {
		float x = strtof(getenv("MATH_CPU_AT"), NULL);

		for (i = 0; i < NCASES; i++)
			if (!cases[i].ref2)
				printf("%s(%a) = %a, C: %a\n", cases[i].name, x, cases[i].fn1(x), cases[i].ref1(x));
		failed = -1;
	}
	for (i = 0; failed >= 0 && i < NCASES; i++) {
		Case *c = &cases[i];
		int ok;

		if (c->ref2)
			sweep_pow(c);
		else
			sweep1(c, stride ? stride : 1);
		ok = c->max_ulp <= c->bound;
		failed |= !ok;
		printf("%s math %s: max_ulp %.2f <= %g (n=%ld)", ok ? "PASS" : "FAIL", c->name,
		       c->max_ulp, c->bound, c->n);
		if (!ok || getenv("MATH_CPU_WORST"))
			printf(" worst at x=%a y=%a", c->worst[0], c->worst[1]);
		printf("\n");
	}
	LLVMDisposeExecutionEngine(ee);  /* and the module */
	LLVMContextDispose(ctx);
	return failed > 0;
}
