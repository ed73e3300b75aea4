/* check_interp_agree.c: the GPU gives the bits the IR interpreter gives (docs/interpreter.md).
 *
 * conv: f32 -> bf16, f16 and i32 conversions of 32 chosen values (ties to even,
 * subnormals, overflow to infinity, saturation, NaN) and v - v (the canonical NaN of f32
 * arithmetic); the expected bits are what cakec-run computes (tests/interp/ops.cake pins
 * the same ones). warpops: ballot, shuffles, votes, a per-lane while loop, shared and
 * global atomics and cp.async, with the expected values from their definitions. contract:
 * f32 a * b - c and its other forms (scalar, f32x2, two products, a product used twice)
 * fused into one fma each, as cakec's contract pass writes them and the interpreter runs
 * them: 2^-24 where two roundings would give 0. Every element must match exactly. Without
 * a GPU it prints SKIPPED. */
#include <stdio.h>
#include <string.h>

#include "gputest.h"
#include "contract.h"
#include "conv.h"
#include "warpops.h"

static const float conv_x[17] = {
	1.0f, 1.00390625f, 1.01171875f, 0.0f /* NaN, set below */, 0.0f /* inf */, -0.0f, 65520.0f,
	3e-8f, 1e-8f, 3.4e38f, -3.4e38f, 2.5f, -2.5f, 65504.0f, 1.0009765625f, 1.00048828125f,
	1.00146484375f,
};

/* the interpreter's bits (cakec-run on the same inputs); elements 17..31 are 1.0 .. 15.0 */
static const uint16_t want_b[32] = {
	0x3f80, 0x3f80, 0x3f82, 0x7fff, 0x7f80, 0x8000, 0x4780, 0x3301, 0x322c, 0x7f80, 0xff80,
	0x4020, 0xc020, 0x4780, 0x3f80, 0x3f80, 0x3f80, 0x3f80, 0x4000, 0x4040, 0x4080, 0x40a0,
	0x40c0, 0x40e0, 0x4100, 0x4110, 0x4120, 0x4130, 0x4140, 0x4150, 0x4160, 0x4170,
};
static const uint16_t want_h[32] = {
	0x3c00, 0x3c04, 0x3c0c, 0x7fff, 0x7c00, 0x8000, 0x7c00, 0x0001, 0x0000, 0x7c00, 0xfc00,
	0x4100, 0xc100, 0x7bff, 0x3c01, 0x3c00, 0x3c02, 0x3c00, 0x4000, 0x4200, 0x4400, 0x4500,
	0x4600, 0x4700, 0x4800, 0x4880, 0x4900, 0x4980, 0x4a00, 0x4a80, 0x4b00, 0x4b80,
};
static const int32_t want_n[32] = {
	1, 1, 1, 0, 2147483647, 0, 65520, 0, 0, 2147483647, -2147483647 - 1, 2, -2, 65504, 1, 1, 1,
	1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
};

static int failures;

static void
expect(const char *what, int i, uint64_t got, uint64_t want)
{
	if (got != want) {
		printf("FAIL interp_agree %s[%d]: GPU 0x%llx, interpreter 0x%llx\n", what, i,
		       (unsigned long long)got, (unsigned long long)want);
		failures++;
	}
}

/* A device buffer of n bytes with data (or poison), as a tensor. */
static int
buffer(const GtDev *g, CUstream s, GtBuf *b, CakeTensor *t, const void *data, size_t n, int code, int bits,
       int ndim, const int64_t *shape, const char *what)
{
	if (gt_buf_alloc(b, n, what) || gt_buf_poison(b, s, what) || (data && gt_buf_upload(b, data, s, what)))
		return 1;
	gt_tensor(t, g, b, code, bits, ndim, shape);
	return 0;
}

