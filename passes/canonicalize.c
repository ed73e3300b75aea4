/* canonicalize.c: constant folding, algebraic identities and one canonical form.
 *
 * Requires: verified IR.
 * Guarantees:
 *   - every pure arithmetic, compare, select and cast op of scalar constants is a `const`
 *     whose value is what the GPU computes: integers wrap to the type's width and keep its
 *     signedness; f32/f64 add/sub/mul/div/fma/sqrt/min/max/neg/abs round as IEEE in the
 *     type's precision; f16/bf16 the same except fma. Left alone on purpose: integer
 *     division or remainder by zero and the overflowing MIN / -1 (poison in LLVM), shifts
 *     by the width or more (poison too), exp2/log2/rsqrt (approximate on the GPU),
 *     anything producing or consuming a NaN (the GPU's NaN payloads are its own), float
 *     min/max of +0 and -0 (either is allowed), casts from or to pointers, vectors;
 *   - integer constants are stored normalized (sign-extended for i8..i64, zero-extended
 *     for u32, u64 and i1) and float constants hold a value exactly representable in their
 *     type, so that cse can compare them bit for bit;
 *   - integer identities are applied (x+0, x-0, x-x, x*1, x*0, x/1, x%1, x&0, x&~0, x&x,
 *     x|0, x|~0, x|x, x^0, x^x, shifts by 0, min/max(x, x), compares of x with itself),
 *     select with a constant condition or equal arms, casts to the same type, neg(neg x),
 *     not(not x), extract of a vec;
 *   - commutative ops and compares have a constant operand on the right (compares mirror
 *     their predicate);
 *   - an `if` with a constant condition is replaced by the ops of the region it runs (its
 *     yield operands replace its results); a `for` whose constant bounds give zero trips
 *     is removed (its results are its initial values), and one with exactly one trip is
 *     replaced by its body.
 * Invalidates: nothing. It leaves the ops whose results it replaced or folded away dead
 * (no longer used) for dce to delete; it creates no values.
 *
 * Float folding assumes the backend keeps IEEE semantics: no flush-to-zero, div.rn and
 * sqrt.rn. If the backend ever turns on FTZ or approximate division, this pass must learn
 * it too.
 *
 * Uses are rewritten through a replacement map (an IrRewriter) applied while each
 * region's op array is rebuilt (ir_region_rebuild); the walk repeats until nothing changes.
 */
#include "passes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct Canon {
	IrKernel *k;
	IrRewriter map;         /* a replaced value -> the value that replaces it */
	/* What defines each value, for constants and for looking through neg/not/vec. */
	uint8_t *isconst;       /* 1: an integer or float scalar constant */
	int64_t *cint;          /* normalized integer constant */
	double *cflt;           /* float constant, exact in its type */
	int *defopc;            /* opcode of the defining op, -1 for region arguments */
	IrValue **defargs;      /* its operands (arena memory: stable while ops move) */
	int changed;
} Canon;

/* ---- integers: all arithmetic in uint64, then wrapped to the type's width ---- */

static int
width(IrType t)
{
	return ir_base_bits((IrBase)t.base);
}

static uint64_t
width_mask(int w)
{
	return w >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << w) - 1;
}

/* Wraps v to the type's width, then sign- or zero-extends it back to 64 bits. */
static uint64_t
int_norm(IrType t, uint64_t v)
{
	int w = width(t);
	uint64_t m = width_mask(w);

	v &= m;
	if (ir_is_signed(t) && w < 64 && (v >> (w - 1)) & 1)
		v |= ~m;
	return v;
}

/* The int64 with the same bits, without relying on implementation-defined conversion. */
static int64_t
as_signed(uint64_t v)
{
	return v <= (uint64_t)INT64_MAX ? (int64_t)v : -(int64_t)(~v) - 1;
}

static uint64_t
int_min_of(IrType t)
{
	return int_norm(t, (uint64_t)1 << (width(t) - 1));
}

/* ---- floats: exact rounding to f16 and bf16, their bit patterns ---- */

