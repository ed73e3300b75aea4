/* types.c: the frontend's types and compile-time values: type names, the rules by which
 * untyped literals take a type (with range checks), conversions of constants as the
 * `cast` op does them at run time, and exact, overflow-checked constant folding. */
#include "ast.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parses a type name: a scalar ("f32") or a 2- or 4-wide vector of a non-i1 scalar
 * ("bf16x4"). Returns 0 if s names no type. */
int
fe_type_from_name(const char *s, IrType *t)
{
	int n = (int)strlen(s), b;

	b = ir_base_from_name(s, n);
	if (b >= 0) {
		*t = ir_scalar((IrBase)b);
		return 1;
	}
	if (n > 2 && s[n - 2] == 'x' && (s[n - 1] == '2' || s[n - 1] == '4')) {
		b = ir_base_from_name(s, n - 2);
		if (b > IR_I1) {
			*t = ir_vector((IrBase)b, s[n - 1] - '0');
			return 1;
		}
	}
	return 0;
}

/* Type names for messages; a few rotating buffers so one message can show several. */
const char *
fe_tname(IrType t)
{
	static char bufs[4][48];
	static int next;
	char *s = bufs[next++ & 3];

	fe_type_str(t, s, 48);
	return s;
}


/* An integer type other than i1 (the numeric integers), or an untyped integer. */
double
fe_float_max(int base)
{
	switch (base) {
	case IR_F16: return 65504.0;
	case IR_BF16: return 3.3895313892515355e38;
	case IR_F32: return 3.4028234663852886e38;
	default: return HUGE_VAL;
	}
}

const char *
fe_fp8_advice(IrType t)
{
	static char s[4][64];
	static int next;
	char *b;

	if (!ir_is_fp8(t))
		return "";
	b = s[next++ & 3];
	snprintf(b, 64, " (convert %s to f16, bf16 or f32 first)", ir_base_name((IrBase)t.base));
	return b;
}

int
fe_conversion_ok(Node *e, IrType from, IrType to)
{
	IrType other = ir_is_fp8(from) ? to : from;

	if (!ir_is_fp8(from) && !ir_is_fp8(to))
		return 1;
	if (other.base == IR_F16 || other.base == IR_BF16 || other.base == IR_F32)
		return 1;
	diag_error(e->loc, "cannot convert %s to %s: fp8 converts only to and from f16, bf16 and f32",
		   fe_tname(from), fe_tname(to));
	return 0;
}

/* Whether the integer v (the bits of a u64) is a value of type base. */
int
fe_int_fits(int base, int64_t v)
{
	switch (base) {
	case IR_I1: return v == 0 || v == 1;
	case IR_I8: return v >= -128 && v <= 127;
	case IR_I16: return v >= -32768 && v <= 32767;
	case IR_I32: return v >= INT32_MIN && v <= INT32_MAX;
	case IR_U8: return v >= 0 && v <= UINT8_MAX;
	case IR_U16: return v >= 0 && v <= UINT16_MAX;
	case IR_U32: return v >= 0 && v <= (int64_t)UINT32_MAX;
	default: return 1;
	}
}

void
fe_const_str(char *out, size_t size, IrType t, ConstVal v)
{
	if (fe_floatnum(t) || ir_is_fp8(t))
		fe_double_str(out, size, v.f);
	else if (t.base == IR_U64)
		snprintf(out, size, "%llu", (unsigned long long)v.i);
	else if (t.base == IR_I1)
		snprintf(out, size, "%s", v.i ? "true" : "false");
	else
		snprintf(out, size, "%lld", (long long)v.i);
}

/* Rounds a float constant to what its type holds, so that folding matches run time. */
double
fe_round_float(int base, double v)
{
	return base == IR_F32 ? (double)(float)v : v;
}

/* Marks e as a compile-time value of type t. */
void
fe_set_const(Node *e, IrType t, ConstVal v)
{
	e->ty = t;
	e->isconst = 1;
	e->cv = v;
}

void
fe_set_error(Node *e)
{
	e->ty = fe_ty(TY_ERROR);
	e->isconst = 0;
}