static int
run_conv(const GtDev *g, CUstream s)
{
	static const int64_t shape[1] = {32};
	float x[32];
	uint32_t nan = 0x7fc00000u, inf = 0x7f800000u;
	GtBuf bx, bb, bh, bn, bd;
	conv_args a;
	CakeError err;
	const unsigned char *p;
	int i, ok = 1;

	memset(&a, 0, sizeof a);
	for (i = 0; i < 32; i++)
		x[i] = i < 17 ? conv_x[i] : (float)(i - 16);
	memcpy(&x[3], &nan, 4);
	memcpy(&x[4], &inf, 4);
	if (buffer(g, s, &bx, &a.x, x, 128, CAKE_DTYPE_FLOAT, 32, 1, shape, "conv x") ||
	    buffer(g, s, &bb, &a.b, NULL, 64, CAKE_DTYPE_BFLOAT, 16, 1, shape, "conv b") ||
	    buffer(g, s, &bh, &a.h, NULL, 64, CAKE_DTYPE_FLOAT, 16, 1, shape, "conv h") ||
	    buffer(g, s, &bn, &a.n, NULL, 128, CAKE_DTYPE_INT, 32, 1, shape, "conv n") ||
	    buffer(g, s, &bd, &a.d, NULL, 128, CAKE_DTYPE_FLOAT, 32, 1, shape, "conv d"))
		return 1;
	if (conv_launch(&a, s, &err) != CAKE_OK) {
		printf("FAIL interp_agree conv: launch: %s\n", err.msg);
		return 1;
	}
	if ((p = gt_fetch(&bb, s, "conv b", &ok)))
		for (i = 0; i < 32; i++) {
			uint16_t v;

			memcpy(&v, p + 2 * i, 2);
			expect("bf16", i, v, want_b[i]);
		}
	if ((p = gt_fetch(&bh, s, "conv h", &ok)))
		for (i = 0; i < 32; i++) {
			uint16_t v;

			memcpy(&v, p + 2 * i, 2);
			expect("f16", i, v, want_h[i]);
		}
	if ((p = gt_fetch(&bn, s, "conv n", &ok)))
		for (i = 0; i < 32; i++) {
			int32_t v;

			memcpy(&v, p + 4 * i, 4);
			expect("i32", i, (uint32_t)v, (uint32_t)want_n[i]);
		}
	if ((p = gt_fetch(&bd, s, "conv d", &ok)))
		for (i = 0; i < 32; i++) {
			uint32_t v;

			memcpy(&v, p + 4 * i, 4);
			expect("v - v", i, v, i == 3 || i == 4 ? 0x7fffffffu : 0);
		}
	if (!ok) {
		printf("FAIL interp_agree conv: a guard byte changed\n");
		failures++;
	}
	gt_buf_free(&bx);
	gt_buf_free(&bb);
	gt_buf_free(&bh);
	gt_buf_free(&bn);
	gt_buf_free(&bd);
	return 0;
}

static int
run_contract(const GtDev *g, CUstream s)
{
	static const int64_t s_x[1] = {3}, s_d[1] = {8};
	/* 1 + 2^-12, 1 + 2^-11, 1 */
	const float x[3] = {1.000244140625f, 1.00048828125f, 1.0f};
	GtBuf bx, bd;
	contract_args a;
	CakeError err;
	const unsigned char *p;
	int i, ok = 1;

	memset(&a, 0, sizeof a);
	if (buffer(g, s, &bx, &a.x, x, sizeof x, CAKE_DTYPE_FLOAT, 32, 1, s_x, "contract x") ||
	    buffer(g, s, &bd, &a.d, NULL, 32, CAKE_DTYPE_FLOAT, 32, 1, s_d, "contract d"))
		return 1;
	if (contract_launch(&a, s, &err) != CAKE_OK) {
		printf("FAIL interp_agree contract: launch: %s\n", err.msg);
		return 1;
	}
	if ((p = gt_fetch(&bd, s, "contract d", &ok)))
		for (i = 0; i < 8; i++) {
			uint32_t v;

			memcpy(&v, p + 4 * i, 4);
			expect("contract", i, v, i == 1 ? 0xb3800000u : 0x33800000u);
		}
	if (!ok) {
		printf("FAIL interp_agree contract: a guard byte changed\n");
		failures++;
	}
	gt_buf_free(&bx);
	gt_buf_free(&bd);
	return 0;
}

