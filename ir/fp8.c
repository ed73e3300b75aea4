/* ir/fp8.c: the OCP fp8 formats in software, bit for bit as the GPU converts them.
 *
 * e4m3 ("fn"): 1 sign, 4 exponent bits (bias 7), 3 mantissa bits; no infinities, the one
 * NaN pattern per sign is S.1111.111; the largest finite value is 448 (S.1111.110).
 * e5m2: 1 sign, 5 exponent bits (bias 15), 2 mantissa bits, IEEE-like: infinities
 * S.11111.00, NaNs S.11111.xx; the largest finite value is 57344 (S.11110.11).
 *
 * Conversions to fp8 follow PTX's cvt.rn.satfinite.{e4m3x2,e5m2x2}: round to nearest,
 * ties to even, then clamp to the largest finite value (infinities included); NaN gives
 * the NaN 0x7f. The frontend folds constant conversions with these, the verifier checks
 * fp8 constants with them, the backend encodes them, and the GPU check compares the
 * hardware against the same rules. */
#include "ir.h"

#include <math.h>

typedef struct Fp8Format {
	int mbits;      /* stored mantissa bits */
	int bias;
	double max;     /* largest finite value */
	int has_inf;    /* e5m2: exponent all ones with mantissa 0 is infinity */
} Fp8Format;

static const Fp8Format fmt_e4m3 = {3, 7, 448.0, 0};
static const Fp8Format fmt_e5m2 = {2, 15, 57344.0, 1};

static const Fp8Format *
format(IrBase b)
{
	return b == IR_E5M2 ? &fmt_e5m2 : &fmt_e4m3;
}

double
ir_fp8_max(IrBase b)
{
	return format(b)->max;
}

uint8_t
ir_fp8_encode(IrBase b, double x)
{
	const Fp8Format *f = format(b);
	int emin = 1 - f->bias, e, q;
	uint8_t sign = signbit(x) ? 0x80 : 0;
	double a = fabs(x), r;

	if (isnan(x))
		return 0x7f;
	if (a == 0)
		return sign;
	if (isinf(a) || a > f->max * 2)
		return sign | ir_fp8_encode(b, f->max);
	/* one ulp at a's binade (or at the subnormals' scale); scaling by powers of two is
	 * exact in double, so rint (ties to even) is the only rounding */
	frexp(a, &e);   /* a in [2^(e-1), 2^e) */
	q = (e - 1 > emin ? e - 1 : emin) - f->mbits;
	r = ldexp(rint(ldexp(a, -q)), q);
	if (r > f->max)
		r = f->max;
	if (r == 0)
		return sign;
	frexp(r, &e);
	if (e - 1 < emin)   /* subnormal: exponent field 0 */
		return sign | (uint8_t)ldexp(r, f->mbits - emin);
	return sign | (uint8_t)((e - 1 + f->bias) << f->mbits) |
	       (uint8_t)((int)ldexp(r, f->mbits - (e - 1)) & ((1 << f->mbits) - 1));
}

uint8_t
ir_fp8_bits(IrBase b, double x)
{
	if (isinf(x) && format(b)->has_inf)
		return (signbit(x) ? 0x80 : 0) | 0x7c;
	return ir_fp8_encode(b, x);
}

int
ir_fp8_is_value(IrBase b, double x)
{
	return isnan(x) || (isinf(x) && format(b)->has_inf) || ir_fp8_decode(b, ir_fp8_encode(b, x)) == x;
}

double
ir_fp8_decode(IrBase b, uint8_t bits)
{
	const Fp8Format *f = format(b);
	int ebits = 7 - f->mbits, emax = (1 << ebits) - 1;
	int m = bits & ((1 << f->mbits) - 1), e = (bits >> f->mbits) & emax;
	double v;

	if (f->has_inf && e == emax)
		v = m ? NAN : INFINITY;
	else if (!f->has_inf && e == emax && m == (1 << f->mbits) - 1)
		v = NAN;
	else if (e == 0)
		v = ldexp(m, 1 - f->bias - f->mbits);
	else
		v = ldexp(m | 1 << f->mbits, e - f->bias - f->mbits);
	return bits & 0x80 ? -v : v;
}