/* Gives the untyped constant e the type t, checking that its value fits. */
int
fe_convert_untyped(Node *e, IrType t)
{
	char s[64];

	fe_const_str(s, sizeof s, e->ty, e->cv);
	if (ir_is_frag(t) || ir_type_eq(t, ir_vector(IR_F32, 4))) {
		/* an accumulator fragment (f32acc[64, 8] is f32x4) takes one f32 constant in every
		 * lane */
		double f = e->ty.base == TY_UNTYPED_INT ? (double)e->cv.i : e->cv.f;

		if (fabs(f) > fe_float_max(IR_F32)) {
			diag_error(e->loc, "constant %s overflows f32", s);
			return 0;
		}
		e->cv.f = fe_round_float(IR_F32, f);
		e->ty = t;
		return 1;
	}
	if (!fe_scalar(t)) {
		diag_error(e->loc, "type mismatch: expected %s, found %s constant %s", fe_tname(t),
			   fe_tname(e->ty), s);
		return 0;
	}
	if (ir_is_fp8(t)) {
		/* fp8 rounds and saturates: make the conversion visible */
		diag_error(e->loc, "cannot use the constant %s as %s (convert it with %s(...))", s,
			   fe_tname(t), fe_tname(t));
		return 0;
	}
	if (e->ty.base == TY_UNTYPED_INT && fe_intnum(t)) {
		if (!fe_int_fits(t.base, e->cv.i) || (t.base == IR_U64 && e->cv.i < 0)) {
			diag_error(e->loc, "constant %s overflows %s", s, fe_tname(t));
			return 0;
		}
	} else if (fe_floatnum(t)) {
		double f = e->ty.base == TY_UNTYPED_INT ? (double)e->cv.i : e->cv.f;

		if (fabs(f) > fe_float_max(t.base)) {
			diag_error(e->loc, "constant %s overflows %s", s, fe_tname(t));
			return 0;
		}
		e->cv.f = fe_round_float(t.base, f);
	} else if (e->ty.base == TY_UNTYPED_FLOAT && fe_intnum(t)) {
		diag_error(e->loc, "cannot use the float constant %s as %s (convert it with %s(...))",
			   s, fe_tname(t), fe_tname(t));
		return 0;
	} else {
		diag_error(e->loc, "type mismatch: expected %s, found %s constant %s", fe_tname(t),
			   fe_tname(e->ty), s);
		return 0;
	}
	e->ty = t;
	return 1;
}

/* Makes e (already checked) a value of type want: untyped constants convert; anything
 * else must match exactly. `what` names the context: "the initializer of 'x'". */
int
fe_convert(Node *e, IrType want, const char *what)
{
	if (fe_is_error(e->ty) || fe_is_error(want))
		return 0;
	if (ir_type_eq(e->ty, want))
		return 1;
	if (fe_untyped(e->ty))
		return fe_convert_untyped(e, want);
	diag_error(e->loc, "type mismatch in %s: expected %s, found %s", what, fe_tname(want),
		   fe_tname(e->ty));
	fe_set_error(e);
	return 0;
}

/* Gives an untyped constant its default type: i32 for integers, f32 for floats. */
int
fe_default_type(Node *e)
{
	if (e->ty.base == TY_UNTYPED_INT)
		return fe_convert_untyped(e, ir_scalar(IR_I32));
	if (e->ty.base == TY_UNTYPED_FLOAT)
		return fe_convert_untyped(e, ir_scalar(IR_F32));
	return !fe_is_error(e->ty);
}

/* The value of a constant of type `from` converted as the `cast` op does at run time:
 * float to integer truncates toward zero and saturates, integers wrap to the width. */
ConstVal
fe_cast_const(IrType from, IrType to, ConstVal v)
{
	ConstVal r = {0, 0};

	if (ir_is_fp8(to)) {    /* from f16, bf16 or f32 (sema allows no other) */
		r.f = ir_fp8_decode((IrBase)to.base, ir_fp8_encode((IrBase)to.base, v.f));
		return r;
	}
	if (ir_is_fp8(from)) {  /* exact in f16, bf16 and f32 */
		r.f = v.f;
		return r;
	}
	if (fe_floatnum(to)) {
		if (fe_floatnum(from))
			r.f = v.f;
		else if (from.base == IR_U64)
			r.f = (double)(uint64_t)v.i;
		else
			r.f = (double)v.i;
		r.f = fe_round_float(to.base, r.f);
		return r;
	}
	if (fe_floatnum(from)) {
		double f = trunc(v.f);

		if (isnan(f))
			r.i = 0;
		else if (to.base == IR_U64)
			r.i = f <= 0 ? 0 : f >= 18446744073709551615.0 ? -1 : (int64_t)(uint64_t)f;
		else if (to.base == IR_I64)
			r.i = f <= -9223372036854775808.0 ? INT64_MIN : f >= 9223372036854775807.0 ? INT64_MAX : (int64_t)f;
		else {
			int64_t lo, hi;

			switch (to.base) {
			case IR_I8: lo = -128; hi = 127; break;
			case IR_I16: lo = -32768; hi = 32767; break;
			case IR_I32: lo = INT32_MIN; hi = INT32_MAX; break;
			case IR_U8: lo = 0; hi = UINT8_MAX; break;
			case IR_U16: lo = 0; hi = UINT16_MAX; break;
			default: lo = 0; hi = UINT32_MAX; break;
			}
			r.i = f <= (double)lo ? lo : f >= (double)hi ? hi : (int64_t)f;
		}
		return r;
	}
	switch (to.base) {
	case IR_I8: r.i = (int8_t)(uint8_t)((uint64_t)v.i & 0xff); break;
	case IR_I16: r.i = (int16_t)(uint16_t)((uint64_t)v.i & 0xffff); break;
	case IR_I32: r.i = (int32_t)(uint32_t)((uint64_t)v.i & 0xffffffff); break;
	case IR_U8: r.i = (int64_t)((uint64_t)v.i & 0xff); break;
	case IR_U16: r.i = (int64_t)((uint64_t)v.i & 0xffff); break;
	case IR_U32: r.i = (int64_t)((uint64_t)v.i & 0xffffffff); break;
	default: r.i = v.i; break;
	}
	return r;
}