static int
run_warpops(const GtDev *g, CUstream s)
{
	static const int64_t s_src[1] = {64}, s_out[2] = {128, 8}, s_total[1] = {1}, s_counts[1] = {4};
	float src[64], total = 0.0f;
	int32_t counts[4] = {0, 0, 0, 0};
	GtBuf bs, bo, bt, bc;
	warpops_args a;
	CakeError err;
	const unsigned char *p;
	int i, ok = 1;

	memset(&a, 0, sizeof a);
	for (i = 0; i < 64; i++)
		src[i] = (float)i;
	if (buffer(g, s, &bs, &a.src, src, sizeof src, CAKE_DTYPE_FLOAT, 32, 1, s_src, "warpops src") ||
	    buffer(g, s, &bo, &a.out, NULL, 128 * 8 * 4, CAKE_DTYPE_INT, 32, 2, s_out, "warpops out") ||
	    buffer(g, s, &bt, &a.total, &total, 4, CAKE_DTYPE_FLOAT, 32, 1, s_total, "warpops total") ||
	    buffer(g, s, &bc, &a.counts, counts, 16, CAKE_DTYPE_INT, 32, 1, s_counts, "warpops counts"))
		return 1;
	if (warpops_launch(&a, s, &err) != CAKE_OK) {
		printf("FAIL interp_agree warpops: launch: %s\n", err.msg);
		return 1;
	}
	if ((p = gt_fetch(&bo, s, "warpops out", &ok)))
		for (i = 0; i < 128; i++) {
			int t = i % 64, lane = t % 32, base = t - lane, c = 0, k, col;
			uint32_t ballot = 0;
			int32_t want[8], v;

			for (k = 0; k < 32; k++)
				ballot |= (uint32_t)((base + k) % 3 == 0) << k;
			for (k = t; k > 0; k /= 2)
				c++;
			want[0] = (int32_t)ballot;
			want[1] = lane >= 1 ? t - 1 : t;
			want[2] = lane + 3 <= 31 ? t + 3 : t;
			want[3] = base + 5;
			want[4] = base == 32;
			want[5] = 1;
			want[6] = c;
			want[7] = 63 - t;
			for (col = 0; col < 8; col++) {
				char what[32];

				memcpy(&v, p + 4 * (i * 8 + col), 4);
				snprintf(what, sizeof what, "out[%d]", i);
				expect(what, col, (uint32_t)v, (uint32_t)want[col]);
			}
		}
	if ((p = gt_fetch(&bt, s, "warpops total", &ok))) {
		memcpy(&total, p, 4);
		expect("total", 0, (uint64_t)(total * 2), 128);
	}
	if ((p = gt_fetch(&bc, s, "warpops counts", &ok)))
		for (i = 0; i < 4; i++) {
			memcpy(&counts[i], p + 4 * i, 4);
			expect("counts", i, (uint32_t)counts[i], 32);
		}
	if (!ok) {
		printf("FAIL interp_agree warpops: a guard byte changed\n");
		failures++;
	}
	gt_buf_free(&bs);
	gt_buf_free(&bo);
	gt_buf_free(&bt);
	gt_buf_free(&bc);
	return 0;
}

int
main(void)
{
	GtDev g;
	CUstream s = NULL;
	int rc = gt_init(&g, "interp_agree");

	if (rc > 0)
		return gt_skip_status();
	if (rc < 0)
		return 1;
	if (gt_cu(g.cu->stream_create(&s, CU_STREAM_NON_BLOCKING), "cuStreamCreate", "interp_agree")) {
		gt_fini(&g);
		return 1;
	}
	failures += run_conv(&g, s);
	failures += run_warpops(&g, s);
	failures += run_contract(&g, s);
	g.cu->stream_destroy(s);
	gt_fini(&g);
	printf("%s interp_agree: %d mismatches\n", failures ? "FAIL" : "PASS", failures);
	return failures != 0;
}
