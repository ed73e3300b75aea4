/* case_gdp.h: the gdp decode family under test (case_gdp.c, test_gdp.c; docs/gdp.md).
 * Every variant's launcher takes the same arguments; test_gdp.c wraps each generated
 * <variant>_launch into a GdpLaunch. */
#ifndef CASE_GDP_H
#define CASE_GDP_H

#include "gputest.h"

typedef struct GdpArgs {
	CakeTensor q, k, v, g, beta, s, o, inter;
	float scale;
} GdpArgs;

typedef int (*GdpLaunch)(const GdpArgs *a, CUstream s, CakeError *err);

/* One compiled kernel: its -D constants, whether it is the staged twin
 * (--no-staging-elision), and whether it has (or is) one: a design that does not stage
 * its state (tma) has none. */
typedef struct GdpVariant {
	const char *name;
	int T, NH, KD, VD, BV, l2norm, f16, staged, twin;
	GdpLaunch launch;
} GdpVariant;

/* The sizes of one case: batch, value heads, value heads per q/k head, and how many
 * tokens' states go to `inter` (0 or T). */
typedef struct GdpSize {
	int B, HV, gqa, ti;
	int large;
} GdpSize;

/* Runs one case on both kernels of a twin pair (elided and staged), or on `on` alone when
 * off is NULL: random inputs from seed, the float64 reference, the checks against it
 * (state and intermediate states 1e-4 relative with floor 0.1, outputs 1e-2 with floor
 * 1e-2), guards, unchanged inputs, and the two kernels' outputs, states and intermediate
 * states bit for bit equal. Prints PASS/FAIL lines; returns the number of failed checks. */
int gdp_run_case(const GtDev *g, CUstream st, const GdpVariant *on, const GdpVariant *off,
		 const GdpSize *sz, uint64_t seed);

#endif
