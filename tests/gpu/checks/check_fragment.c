/* check_fragment.c: fragment(t, [row0, col0], N) and fragment(v, [col0], N) (docs/
 * language.md, "wgmma and accumulator fragments") on the GPU and, as gpu/emu/check_fragment,
 * under the interpreter, through checks/fragment.cake's kernels. sm_90a only.
 *
 * For each element type (f32, bf16, f16) and each of three placements of the tile (inside
 * x; starting 3 rows above x and running 24 columns past its right edge, with the bias
 * window running past the vector's end; entirely below x), the kernel stores
 * o = x tile + 2 bias and o8 = the 64 x 8 tile. Inputs are random values of the type
 * (never 0), so a zero read where an element exists, a value where the tile is outside
 * x (which must read 0), or an element from the wrong row or column shows. The reference
 * computes o in f32 in the kernel's order (x + b * 2), so the results must be identical
 * bit for bit. */
#include "gputest.h"
#include "fragment_bf16.h"
#include "fragment_f16.h"
#include "fragment_f32.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { F32, BF16, F16, NTYPES };
static const char *names[NTYPES] = {"fragment_f32", "fragment_bf16", "fragment_f16"};
static const int codes[NTYPES] = {CAKE_DTYPE_FLOAT, CAKE_DTYPE_BFLOAT, CAKE_DTYPE_FLOAT};
static const int bytes[NTYPES] = {4, 2, 2};

#define XR 100  /* x is XR x XC, bias NB long */
#define XC 120
#define NB 90

/* An f16 value of a draw (round to nearest even; |x| < 1, no subnormals below 2^-6). */
static uint16_t
f16_bits(float x, float *v)
{
	uint32_t u;
	uint16_t h;
	int e;
	float m;

	m = frexpf(fabsf(x), &e);       /* |x| = m 2^e, m in [0.5, 1) */
	m = nearbyintf(ldexpf(m, 11));  /* 11 significant bits */
	*v = copysignf(ldexpf(m, e - 11), x);
	memcpy(&u, v, 4);
	e = (int)((u >> 23) & 0xff) - 127;
	h = (uint16_t)(((u >> 16) & 0x8000) | (uint32_t)(e + 15) << 10 | ((u >> 13) & 0x3ff));
	return h;
}

/* A random element of type ty (never 0, |x| in [1/32, 1)): its bits at out, its value. */
static float
draw(int ty, GtRng *r, unsigned char *out)
{
	float x, v;
	uint16_t h;

	x = gt_rng_away(r, 1.0, 1.0f / 32);
	switch (ty) {
	case F32:
		memcpy(out, &x, 4);
		return x;
	case BF16:
		h = gt_bf16_from_float(x);
		memcpy(out, &h, 2);
		return gt_bf16_to_float(h);
	default:
		h = f16_bits(x, &v);
		memcpy(out, &h, 2);
		return v;
	}
}

#define LAUNCH(K)                                                                              \
	static int launch_##K(const GtDev *g, GtBuf *b, int code, int bits, const int64_t *p,  \
			      CUstream s, CakeError *err)                                      \
	{                                                                                      \
		static int64_t xs[2] = {XR, XC}, bs[1] = {NB}, os[2] = {64, 64}, o8s[2] = {64, 8}; \
		K##_args a;                                                                    \
		memset(&a, 0, sizeof a);                                                       \
		gt_tensor(&a.x, g, &b[0], code, bits, 2, xs);                                  \
		gt_tensor(&a.bias, g, &b[1], code, bits, 1, bs);                               \
		gt_tensor(&a.o, g, &b[2], CAKE_DTYPE_FLOAT, 32, 2, os);                        \
		gt_tensor(&a.o8, g, &b[3], CAKE_DTYPE_FLOAT, 32, 2, o8s);                      \
		a.r0 = (int32_t)p[0];                                                          \
		a.c0 = (int32_t)p[1];                                                          \
		a.cb = (int32_t)p[2];                                                          \
		return K##_launch(&a, s, err);                                                 \
	}
LAUNCH(fragment_f32)
LAUNCH(fragment_bf16)
LAUNCH(fragment_f16)

static int (*const launches[NTYPES])(const GtDev *, GtBuf *, int, int, const int64_t *, CUstream, CakeError *) = {
	launch_fragment_f32, launch_fragment_bf16, launch_fragment_f16,
};