typedef struct FloatFormat {
	int p;          /* precision in bits, with the hidden bit */
	int ebits;
	int emin, emax; /* exponent range of normal numbers */
} FloatFormat;

static const FloatFormat fmt_f16 = {11, 5, -14, 15};
static const FloatFormat fmt_bf16 = {8, 8, -126, 127};

/* Rounds x to the nearest value of format f, ties to even, overflowing to infinity.
 * Scaling by a power of two is exact, so rint does the one and only rounding. */
static double
round_format(double x, const FloatFormat *f)
{
	double r;
	int e, q;

	if (x == 0 || isnan(x) || isinf(x))
		return x;
	frexp(x, &e);  /* |x| in [2^(e-1), 2^e) */
	q = (e - 1 >= f->emin ? e - 1 : f->emin) - (f->p - 1);  /* exponent of one ulp */
	r = ldexp(rint(ldexp(x, -q)), q);
	if (fabs(r) >= ldexp(1.0, f->emax + 1))
		return copysign(INFINITY, x);
	return r;
}

/* x rounded to the float type b, as the GPU would hold it (passes.h). */
double
pass_round_float(IrBase b, double x)
{
	switch (b) {
	case IR_F16: return round_format(x, &fmt_f16);
	case IR_BF16: return round_format(x, &fmt_bf16);
	case IR_F32: return (double)(float)x;
	default: return x;
	}
}

static uint64_t
small_float_bits(double x, const FloatFormat *f)
{
	uint64_t sign = signbit(x) ? (uint64_t)1 << (f->p - 1 + f->ebits) : 0;
	int bias = f->emax, e;
	double a = fabs(x);

	if (isinf(a))
		return sign | (width_mask(f->ebits) << (f->p - 1));
	if (a == 0)
		return sign;
	frexp(a, &e);
	if (e - 1 < f->emin)  /* subnormal */
		return sign | (uint64_t)ldexp(a, -(f->emin - (f->p - 1)));
	return sign | ((uint64_t)(e - 1 + bias) << (f->p - 1))
	       | ((uint64_t)ldexp(a, (f->p - 1) - (e - 1)) & width_mask(f->p - 1));
}

static double
small_float_value(uint64_t bits, const FloatFormat *f)
{
	int bias = f->emax;
	uint64_t m = bits & width_mask(f->p - 1);
	int e = (int)((bits >> (f->p - 1)) & width_mask(f->ebits));
	double v;

	if (e == (int)width_mask(f->ebits))
		v = m ? NAN : INFINITY;
	else if (e == 0)
		v = ldexp((double)m, f->emin - (f->p - 1));
	else
		v = ldexp((double)(m | (uint64_t)1 << (f->p - 1)), e - bias - (f->p - 1));
	return (bits >> (f->p - 1 + f->ebits)) & 1 ? -v : v;
}

/* The bit pattern of a float constant of type b (a value exact in b). */
static uint64_t
float_bits(IrBase b, double x)
{
	uint64_t u = 0;
	uint32_t u32;
	float f;

	switch (b) {
	case IR_F16: return small_float_bits(x, &fmt_f16);
	case IR_BF16: return small_float_bits(x, &fmt_bf16);
	case IR_F32:
		f = (float)x;
		memcpy(&u32, &f, sizeof f);
		return u32;
	default:
		memcpy(&u, &x, sizeof x);
		return u;
	}
}

static double
float_from_bits(IrBase b, uint64_t u)
{
	uint32_t u32 = (uint32_t)u;
	float f;
	double d;

	switch (b) {
	case IR_F16: return small_float_value(u, &fmt_f16);
	case IR_BF16: return small_float_value(u, &fmt_bf16);
	case IR_F32:
		memcpy(&f, &u32, sizeof f);
		return f;
	default:
		memcpy(&d, &u, sizeof d);
		return d;
	}
}

/* ---- the replacement map and what defines each value ---- */

static IrValue
resolve(const Canon *c, IrValue v)
{
	return ir_rw_get(&c->map, v);
}

