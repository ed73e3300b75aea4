/* eval.c: integer evaluation, the one owner of what an integer op computes: canonicalize
 * folds with it, schedule-check follows thread indices with it, and an interpreter can run
 * integer code with it. Integers are kept normalized in an int64: wrapped to the type's
 * width, then sign-extended (i8..i64) or zero-extended (i1, u32, u64). Results the GPU does
 * not define (poison in LLVM) are refused, never guessed: division or remainder by zero,
 * MIN / -1 of a signed type, shifts by the width or more. */
#include "ir.h"

static uint64_t
width_mask(int w)
{
	return w >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << w) - 1;
}

/* The int64 with the same bits, without relying on implementation-defined conversion. */
static int64_t
as_signed(uint64_t v)
{
	return v <= (uint64_t)INT64_MAX ? (int64_t)v : -(int64_t)(~v) - 1;
}

int64_t
ir_int_norm(IrType t, int64_t x)
{
	int w = ir_base_bits((IrBase)t.base);
	uint64_t m = width_mask(w), v = (uint64_t)x & m;

	if (ir_is_signed(t) && w < 64 && (v >> (w - 1)) & 1)
		v |= ~m;
	return as_signed(v);
}

static int
divide(int opc, IrType t, uint64_t a, uint64_t b, uint64_t *r)
{
	int w = ir_base_bits((IrBase)t.base);
	uint64_t min = (uint64_t)ir_int_norm(t, (int64_t)((uint64_t)1 << (w - 1)));

	if (b == 0 || (ir_is_signed(t) && a == min && as_signed(b) == -1))
		return 0;
	if (ir_is_signed(t))
		*r = (uint64_t)(opc == IR_DIV ? as_signed(a) / as_signed(b) : as_signed(a) % as_signed(b));
	else
		*r = opc == IR_DIV ? a / b : a % b;
	return 1;
}

static int
shift(int opc, IrType t, uint64_t a, uint64_t b, uint64_t *r)
{
	int w = ir_base_bits((IrBase)t.base);
	uint64_t wb = b & width_mask(w);

	if (wb >= (uint64_t)w)
		return 0;
	if (opc == IR_SHL)
		*r = a << wb;
	else    /* a is extended by its signedness; >> of a negative int64 is not portable */
		*r = ir_is_signed(t) && as_signed(a) < 0 ? ~(~a >> wb) : a >> wb;
	return 1;
}

/* add .. abs on operands of type t. */
static int
arith(int opc, IrType t, uint64_t a, uint64_t b, uint64_t *r)
{
	int sgn = ir_is_signed(t);

	switch (opc) {
	case IR_ADD: *r = a + b; return 1;
	case IR_SUB: *r = a - b; return 1;
	case IR_MUL: *r = a * b; return 1;
	case IR_DIV: case IR_REM: return divide(opc, t, a, b, r);
	case IR_AND: *r = a & b; return 1;
	case IR_OR: *r = a | b; return 1;
	case IR_XOR: *r = a ^ b; return 1;
	case IR_SHL: case IR_SHR: return shift(opc, t, a, b, r);
	case IR_MIN:
	case IR_MAX: {
		int lt = sgn ? as_signed(a) < as_signed(b) : a < b;

		*r = (opc == IR_MIN) == lt ? a : b;
		return 1;
	}
	case IR_NEG: *r = 0 - a; return 1;
	case IR_NOT: *r = ~a; return 1;
	/* abs(MIN) wraps to MIN, as the backend defines it (llvm.abs, not poison) */
	case IR_ABS: *r = sgn && as_signed(a) < 0 ? 0 - a : a; return 1;
	default: return 0;
	}
}

static int
compare(int opc, IrType at, uint64_t a, uint64_t b)
{
	int lt = ir_is_signed(at) ? as_signed(a) < as_signed(b) : a < b, eq = a == b;

	switch (opc) {
	case IR_CMP_EQ: return eq;
	case IR_CMP_NE: return !eq;
	case IR_CMP_LT: return lt;
	case IR_CMP_LE: return lt || eq;
	case IR_CMP_GT: return !lt && !eq;
	default: return !lt;  /* IR_CMP_GE */
	}
}

int
ir_eval_int_op(int opc, IrType t, IrType at, int nargs, const int64_t *a, int64_t *out)
{
	uint64_t x = nargs > 0 ? (uint64_t)a[0] : 0, y = nargs > 1 ? (uint64_t)a[1] : 0, r;

	if (!ir_is_int(t) || t.lanes != 1 || (nargs > 0 && (!ir_is_int(at) || at.lanes != 1)))
		return 0;
	switch (opc) {
	case IR_CMP_EQ: case IR_CMP_NE: case IR_CMP_LT:
	case IR_CMP_LE: case IR_CMP_GT: case IR_CMP_GE:
		r = (uint64_t)compare(opc, at, x, y);
		break;
	case IR_SELECT:
		r = x & 1 ? y : (uint64_t)a[2];
		break;
	case IR_CAST:
		r = x;
		break;
	default:
		if (!(ir_opinfo[opc].flags & OPF_ARITH) || ir_opinfo[opc].nargs != nargs || !arith(opc, t, x, y, &r))
			return 0;
	}
	*out = ir_int_norm(t, (int64_t)r);
	return 1;
}

/* Result v of if-op d: the value its taken region yields (the flags that lower early
 * exits are such results, and so are variables an if assigns). */
static int
eval_if_result(IrEval *e, const IrOp *d, IrValue v, int64_t *out)
{
	const IrRegion *r;
	const IrOp *y;
	int64_t c;
	int j, ok;

	for (j = 0; j < d->nres && d->res[j] != v; j++)
		;
	e->depth++;
	ok = j < d->nres && ir_eval_value(e, d->args[0], &c);
	if (ok) {
		r = &d->regions[c & 1 ? 0 : 1];
		y = r->nops ? &r->ops[r->nops - 1] : NULL;
		ok = y && y->opc == IR_YIELD && j < y->nargs && ir_eval_value(e, y->args[j], out);
	}
	e->depth--;
	return ok || (e->leaf && e->leaf(e, d, v, out));
}

/* The value of integer scalar v: constants, integer ops over values it can evaluate, and
 * whatever e->leaf says of the rest (special registers, loads, region results). */
int
ir_eval_value(IrEval *e, IrValue v, int64_t *out)
{
	const IrOp *d;
	int64_t a[3];
	int i, ok;
	IrType t;

	if (v <= 0 || v >= e->k->nvalues || e->depth >= IR_EVAL_MAX_DEPTH || e->steps >= e->max_steps)
		return 0;
	e->steps++;
	t = ir_vtype(e->k, v);
	if (!ir_is_int(t) || t.lanes != 1)
		return 0;
	d = e->defs[v];
	if (d && d->opc == IR_CONST) {
		*out = ir_int_norm(t, d->imm);
		return 1;
	}
	if (d && d->opc == IR_IF)
		return eval_if_result(e, d, v, out);
	if (!d || d->nregions || d->nargs < 1 || d->nargs > 3 || !(ir_opinfo[d->opc].flags & OPF_PURE))
		return e->leaf && e->leaf(e, d, v, out);
	e->depth++;
	for (i = 0, ok = 1; i < d->nargs && ok; i++)
		ok = ir_eval_value(e, d->args[i], &a[i]);
	e->depth--;
	return ok && ir_eval_int_op(d->opc, t, ir_vtype(e->k, d->args[0]), d->nargs, a, out);
}