/* Folds an integer operation of type t (an integer type or untyped int). Returns 0 after
 * reporting an overflow or a division by zero. */
int
fe_fold_int(Node *e, AstOp op, IrType t, int64_t a, int64_t b, int64_t *r)
{
	int bits = t.base == TY_UNTYPED_INT ? 64 : ir_base_bits((IrBase)t.base);
	int u64 = t.base == IR_U64;
	uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
	int bad = 0;

	switch (op) {
	case OP_ADD:
		if (u64)
			bad = (*r = (int64_t)(ua + ub), ua + ub < ua);
		else
			bad = __builtin_add_overflow(a, b, r);
		break;
	case OP_SUB:
		if (u64)
			bad = (*r = (int64_t)(ua - ub), ub > ua);
		else
			bad = __builtin_sub_overflow(a, b, r);
		break;
	case OP_MUL:
		if (u64) {
			uint64_t m;

			bad = __builtin_mul_overflow(ua, ub, &m);
			*r = (int64_t)m;
		} else {
			bad = __builtin_mul_overflow(a, b, r);
		}
		break;
	case OP_DIV:
	case OP_REM:
		if (b == 0) {
			diag_error(e->loc, "division by zero in a constant expression");
			return 0;
		}
		if (u64)
			*r = (int64_t)(op == OP_DIV ? ua / ub : ua % ub);
		else if (a == INT64_MIN && b == -1)
			bad = 1;
		else
			*r = op == OP_DIV ? a / b : a % b;
		break;
	case OP_AND: *r = a & b; break;
	case OP_OR: *r = a | b; break;
	case OP_XOR: *r = a ^ b; break;
	case OP_SHL:
	case OP_SHR:
		if (b < 0 || b >= bits) {
			diag_error(e->loc, "shift count %lld is out of range for %s (0 to %d)",
				   (long long)b, fe_tname(t), bits - 1);
			return 0;
		}
		if (op == OP_SHL) {
			*r = (int64_t)(ua << b);
			if (!u64 && bits == 64 && ((*r >> b) != a))
				bad = 1;
		} else if (u64 || a >= 0) {
			*r = (int64_t)(ua >> b);
		} else {
			*r = ~(int64_t)(~ua >> b);
		}
		break;
	default:
		ICE("fe_fold_int: operator %d", op);
	}
	if (!bad && !u64 && !fe_int_fits(t.base, *r))
		bad = 1;
	if (bad) {
		diag_error(e->loc, "constant expression overflows %s", fe_tname(t));
		return 0;
	}
	return 1;
}

static int
compare(AstOp op, int c)
{
	switch (op) {
	case OP_EQ: return c == 0;
	case OP_NE: return c != 0;
	case OP_LT: return c < 0;
	case OP_LE: return c <= 0;
	case OP_GT: return c > 0;
	default: return c >= 0;
	}
}

/* Folds `a op b` for two constants of type t; sets e. Returns 0 on a reported error or
 * when the operation is not folded (f16/bf16 arithmetic is left to run time). */
