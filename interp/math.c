/* interp/math.c: the accurate f32 math functions (exp, log, sin, cos, tanh, erf, pow) for the
 * interpreter, computing the bits the GPU computes (but exp, whose ex2.approx step is the C
 * library's exp2f here). backend_ptx/llvm_math.c owns the
 * algorithms (and explains them); each function here repeats its expansion operation for
 * operation, in the same order, with fmaf where it uses llvm.fma, so that on any IEEE
 * machine the results are the same bits. Built with -ffp-contract=off (CMakeLists.txt): a
 * contracted a * b + c would round differently. A change to llvm_math.c must be mirrored
 * here; tests/interp/math.test compares the two through cakec-run and a reference. */
#include "mathlib.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* the 128-bit product of the huge reduction, as the backend's i128 */
__extension__ typedef unsigned __int128 u128;

static uint32_t
fbits(float x)
{
	uint32_t u;

	memcpy(&u, &x, sizeof u);
	return u;
}

static float
bitsf(uint32_t u)
{
	float x;

	memcpy(&x, &u, sizeof x);
	return x;
}

static uint64_t
dbits(double x)
{
	uint64_t u;

	memcpy(&u, &x, sizeof u);
	return u;
}

static double
bitsd(uint64_t u)
{
	double x;

	memcpy(&x, &u, sizeof x);
	return x;
}

/* llvm.fptosi.sat: NaN gives 0, out of range the nearest bound */
static int32_t
sat32(float k)
{
	if (k != k)
		return 0;
	if (k >= 0x1p31f)
		return INT32_MAX;
	if (k < -0x1p31f)
		return INT32_MIN;
	return (int32_t)k;
}

static int64_t
sat64(double k)
{
	if (k != k)
		return 0;
	if (k >= 0x1p63)
		return INT64_MAX;
	if (k < -0x1p63)
		return INT64_MIN;
	return (int64_t)k;
}

/* c[0] + x (c[1] + x (...)), one fma per step; coefficients rounded once to float */
static float
hornerf(float x, const double *c, int n)
{
	float p = (float)c[n - 1];
	int i;

	for (i = n - 2; i >= 0; i--)
		p = fmaf(p, x, (float)c[i]);
	return p;
}

static double
hornerd(double x, const double *c, int n)
{
	double p = c[n - 1];
	int i;

	for (i = n - 2; i >= 0; i--)
		p = fma(p, x, c[i]);
	return p;
}

/* ---- exp, log ---- */

/* exp_ieee: what tanh and erf build on */
static float
im_exp_ieee(float x)
{
	static const double poly[7] = {1.0, 1.0, 0x1.fffffcp-2, 0x1.55548cp-3, 0x1.555858p-5,
				       0x1.123714p-7, 0x1.6a7d3cp-10};
	float s, k, r, p;
	uint32_t up;

	x = x > (float)88.8 ? (float)88.8 : x;
	x = x < -104.0f ? -104.0f : x;
	s = fmaf(x, 0x1.715476p+0f, 12582975.0f);   /* the shifter 1.5 * 2^23 + 63 */
	k = s - 12582975.0f;
	r = fmaf(-k, 0x1.62e430p-1f, x);
	r = fmaf(-k, -0x1.05c610p-29f, r);
	p = hornerf(r, poly, 7);
	up = x < 0.0f ? 128u << 23 : 0;
	p = p * bitsf((fbits(s) << 23) + up);
	return p * bitsf(up ^ 0x5f800000u);
}

/* the language's exp (llvm_math.c's exp_f32): the reduction step by step, with the C
 * library's exp2f for ex2.approx (as the backend's host build, math_cpu, has it), so the
 * GPU differs from these bits by its ex2's error only */
float
im_exp(float x)
{
	const float sh = 12583039.0f;           /* 1.5 * 2^23 + 127 */
	/* fma.rm's sh + floor(x log2 e): exact in double (a product of two floats, integers) */
	float s = (float)(floor((double)x * (double)0x1.715476p+0f) + sh), j, f;

	s = fminf(s, sh + 127.0f);
	s = fmaxf(s, sh - 126.0f);
	j = s - sh;
	f = fmaf(x, 0x1.715476p+0f, -j);
	f = fmaf(x, 0x1.4ae0c0p-26f, f);
	return exp2f(f) * bitsf(fbits(s) << 23);
}