/* Compares n f32 outputs with ref bit for bit; prints the line; 0 when identical. */
static int
same_bits(const char *name, const char *what, const unsigned char *p, const float *ref, int n, int guards)
{
	int i;

	for (i = 0; i < n; i++)
		if (memcmp(p + 4 * i, &ref[i], 4) != 0)
			break;
	if (i < n || !guards) {
		float got;

		memcpy(&got, p + 4 * (i < n ? i : 0), 4);
		printf("FAIL %s %s: element %d is %.9g, expected %.9g%s\n", name, what, i, got, i < n ? ref[i] : 0.0f,
		       guards ? "" : " (a guard changed)");
		return 1;
	}
	printf("PASS %s %s: %d elements identical\n", name, what, n);
	return 0;
}

static int
run(const GtDev *g, CUstream s, int ty, int place)
{
	static const int64_t places[3][3] = {{20, 30, 10}, {-3, XC - 40, NB - 50}, {XR + 5, 0, NB + 1}};
	static const char *labels[3] = {"inside", "ragged", "outside"};
	const int64_t *p = places[place];
	unsigned char *x = malloc((size_t)XR * XC * 4), *bias = malloc(NB * 4);
	float *xv = malloc((size_t)XR * XC * sizeof *xv), bv[NB], ref[64 * 64], ref8[64 * 8];
	GtBuf b[4];
	GtRng r;
	CakeError err;
	const unsigned char *out;
	char what[64];
	int i, j, failed = 0, guards = 1;

	memset(b, 0, sizeof b);
	if (!x || !bias || !xv || gt_buf_alloc(&b[0], (size_t)XR * XC * bytes[ty], "x") ||
	    gt_buf_alloc(&b[1], NB * (size_t)bytes[ty], "bias") || gt_buf_alloc(&b[2], 64 * 64 * 4, "o") ||
	    gt_buf_alloc(&b[3], 64 * 8 * 4, "o8")) {
		printf("FAIL %s: set-up failed\n", names[ty]);
		failed = 1;
		goto out;
	}
	gt_rng_seed(&r, gt_seed(names[ty], place));
	for (i = 0; i < XR * XC; i++)
		xv[i] = draw(ty, &r, x + (size_t)i * bytes[ty]);
	for (i = 0; i < NB; i++)
		bv[i] = draw(ty, &r, bias + (size_t)i * bytes[ty]);
	for (i = 0; i < 64; i++)
		for (j = 0; j < 64; j++) {
			int64_t rr = p[0] + i, cc = p[1] + j, bc = p[2] + j;
			float xe = rr >= 0 && rr < XR && cc >= 0 && cc < XC ? xv[rr * XC + cc] : 0.0f;
			float be = bc >= 0 && bc < NB ? bv[bc] : 0.0f;

			ref[i * 64 + j] = xe + be * 2.0f;
			if (j < 8)
				ref8[i * 8 + j] = xe;
		}
	if (gt_buf_poison(&b[0], s, "x") || gt_buf_upload(&b[0], x, s, "x") || gt_buf_poison(&b[1], s, "bias") ||
	    gt_buf_upload(&b[1], bias, s, "bias") || gt_buf_poison(&b[2], s, "o") || gt_buf_poison(&b[3], s, "o8")) {
		failed = 1;
		goto out;
	}
	if (launches[ty](g, b, codes[ty], bytes[ty] * 8, p, s, &err) != CAKE_OK) {
		printf("FAIL %s %s: launch: %s: %s\n", names[ty], labels[place], cakert_status_name(err.status), err.msg);
		failed = 1;
		goto out;
	}
	snprintf(what, sizeof what, "%s o (tile + 2 bias)", labels[place]);
	if (!(out = gt_fetch(&b[2], s, "o", &guards)))
		failed = 1;
	else
		failed += same_bits(names[ty], what, out, ref, 64 * 64, guards);
	snprintf(what, sizeof what, "%s o8 (64 x 8)", labels[place]);
	if (!(out = gt_fetch(&b[3], s, "o8", &guards)))
		failed = 1;
	else
		failed += same_bits(names[ty], what, out, ref8, 64 * 8, guards);
out:
	for (i = 0; i < 4; i++)
		gt_buf_free(&b[i]);
	free(x);
	free(bias);
	free(xv);
	return failed != 0;
}

/* case i: element type i / 3, placement i % 3 */
static int
run_case(const GtDev *g, CUstream s, int i)
{
	return run(g, s, i / 3, i % 3);
}

int
main(void)
{
	return gt_run_sm90("fragment", "cases", 3 * NTYPES, run_case);
}
