/* tests/interp/math_bits.c: the interpreter's accurate f32 math functions (interp/math.c)
 * against the backend's own expansions (lg_math_scalar, backend_ptx/llvm_math.c) compiled
 * for the host by LLVM's JIT, bit for bit: every 4093rd f32 bit pattern (both signs, all
 * exponents) and special values for the unary functions, every 65521st pattern against a
 * set of exponents for pow. Both compute with IEEE operations only, so any difference is an
 * interp/math.c that no longer follows llvm_math.c. Prints `PASS interp math NAME (n=...)`
 * or FAIL with the first differing input; exits 1 on a failure. */
#include "llvm_gen.h"
#include "mathlib.h"

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

typedef struct Case {
	const char *name;
	int opc;
	Fn1 interp1;
	Fn2 interp2;
	void *jit;
} Case;

static Case cases[] = {
	{"exp", IR_EXP, im_exp, NULL, NULL},
	{"log", IR_LOG, im_log, NULL, NULL},
	{"sin", IR_SIN, im_sin, NULL, NULL},
	{"cos", IR_COS, im_cos, NULL, NULL},
	{"tanh", IR_TANH, im_tanh, NULL, NULL},
	{"erf", IR_ERF, im_erf, NULL, NULL},
	{"pow", IR_POW, NULL, im_pow, NULL},
};
#define NCASES ((int)(sizeof cases / sizeof cases[0]))

static const float specials[] = {
	0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1.0f, -1.0f, 0.5f, -0.5f, 2.0f, -2.0f, 3.0f,
	1e-45f, 1e-40f, FLT_MIN, FLT_MAX, -FLT_MAX, 88.72283f, 88.8f, -104.0f, -103.97208f,
	0.55f, 0.54999995f, 1.4f, 0.99999994f, 4.0f, 44.0f, 1048576.0f, 1.5707964f, 1e30f,
};
#define NSPECIALS ((int)(sizeof specials / sizeof specials[0]))

static const float exponents[] = {
	0.0f, -0.0f, 1.0f, -1.0f, 2.0f, 3.0f, -3.0f, 0.5f, -0.5f, 1.5f, 7.0f, 1e-3f, 10.5f,
	100.0f, -100.0f, 1e10f, -1e10f, INFINITY, -INFINITY, NAN, 0.33333334f, 1e-40f,
};
#define NEXPONENTS ((int)(sizeof exponents / sizeof exponents[0]))

static float
f_of(uint32_t u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

static uint32_t
u_of(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

/* the same bits, or both NaN (the interpreter canonicalizes NaN payloads) */
static int
same(float a, float b)
{
	return (isnan(a) && isnan(b)) || u_of(a) == u_of(b);
}

/* The backend's function of each case, compiled for the host. */
static LLVMExecutionEngineRef
build(LLVMContextRef ctx)
{
	LLVMModuleRef mod = LLVMModuleCreateWithNameInContext("math_bits", ctx);
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
		int n = cases[i].interp2 ? 2 : 1;

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
			fprintf(stderr, "math_bits: %s: %s\n", cases[i].name, err.s);
			exit(1);
		}
	}
	if (LLVMVerifyModule(mod, LLVMPrintMessageAction, &msg)) {
		fprintf(stderr, "math_bits: invalid module\n");
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
		fprintf(stderr, "math_bits: no JIT: %s\n", msg);
		exit(1);
	}
	for (i = 0; i < NCASES; i++) {
		snprintf(name, sizeof name, "cake_%s", cases[i].name);
		cases[i].jit = (void *)(uintptr_t)LLVMGetFunctionAddress(ee, name);
	}
	return ee;
}

/* 1 and a message at the first input where the interpreter and the backend differ */
static int
check_unary(const Case *c, long *n)
{
	Fn1 jit = (Fn1)(uintptr_t)c->jit;
	uint64_t u;
	int i;

	for (u = 0, i = 0; u < (UINT64_C(1) << 32) || i < NSPECIALS; u += 4093, (*n)++) {
		float x = u < (UINT64_C(1) << 32) ? f_of((uint32_t)u) : specials[i++];

		if (!same(c->interp1(x), jit(x))) {
			printf("FAIL interp math %s: x=%a interp %a backend %a\n", c->name, x,
			       c->interp1(x), jit(x));
			return 1;
		}
	}
	return 0;
}

static int
check_pow(const Case *c, long *n)
{
	Fn2 jit = (Fn2)(uintptr_t)c->jit;
	uint64_t u;
	int j;

	for (u = 0; u < (UINT64_C(1) << 32); u += 65521)
		for (j = 0; j < NEXPONENTS; j++, (*n)++) {
			float x = f_of((uint32_t)u), y = exponents[j];

			if (!same(c->interp2(x, y), jit(x, y))) {
				printf("FAIL interp math %s: x=%a y=%a interp %a backend %a\n", c->name, x,
				       y, c->interp2(x, y), jit(x, y));
				return 1;
			}
		}
	return 0;
}

int
main(void)
{
	LLVMContextRef ctx = LLVMContextCreate();
	LLVMExecutionEngineRef ee = build(ctx);
	int i, failed = 0;

	for (i = 0; i < NCASES; i++) {
		long n = 0;
		int bad = cases[i].interp2 ? check_pow(&cases[i], &n) : check_unary(&cases[i], &n);

		if (!bad)
			printf("PASS interp math %s (n=%ld)\n", cases[i].name, n);
		failed |= bad;
	}
	LLVMDisposeExecutionEngine(ee);
	LLVMContextDispose(ctx);
	return failed;
}