float
im_log(float x)
{
	static const double atanh2[5] = {2.0 / 3, 2.0 / 5, 2.0 / 7, 2.0 / 9, 2.0 / 11};
	int tiny = x < 0x1p-126f;
	float xs = tiny ? x * 0x1p23f : x;
	uint32_t bits = fbits(xs);
	int32_t e = (int32_t)(bits - 0x3f3504f3u) >> 23;
	float m = bitsf(bits - ((uint32_t)e << 23));
	float f = m - 1.0f;
	float s = f / (2.0f + f);
	float z = s * s;
	float t = z * hornerf(z, atanh2, 5);
	float l1p = fmaf(-s, f - t, f);
	float ef, r;

	e -= tiny ? 23 : 0;
	ef = (float)e;
	r = fmaf(ef, 0x1.62e430p-1f, fmaf(ef, -0x1.05c610p-29f, l1p));
	r = x == INFINITY ? x : r;
	r = x == 0.0f ? -INFINITY : r;
	return x < 0.0f || x != x ? NAN : r;
}

/* ---- sin, cos ---- */

static float
reduce_pio2(float x, float *rl, int32_t *q)
{
	float k = rintf(fmaf(x, 0x1.45f306p-1f, x * 0x1.b93910p-26f));
	float nk = -k;
	float r1 = fmaf(nk, 0x1.921fb6p+0f, x);
	float th = k * -0x1.777a5cp-25f;
	float tl = fmaf(k, -0x1.777a5cp-25f, -th);
	float s = r1 - th;
	float bb = s - r1;
	float err = (r1 - (s - bb)) + (-th - bb);
	float lo = fmaf(nk, -0x1.ee59dap-50f, err - tl);
	float rh = s + lo;

	*rl = lo - (rh - s);
	*q = sat32(k);
	return rh;
}

/* bits [s, s + 128) of the 256-bit t (least significant word first), s in [0, 191] */
static u128
window128(const uint64_t *t, uint32_t s)
{
	uint32_t w = s >> 6, b = s & 63, i;
	uint64_t word[3], lo, hi;

	for (i = 0; i < 3; i++)
		word[i] = w + i < 4 ? t[w + i] : 0;
	lo = b ? word[0] >> b | word[1] << (64 - b) : word[0];
	hi = b ? word[1] >> b | word[2] << (64 - b) : word[1];
	return (u128)hi << 64 | lo;
}

static float
reduce_huge(float x, float *rl, int32_t *q)
{
	static const uint64_t two_over_pi[4] = {
		0xfe5163abdebbc561ull, 0xdb6295993c439041ull, 0xfc2757d1f534ddc0ull, 0xa2f9836e4e441529ull};
	uint32_t bits = fbits(x), ex = bits >> 23 & 255, m = (bits & 0x7fffff) | 0x800000;
	u128 prod = window128(two_over_pi, 256 + 150 - 94 - ex) * m;
	uint64_t w = (uint64_t)(prod >> 32);
	uint64_t qq = (w + (1ull << 61)) >> 62;
	int64_t f = (int64_t)(w - (qq << 62));
	double rd = (double)f * 0x1.921fb54442d18p-62;
	int isneg = x < 0.0f;
	float rh = (float)rd, lo = (float)(rd - (double)rh);

	*q = isneg ? -(int32_t)(uint32_t)qq : (int32_t)(uint32_t)qq;
	*rl = isneg ? -lo : lo;
	return isneg ? -rh : rh;
}

static float
sin_poly(float rh, float rl)
{
	static const double s[5] = {-1.0 / 6, 1.0 / 120, -1.0 / 5040, 1.0 / 362880, -1.0 / 39916800};
	float z = rh * rh;
	float tail = fmaf(-0.5f * z, rl, rl);

	return rh + fmaf(rh * z, hornerf(z, s, 5), tail);
}

static float
cos_poly(float rh, float rl)
{
	static const double c[5] = {1.0 / 24, -1.0 / 720, 1.0 / 40320, -1.0 / 3628800,
				    1.0 / 479001600};
	float z = rh * rh;
	float zl = fmaf(rh, rh, -z);
	float h = z * 0.5f;
	float hi = 1.0f - h;
	float herr = (1.0f - hi) - h;
	float small = herr - fmaf(zl, 0.5f, rh * rl);

	return hi + fmaf(z * z, hornerf(z, c, 5), small);
}