int
fe_fold_binary(Node *e, AstOp op, IrType t, ConstVal a, ConstVal b)
{
	ConstVal r = {0, 0};

	if (fe_is_compare(op)) {
		int c;

		if (fe_floatnum(t)) {
			if (isnan(a.f) || isnan(b.f)) {
				r.i = op == OP_NE;
				fe_set_const(e, ir_scalar(IR_I1), r);
				return 1;
			}
			c = a.f < b.f ? -1 : a.f > b.f;
		} else if (t.base == IR_U64) {
			c = (uint64_t)a.i < (uint64_t)b.i ? -1 : (uint64_t)a.i > (uint64_t)b.i;
		} else {
			c = a.i < b.i ? -1 : a.i > b.i;
		}
		r.i = compare(op, c);
		fe_set_const(e, ir_scalar(IR_I1), r);
		return 1;
	}
	if (op == OP_LAND || op == OP_LOR) {
		r.i = op == OP_LAND ? (a.i && b.i) : (a.i || b.i);
		fe_set_const(e, t, r);
		return 1;
	}
	if (fe_floatnum(t)) {
		if (t.base == IR_F16 || t.base == IR_BF16)
			return 0;
		switch (op) {
		case OP_ADD: r.f = a.f + b.f; break;
		case OP_SUB: r.f = a.f - b.f; break;
		case OP_MUL: r.f = a.f * b.f; break;
		case OP_DIV:
			if (b.f == 0) {
				diag_error(e->loc, "division by zero in a constant expression");
				fe_set_error(e);
				return 0;
			}
			r.f = a.f / b.f;
			break;
		default:
			return 0;
		}
		r.f = fe_round_float(t.base, r.f);
		if (isinf(r.f) || fabs(r.f) > fe_float_max(t.base)) {
			diag_error(e->loc, "constant expression overflows %s", fe_tname(t));
			fe_set_error(e);
			return 0;
		}
		fe_set_const(e, t, r);
		return 1;
	}
	if (!fe_fold_int(e, op, t, a.i, b.i, &r.i)) {
		fe_set_error(e);
		return 0;
	}
	fe_set_const(e, t, r);
	return 1;
}

/* Whether op applies to operands of type t. */
int
fe_binary_ok(AstOp op, IrType t)
{
	int lanes_ok = 1;

	if (fe_untyped(t))
		return op != OP_LAND && op != OP_LOR &&
		       (t.base == TY_UNTYPED_INT ||
			op == OP_ADD || op == OP_SUB || op == OP_MUL || op == OP_DIV || fe_is_compare(op));
	if (fe_is_compare(op) || op == OP_LAND || op == OP_LOR)
		lanes_ok = t.lanes == 1;
	if (!lanes_ok)
		return 0;
	switch (op) {
	case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV:
		return fe_intnum(t) || fe_floatnum(t);
	case OP_REM: case OP_SHL: case OP_SHR:
		return fe_intnum(t);
	case OP_AND: case OP_OR: case OP_XOR:
		return ir_is_int(t);
	case OP_LAND: case OP_LOR:
		return t.base == IR_I1;
	case OP_EQ: case OP_NE:
		return ir_is_int(t) || ir_is_float(t);
	default:
		return fe_intnum(t) || fe_floatnum(t);
	}
}

/* Brings the operands of a binary operator (or of min, max, select...) to one type:
 * untyped constants take the other side's type. Returns 0 after reporting a mismatch. */
int
fe_unify(Node *e, Node *a, Node *b, const char *what)
{
	if (fe_is_error(a->ty) || fe_is_error(b->ty))
		return 0;
	if (ir_type_eq(a->ty, b->ty))
		return 1;
	if (fe_untyped(a->ty) && fe_untyped(b->ty)) {
		/* an untyped int meets an untyped float: both are floats now */
		if (a->ty.base == TY_UNTYPED_INT) {
			a->cv.f = (double)a->cv.i;
			a->ty = fe_ty(TY_UNTYPED_FLOAT);
		} else {
			b->cv.f = (double)b->cv.i;
			b->ty = fe_ty(TY_UNTYPED_FLOAT);
		}
		return 1;
	}
	if (fe_untyped(a->ty))
		return fe_convert_untyped(a, b->ty);
	if (fe_untyped(b->ty))
		return fe_convert_untyped(b, a->ty);
	diag_error(e->loc, "operands of %s have different types: %s and %s", what,
		   fe_tname(a->ty), fe_tname(b->ty));
	return 0;
}

/* A generic parameter (N_TPARAM) is a constant when its one type is an integer type
 * (`BN: i32`), else a type parameter (`T: bf16 | f16`). */
int
fe_tparam_is_const(const Node *tp)
{
	IrType t;

	return tp->list.n == 1 && fe_type_from_name(tp->list.head->name, &t) && t.lanes == 1 &&
	       fe_intnum(t);
}