static void
replace(Canon *c, IrValue old, IrValue with)
{
	if (old != with) {
		ir_rw_set(&c->map, old, with);
		c->changed = 1;
	}
}

static IrType
vt(const Canon *c, IrValue v)
{
	return ir_vtype(c->k, v);
}

static int
is_const(const Canon *c, IrValue v)
{
	return v > 0 && v < c->k->nvalues && c->isconst[v];
}

static int
is_int_const(const Canon *c, IrValue v, uint64_t want)
{
	return is_const(c, v) && ir_is_int(vt(c, v)) && (uint64_t)c->cint[v] == int_norm(vt(c, v), want);
}

/* Records what op defines, after it has been rewritten. */
static void
note_def(Canon *c, const IrOp *op)
{
	IrValue v;
	IrType t;

	if (op->nres != 1)
		return;
	v = op->res[0];
	t = vt(c, v);
	c->defopc[v] = op->opc;
	c->defargs[v] = op->args;
	c->isconst[v] = op->opc == IR_CONST && t.lanes == 1 && (ir_is_int(t) || ir_is_float(t));
	c->cint[v] = op->imm;
	c->cflt[v] = op->fimm;
}

/* Turns op into `const` with the same result. */
static void
make_int(Canon *c, IrOp *op, uint64_t v)
{
	op->opc = IR_CONST;
	op->nargs = 0;
	op->imm = as_signed(int_norm(vt(c, op->res[0]), v));
	op->fimm = 0;
	c->changed = 1;
}

static void
make_float(Canon *c, IrOp *op, double v)
{
	op->opc = IR_CONST;
	op->nargs = 0;
	op->imm = 0;
	op->fimm = v;
	c->changed = 1;
}

/* ---- folding ops whose operands are all constants ---- */

/* Integer arithmetic means what ir_eval_int_op computes; it refuses what the GPU leaves
 * undefined (division by zero, MIN / -1, shifts by the width or more). */
static int
fold_int_arith(Canon *c, IrOp *op, IrType t)
{
	int64_t a[3], r;
	int i;

	if (op->nargs > 3)
		return 0;
	for (i = 0; i < op->nargs; i++)
		a[i] = c->cint[op->args[i]];
	if (!ir_eval_int_op(op->opc, t, t, op->nargs, a, &r))
		return 0;
	make_int(c, op, (uint64_t)r);
	return 1;
}

static int
fold_float_arith(Canon *c, IrOp *op, IrType t)
{
	IrBase base = (IrBase)t.base;
	double a = c->cflt[op->args[0]];
	double b = op->nargs > 1 ? c->cflt[op->args[1]] : 0;
	double r;
	int i;

	for (i = 0; i < op->nargs; i++)
		if (isnan(c->cflt[op->args[i]]))
			return 0;
	switch (op->opc) {
	case IR_ADD: r = a + b; break;
	case IR_SUB: r = a - b; break;
	case IR_MUL: r = a * b; break;
	case IR_DIV: r = a / b; break;
	case IR_SQRT: r = sqrt(a); break;
	case IR_NEG: r = -a; break;
	case IR_ABS: r = fabs(a); break;
	case IR_MIN:
	case IR_MAX:
		if (a == b && signbit(a) != signbit(b))
			return 0;  /* min/max of -0 and +0: the GPU's choice, not ours */
		r = (op->opc == IR_MIN) == (a < b) ? a : b;
		break;
	case IR_FMA:
		/* One rounding of the exact a*b+c: only the C library's fma/fmaf give that. */
		if (base == IR_F32)
			r = fmaf((float)a, (float)b, (float)c->cflt[op->args[2]]);
		else if (base == IR_F64)
			r = fma(a, b, c->cflt[op->args[2]]);
		else
			return 0;
		break;
	default:
		return 0;  /* exp2, log2, rsqrt: approximate on the GPU */
	}
	/* f64 is exact already. f32 operands are floats, so the double result of add, sub,
	 * mul, div and sqrt rounds once more to the correctly rounded float (53 >= 2*24+2);
	 * the same argument covers f16 and bf16. */
	r = pass_round_float(base, r);
	if (isnan(r))
		return 0;
	make_float(c, op, r);
	return 1;
}