static float
sincos(float x, int shift)
{
	float rl, rh, ax = fabsf(x), r;
	int32_t q;
	uint32_t qq;

	if (ax >= 0x1p20f && ax != INFINITY)
		rh = reduce_huge(x, &rl, &q);
	else
		rh = reduce_pio2(x, &rl, &q);
	qq = (uint32_t)q + (uint32_t)shift;
	r = qq & 1 ? cos_poly(rh, rl) : sin_poly(rh, rl);
	r = qq & 2 ? -r : r;
	if (!shift && x == 0.0f)
		r = x;
	return r;
}

float im_sin(float x) { return sincos(x, 0); }
float im_cos(float x) { return sincos(x, 1); }

/* ---- tanh, erf ---- */

float
im_tanh(float x)
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
	float ax = fabsf(x);
	float z = x * x;
	float small = fmaf(x * z, hornerf(z, t, 10), x);
	float mid = copysignf(hornerf(ax - (float)0.975, mid_c, 11), x);
	float e = im_exp_ieee(ax + ax);
	float big = 1.0f - 2.0f / (e + 1.0f);

	big = ax < 1.4f ? mid : copysignf(big, x);
	small = x == 0.0f ? x : small;
	return ax < 0.55f ? small : big;
}

float
im_erf(float x)
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
	float ax = fabsf(x);
	float small = fmaf(x, hornerf(x * x, q, 13), x);
	float a = ax > 4.0f ? 4.0f : ax;
	float h = a * a;
	float l = fmaf(a, a, -h);
	float e = im_exp_ieee(-h);
	float erfc = fmaf(e, -l, e) * hornerf(a - 2.5f, gc, 13);
	float big = copysignf(1.0f - erfc, x);

	return ax < 1.0f ? small : big;
}

/* ---- pow ---- */

static double
log_f64(double a)
{
	static const double atanh2[9] = {2.0 / 3, 2.0 / 5, 2.0 / 7, 2.0 / 9, 2.0 / 11, 2.0 / 13,
					 2.0 / 15, 2.0 / 17, 2.0 / 19};
	uint64_t bits = dbits(a);
	int64_t e = (int64_t)(bits - 0x3fe6a09e667f3bcdull) >> 52;
	double m = bitsd(bits - ((uint64_t)e << 52));
	double f = m - 1.0;
	double s = f / (2.0 + f);
	double z = s * s;
	double l1p = fma(-s, f - z * hornerd(z, atanh2, 9), f);
	double ef = (double)e;

	return fma(ef, 0x1.62e42fefa39efp-1, fma(ef, 0x1.abc9e3b39803fp-56, l1p));
}

static float
exp_f64_to_f32(double t)
{
	double taylor[13], k, r;
	int i;

	taylor[0] = 1.0;
	for (i = 1; i < 13; i++)
		taylor[i] = taylor[i - 1] / i;
	t = t > 200.0 ? 200.0 : t;
	t = t < -200.0 ? -200.0 : t;
	k = rint(t * 0x1.71547652b82fep+0);
	r = fma(-k, 0x1.62e42fefa39efp-1, t);
	r = fma(-k, 0x1.abc9e3b39803fp-56, r);
	r = hornerd(r, taylor, 13) * bitsd((uint64_t)(sat64(k) + 1023) << 52);
	return (float)r;
}

float
im_pow(float x, float y)
{
	float ax = fabsf(x), r, half;
	double ad = (double)ax, l = log_f64(ad);
	int yint, yodd, one;

	l = ad == 0.0 ? -INFINITY : l;
	l = ad == INFINITY ? ad : l;
	l = ad != ad ? ad : l;
	r = exp_f64_to_f32((double)y * l);
	half = y * 0.5f;
	yint = floorf(y) == y;
	yodd = yint && !(floorf(half) == half);
	r = yodd ? copysignf(r, x) : r;
	if (x < 0.0f && x != -INFINITY && !yint)
		r = NAN;
	one = y == 0.0f || x == 1.0f || (ax == 1.0f && fabsf(y) == INFINITY);
	return one ? 1.0f : r;
}
