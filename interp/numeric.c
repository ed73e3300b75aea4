/* numeric.c: the float formats and value conversions, correct to the bit: f16 and bf16 are
 * decoded exactly and encoded from a double with one rounding to nearest even (so an f32
 * narrows to f16/bf16 as cvt.rn does, with no double rounding); float -> int truncates
 * toward zero and saturates, NaN -> 0 (the backend's fptosi.sat); int -> i1 and
 * float -> i1 are truth tests (the backend's icmp/fcmp ne). A NaN result is the GPU's
 * canonical NaN (all bits but the sign set: 0x7fff, 0x7fffffff, ...), as PTX's cvt and
 * arithmetic produce it. */
#include <math.h>

#include "internal.h"

/* Exponent and mantissa bits of the 16-bit formats. */
static void
small_format(IrBase b, int *ebits, int *mbits)
{
	*ebits = b == IR_F16 ? 5 : 8;
	*mbits = b == IR_F16 ? 10 : 7;
}

static double
small_decode(IrBase b, uint64_t bits)
{
	int ebits, mbits, bias, e;
	uint64_t m;
	double v;

	small_format(b, &ebits, &mbits);
	bias = (1 << (ebits - 1)) - 1;
	e = (int)((bits >> mbits) & ((1u << ebits) - 1));
	m = bits & ((1u << mbits) - 1);
	if (e == (1 << ebits) - 1)
		v = m ? NAN : INFINITY;
	else if (e == 0)
		v = ldexp((double)m, 1 - bias - mbits);
	else
		v = ldexp((double)(m | (1u << mbits)), e - bias - mbits);
	return (bits >> (ebits + mbits)) & 1 ? -v : v;
}

/* x rounded once to nearest even into the 16-bit format b. */
static uint64_t
small_encode(IrBase b, double x)
{
	int ebits, mbits, bias, emin, e;
	uint64_t sign, q, emax_field;
	double a, scaled;

	small_format(b, &ebits, &mbits);
	bias = (1 << (ebits - 1)) - 1;
	emin = 1 - bias;
	emax_field = (1u << ebits) - 1;
	sign = signbit(x) ? (uint64_t)1 << (ebits + mbits) : 0;
	if (isnan(x))
		return ((uint64_t)1 << (ebits + mbits)) - 1;
	a = fabs(x);
	if (isinf(a))
		return sign | emax_field << mbits;
	if (a == 0)
		return sign;
	(void)frexp(a, &e);
	e -= 1;                         /* a = 1.f * 2^e */
	if (e < emin)
		e = emin;               /* subnormal: a fixed scale */
	scaled = ldexp(a, mbits - e);   /* exact: only the exponent changes */
	q = (uint64_t)nearbyint(scaled);  /* the default rounding mode: to nearest even */
	if (q >> (mbits + 1)) {          /* rounded up to the next binade */
		q >>= 1;
		e++;
	}
	if (!(q >> mbits))               /* subnormal (or rounded to zero) */
		return sign | q;
	if ((uint64_t)(e + bias) >= emax_field)
		return sign | emax_field << mbits;
	return sign | (uint64_t)(e + bias) << mbits | (q & ((1u << mbits) - 1));
}

/* The OCP fp8 formats (read only: tcgen05.mma operands): E5M2 is IEEE-like; E4M3 has no
 * infinities, and only S.1111.111 is NaN. */
static double
fp8_decode(IrBase b, uint64_t bits)
{
	int e4 = b == IR_E4M3, mbits = e4 ? 3 : 2, ebits = e4 ? 4 : 5, bias = e4 ? 7 : 15;
	int e = (int)(bits >> mbits & ((1u << ebits) - 1)), m = (int)(bits & ((1u << mbits) - 1));
	double v;

	if (e4 && e == 15 && m == 7)
		v = NAN;
	else if (!e4 && e == 31)
		v = m ? NAN : INFINITY;
	else if (e == 0)
		v = ldexp((double)m, 1 - bias - mbits);
	else
		v = ldexp((double)(m | 1 << mbits), e - bias - mbits);
	return bits >> 7 & 1 ? -v : v;
}

double
num_to_double(IrBase b, uint64_t bits)
{
	switch (b) {
	case IR_E4M3: case IR_E5M2: return fp8_decode(b, bits);
	case IR_F16: case IR_BF16: return small_decode(b, bits);
	case IR_F32: return num_f32(bits);
	default: return num_f64(bits);
	}
}

uint64_t
num_from_double(IrBase b, double x)
{
	switch (b) {
	case IR_F16: case IR_BF16: return small_encode(b, x);
	case IR_F32: return isnan(x) ? NUM_F32_NAN : num_f32_bits((float)x);
	default: return isnan(x) ? NUM_F64_NAN : num_f64_bits(x);
	}
}

/* double -> integer type b, truncating toward zero, saturating, NaN -> 0. */
static int64_t
float_to_int(IrBase b, double x)
{
	IrType t = ir_scalar(b);
	int bits = ir_base_bits(b);
	double lo, hi;

	if (isnan(x))
		return 0;
	x = trunc(x);
	if (ir_is_signed(t)) {
		lo = -ldexp(1, bits - 1);
		hi = ldexp(1, bits - 1);
		if (x <= lo)
			return ir_int_norm(t, (int64_t)((uint64_t)1 << (bits - 1)));
		if (x >= hi)
			return bits == 64 ? INT64_MAX : (int64_t)((uint64_t)1 << (bits - 1)) - 1;
		return (int64_t)x;
	}
	hi = ldexp(1, bits);
	if (x <= 0)
		return 0;
	if (x >= hi)
		return ir_int_norm(t, -1);
	return ir_int_norm(t, (int64_t)(uint64_t)x);
}

/* An integer of type from (normalized) to float type to: one rounding. A 64-bit integer
 * goes through long double where it is wider than double, else through two exact halves. */
static uint64_t
int_to_float(IrBase from, IrBase to, int64_t v)
{
	int uns = !ir_is_signed(ir_scalar(from)) && from != IR_I1;
	double d;

	if (to == IR_F32)
		return num_f32_bits(uns ? (float)(uint64_t)v : (float)v);
	if (to == IR_F64)
		return num_f64_bits(uns ? (double)(uint64_t)v : (double)v);
	/* f16/bf16: |v| < 2^53 converts exactly to double first; larger values are far past
	 * the formats' range (f16) or lose only bits below bf16's precision */
	d = uns ? (double)(uint64_t)v : (double)v;
	return num_from_double(to, d);
}

uint64_t
num_convert(IrBase from, IrBase to, uint64_t bits)
{
	IrType ft = ir_scalar(from), tt = ir_scalar(to);
	int64_t r;

	if (ir_is_int(ft) && ir_is_int(tt)) {
		if (to == IR_I1)
			return bits != 0;
		if (!ir_eval_int_op(IR_CAST, tt, ft, 1, (const int64_t *)&bits, &r))
			return 0;
		return (uint64_t)r;
	}
	if (ir_is_int(ft))
		return int_to_float(from, to, (int64_t)bits);
	if (to == IR_I1)
		return num_to_double(from, bits) != 0 || isnan(num_to_double(from, bits));
	if (ir_is_int(tt))
		return (uint64_t)float_to_int(to, num_to_double(from, bits));
	if (from == to)
		return bits;
	/* float -> float: every narrower format is exact in double, and a double rounds
	 * once into the target */
	return num_from_double(to, num_to_double(from, bits));
}