static int
fold_compare(Canon *c, IrOp *op)
{
	IrType t = vt(c, op->args[0]);
	int lt, eq;

	if (ir_is_int(t)) {
		uint64_t a = (uint64_t)c->cint[op->args[0]], b = (uint64_t)c->cint[op->args[1]];

		lt = ir_is_signed(t) ? as_signed(a) < as_signed(b) : a < b;
		eq = a == b;
	} else {
		double a = c->cflt[op->args[0]], b = c->cflt[op->args[1]];

		if (isnan(a) || isnan(b))
			return 0;
		lt = a < b;
		eq = a == b;
	}
	switch (op->opc) {
	case IR_CMP_EQ: make_int(c, op, (uint64_t)eq); break;
	case IR_CMP_NE: make_int(c, op, (uint64_t)!eq); break;
	case IR_CMP_LT: make_int(c, op, (uint64_t)lt); break;
	case IR_CMP_LE: make_int(c, op, (uint64_t)(lt || eq)); break;
	case IR_CMP_GT: make_int(c, op, (uint64_t)(!lt && !eq)); break;
	case IR_CMP_GE: make_int(c, op, (uint64_t)!lt); break;
	default: return 0;
	}
	return 1;
}

static int
fold_cast(Canon *c, IrOp *op, IrType from, IrType to)
{
	uint64_t a = (uint64_t)c->cint[op->args[0]];
	double x = c->cflt[op->args[0]];

	if (!ir_is_int(to) && !ir_is_float(to))
		return 0;
	/* A conversion to i1 is a truth test, as in C; i1 itself is unsigned, so it widens
	 * to 0 or 1 on the paths below. */
	if (to.base == IR_I1 && ir_is_int(from)) {
		make_int(c, op, a != 0);
		return 1;
	}
	if (to.base == IR_I1 && !isnan(x)) {
		make_int(c, op, x != 0);
		return 1;
	}
	if (ir_is_int(from) && ir_is_int(to)) {
		make_int(c, op, a);
		return 1;
	}
	if (ir_is_int(from)) {
		/* C converts integers to double and float with the current rounding mode,
		 * ties to even. For f16/bf16 go through double only where that is exact. */
		int sgn = ir_is_signed(from);
		double d;

		if (to.base == IR_F32)
			d = sgn ? (double)(float)as_signed(a) : (double)(float)a;
		else if (to.base == IR_F64)
			d = sgn ? (double)as_signed(a) : (double)a;
		else if (sgn ? as_signed(a) >= -(1ll << 53) && as_signed(a) <= (1ll << 53) : a <= (1ull << 53))
			d = pass_round_float((IrBase)to.base, sgn ? (double)as_signed(a) : (double)a);
		else
			return 0;
		make_float(c, op, d);
		return 1;
	}
	if (isnan(x))
		return 0;
	if (ir_is_int(to)) {
		/* Truncate toward zero, saturating at the type's range. */
		int w = width(to);
		double t = trunc(x);
		double lo = ir_is_signed(to) ? -ldexp(1.0, w - 1) : 0;
		double hi = ir_is_signed(to) ? ldexp(1.0, w - 1) : ldexp(1.0, w);  /* exclusive */
		uint64_t r;

		if (t < lo)
			r = ir_is_signed(to) ? int_min_of(to) : 0;
		else if (t >= hi)
			r = ir_is_signed(to) ? int_min_of(to) - 1 : width_mask(w);
		else if (t < 0)
			r = (uint64_t)(int64_t)t;
		else
			r = (uint64_t)t;
		make_int(c, op, r);
		return 1;
	}
	make_float(c, op, pass_round_float((IrBase)to.base, x));
	return 1;
}

static int
fold_bitcast(Canon *c, IrOp *op, IrType from, IrType to)
{
	uint64_t bits;
	double d;

	/* fp8 constants are not folded here (isconst leaves them out): no bits to fold into */
	if (width(from) != width(to) || from.base == IR_I1 || to.base == IR_PTR || ir_is_fp8(to))
		return 0;
	bits = ir_is_int(from) ? (uint64_t)c->cint[op->args[0]] & width_mask(width(from))
			       : float_bits((IrBase)from.base, c->cflt[op->args[0]]);
	if (ir_is_int(to)) {
		make_int(c, op, bits);
		return 1;
	}
	d = float_from_bits((IrBase)to.base, bits);
	if (isnan(d))
		return 0;
	make_float(c, op, d);
	return 1;
}

static int
fold_constants(Canon *c, IrOp *op)
{
	IrType t, from;
	int i;

	if (op->nres != 1 || op->nregions || !(ir_opinfo[op->opc].flags & OPF_PURE) || op->nargs == 0)
		return 0;
	for (i = 0; i < op->nargs; i++)
		if (!is_const(c, op->args[i]))
			return 0;
	t = vt(c, op->res[0]);
	from = vt(c, op->args[0]);
	if (t.lanes != 1)
		return 0;
	switch (op->opc) {
	case IR_CMP_EQ: case IR_CMP_NE: case IR_CMP_LT:
	case IR_CMP_LE: case IR_CMP_GT: case IR_CMP_GE:
		return fold_compare(c, op);
	case IR_CAST:
		return fold_cast(c, op, from, t);
	case IR_BITCAST:
		return fold_bitcast(c, op, from, t);
	default:
		if (!(ir_opinfo[op->opc].flags & OPF_ARITH))
			return 0;
		return ir_is_int(t) ? fold_int_arith(c, op, t) : fold_float_arith(c, op, t);
	}
}

/* ---- identities and canonical order ---- */

static int
mirror_compare(int opc)
{
	switch (opc) {
	case IR_CMP_LT: return IR_CMP_GT;
	case IR_CMP_LE: return IR_CMP_GE;
	case IR_CMP_GT: return IR_CMP_LT;
	case IR_CMP_GE: return IR_CMP_LE;
	default: return opc;  /* eq, ne */
	}
}

static void
order_operands(Canon *c, IrOp *op)
{
	int opc = op->opc;
	IrValue tmp;

	if (op->nargs != 2 || !is_const(c, op->args[0]) || is_const(c, op->args[1]))
		return;
	if (!(ir_opinfo[opc].flags & OPF_COMM) && mirror_compare(opc) == opc)
		return;
	tmp = op->args[0];
	op->args[0] = op->args[1];
	op->args[1] = tmp;
	op->opc = mirror_compare(opc);
	c->changed = 1;
}

/* The value op's result equals without computing anything, or 0. May instead turn op into
 * a constant (x*0, x-x); then it returns 0 and op is a `const`. */
static IrValue
identity(Canon *c, IrOp *op)
{
	IrValue a, b;
	IrType t;
	int isint;

	if (op->nres != 1 || op->nregions || op->nargs == 0)
		return 0;
	a = op->args[0];
	b = op->nargs > 1 ? op->args[1] : 0;
	t = vt(c, op->res[0]);
	isint = ir_is_int(t);
	switch (op->opc) {
	case IR_ADD: case IR_OR: case IR_XOR:
		if (isint && is_int_const(c, b, 0))
			return a;
		if (isint && op->opc == IR_OR && (a == b))
			return a;
		if (isint && op->opc == IR_OR && is_int_const(c, b, ~(uint64_t)0))
			return b;
		if (isint && op->opc == IR_XOR && a == b)
			make_int(c, op, 0);
		return 0;
	case IR_SUB:
		if (isint && is_int_const(c, b, 0))
			return a;
		if (isint && a == b)
			make_int(c, op, 0);
		return 0;
	case IR_MUL:
		if (isint && is_int_const(c, b, 1))
			return a;
		if (isint && is_int_const(c, b, 0))
			make_int(c, op, 0);
		return 0;
	case IR_DIV:
		return isint && is_int_const(c, b, 1) ? a : 0;
	case IR_REM:
		if (isint && is_int_const(c, b, 1))
			make_int(c, op, 0);
		return 0;
	case IR_AND:
		if (isint && (a == b || is_int_const(c, b, ~(uint64_t)0)))
			return a;
		if (isint && is_int_const(c, b, 0))
			make_int(c, op, 0);
		return 0;
	case IR_SHL: case IR_SHR:
		return isint && is_int_const(c, b, 0) ? a : 0;
	case IR_MIN: case IR_MAX:
		return isint && a == b ? a : 0;
	case IR_NEG: case IR_NOT:
		return c->defopc[a] == op->opc ? c->defargs[a][0] : 0;
	case IR_CMP_EQ: case IR_CMP_LE: case IR_CMP_GE:
		if (a == b && ir_is_int(vt(c, a)) && t.lanes == 1)
			make_int(c, op, 1);
		return 0;
	case IR_CMP_NE: case IR_CMP_LT: case IR_CMP_GT:
		if (a == b && ir_is_int(vt(c, a)) && t.lanes == 1)
			make_int(c, op, 0);
		return 0;
	case IR_SELECT:
		if (is_const(c, a))
			return c->cint[a] ? b : op->args[2];
		if (b == op->args[2])
			return b;
		if (t.base == IR_I1 && t.lanes == 1 && is_int_const(c, b, 1) && is_int_const(c, op->args[2], 0))
			return a;
		return 0;
	case IR_CAST: case IR_BITCAST:
		return ir_type_eq(vt(c, a), t) ? a : 0;
	case IR_EXTRACT:
		if (c->defopc[a] == IR_VEC && op->imm >= 0 && op->imm < vt(c, a).lanes)
			return c->defargs[a][op->imm];
		return 0;
	default:
		return 0;
	}
}

/* ---- structured control flow ---- */

static int
int_operand(const Canon *c, IrValue v, int64_t *out)
{
	IrType t = vt(c, v);
	int w = width(t);
	uint64_t m = width_mask(w), u;

	if (!is_const(c, v) || !ir_is_int(t))
		return 0;
	/* `for` compares signed whatever the type says. */
	u = (uint64_t)c->cint[v] & m;
	if (w < 64 && (u >> (w - 1)) & 1)
		u |= ~m;
	*out = as_signed(u);
	return 1;
}

/* Trips of a `for` with constant bounds: 0, 1, or -1 for "more or unknown". */
static int
for_trips(const Canon *c, const IrOp *op)
{
	int64_t lo, hi, step;

	if (!int_operand(c, op->args[0], &lo) || !int_operand(c, op->args[1], &hi))
		return -1;
	if (lo >= hi)
		return 0;
	if (int_operand(c, op->args[2], &step) && step > 0 && (uint64_t)step >= (uint64_t)hi - (uint64_t)lo)
		return 1;
	return -1;
}

static void canon_region(Canon *c, IrRegion *r);

/* Appends the ops of r except its terminator to the region being rebuilt; r is left
 * empty (its ops moved, not copied). */
static void
splice(IrRegion *out, IrRegion *r)
{
	int i;

	for (i = 0; i < r->nops; i++)
		if (!(ir_opinfo[r->ops[i].opc].flags & OPF_TERM))
			ir_region_push(out, &r->ops[i]);
	free(r->ops);
	r->ops = NULL;
	r->nops = r->capops = 0;
}

static const IrOp *
terminator(const IrRegion *r)
{
	return r->nops ? &r->ops[r->nops - 1] : NULL;
}

/* One op of a region being rebuilt: its operands resolved, its regions canonicalized,
 * then folded, simplified or kept (ir_region_rebuild's contract: 1 keeps it, 0 drops it). */
static int
canon_op(IrRegion *out, IrOp *op, void *ctx)
{
	Canon *c = ctx;
	IrValue same;
	int j;

	for (j = 0; j < op->nargs; j++)
		op->args[j] = resolve(c, op->args[j]);
	for (j = 0; j < op->nregions; j++)
		canon_region(c, &op->regions[j]);
	if (op->opc == IR_IF && is_const(c, op->args[0])) {
		IrRegion *run = &op->regions[c->cint[op->args[0]] ? 0 : 1];
		const IrOp *y = terminator(run);

		for (j = 0; j < op->nres && y && j < y->nargs; j++)
			replace(c, op->res[j], resolve(c, y->args[j]));
		ir_region_free(&op->regions[c->cint[op->args[0]] ? 1 : 0]);
		splice(out, run);
		c->changed = 1;
		return 0;
	}
	if (op->opc == IR_FOR && op->nargs >= 3) {
		int trips = for_trips(c, op);
		IrRegion *body = &op->regions[0];
		const IrOp *y = terminator(body);

		if (trips == 0) {
			for (j = 0; j < op->nres; j++)
				replace(c, op->res[j], op->args[3 + j]);
			ir_region_free(body);
			c->changed = 1;
			return 0;
		}
		if (trips == 1 && y && body->nargs == op->nres + 1) {
			/* The body's uses of its arguments are rewritten on the next round. */
			replace(c, body->args[0], op->args[0]);
			for (j = 0; j < op->nres; j++) {
				replace(c, body->args[1 + j], op->args[3 + j]);
				replace(c, op->res[j], resolve(c, y->args[j]));
			}
			splice(out, body);
			c->changed = 1;
			return 0;
		}
	}
	if (op->opc == IR_STORE_IF && op->nargs == 3 && is_const(c, op->args[2])) {
		c->changed = 1;
		if (!c->cint[op->args[2]])
			return 0;               /* never stores */
		op->opc = IR_STORE;     /* always stores */
		op->nargs = 2;
	}
	if (ir_opinfo[op->opc].flags & OPF_PURE && !op->nregions) {
		order_operands(c, op);
		if (!fold_constants(c, op) && (same = identity(c, op)) != 0) {
			replace(c, op->res[0], resolve(c, same));
			return 0;
		}
	}
	if (op->opc == IR_CONST && op->nres == 1) {
		IrType t = vt(c, op->res[0]);

		if (t.lanes == 1 && ir_is_int(t) && (uint64_t)op->imm != int_norm(t, (uint64_t)op->imm)) {
			op->imm = as_signed(int_norm(t, (uint64_t)op->imm));
			c->changed = 1;
		} else if (t.lanes == 1 && ir_is_float(t) && !isnan(op->fimm)
			   && float_bits(IR_F64, pass_round_float((IrBase)t.base, op->fimm)) != float_bits(IR_F64, op->fimm)) {
			op->fimm = pass_round_float((IrBase)t.base, op->fimm);
			c->changed = 1;
		}
	}
	note_def(c, op);
	return 1;
}

static void
canon_region(Canon *c, IrRegion *r)
{
	ir_region_rebuild(r, canon_op, c);
}

void
pass_canonicalize(IrKernel *k, PassContext *cx)
{
	Canon c = {0};
	size_t n = (size_t)k->nvalues;
	int round;
	IrValue v;

	(void)cx;
	c.k = k;
	ir_rw_init(&c.map, k);
	c.isconst = xcalloc(n, sizeof *c.isconst);
	c.cint = xcalloc(n, sizeof *c.cint);
	c.cflt = xcalloc(n, sizeof *c.cflt);
	c.defopc = xcalloc(n, sizeof *c.defopc);
	c.defargs = xcalloc(n, sizeof *c.defargs);
	for (v = 0; v < k->nvalues; v++)
		c.defopc[v] = -1;
	/* Every round only removes ops or makes values constant, so this ends quickly; the
	 * bound is a guard against a rule that undoes another. */
	for (round = 0; round < 64; round++) {
		c.changed = 0;
		canon_region(&c, &k->body);
		if (!c.changed)
			break;
	}
	if (c.changed)
		ICE("canonicalize did not reach a fixed point in kernel '%s'", k->name);
	ir_rw_free(&c.map);
	free(c.isconst);
	free(c.cint);
	free(c.cflt);
	free(c.defopc);
	free(c.defargs);
}
