/* verify_util.c: the verifier's ground floor: reporting, type names and the type predicates
 * and operand/result checks that verify.c (the core rules) and verify_async.c (the async
 * machinery) both use. Calls nothing above it. */
#include "verify.h"

#include <stdio.h>

/* Type names for messages; a few rotating buffers so one message can hold several. */
const char *
vf_tname(IrType t)
{
	static char bufs[4][64];
	static int i;

	i = (i + 1) % 4;
	if (t.base >= IR_NBASE || t.lanes == 0 || (t.base == IR_PTR && t.elem >= IR_NBASE))
		snprintf(bufs[i], sizeof bufs[i], "<bad type %u/%u/%u/%u>", t.base, t.lanes, t.space, t.elem);
	else
		ir_type_str(t, bufs[i], sizeof bufs[i]);
	return bufs[i];
}

static void
report(Verifier *v, SrcLoc loc, const char *when, const char *fmt, va_list ap)
{
	Buf msg = {0};

	buf_vprintf(&msg, fmt, ap);
	if (loc.line <= 0) {
		/* no location: say which kernel at least */
		loc.file = v->k->file;
		loc.line = loc.col = 0;
		buf_printf(&msg, " (in kernel @%s)", v->k->name ? v->k->name : "");
	}
	if (when && *when)
		diag_error(loc, "%s: %s", when, msg.s);
	else
		diag_error(loc, "%s", msg.s);
	buf_free(&msg);
	v->nerr++;
}

void
vf_error(Verifier *v, SrcLoc loc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(v, loc, v->when, fmt, ap);
	va_end(ap);
}

void
vf_rule(Verifier *v, SrcLoc loc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(v, loc, v->rule_when, fmt, ap);
	va_end(ap);
	v->nrule++;
}

const char *
vf_opname(const IrOp *op)
{
	return op->opc >= 0 && op->opc < IR_NOPCODES ? ir_opinfo[op->opc].name : "?";
}

/* ---- type predicates ---- */

/* A scalar or vector of i1..f64, 2 or 4 lanes for vectors, an f32 accumulator fragment
 * (f32x8 .. f32x128) or a wgmma register A fragment (bf16x8 .. bf16x128, f16x8 ..). */
int
vf_is_data(IrType t)
{
	return (t.base >= IR_I1 && t.base <= IR_F64 && (t.lanes == 1 || t.lanes == 2 || t.lanes == 4) &&
		t.space == 0 && t.elem == 0) || ir_is_frag(t) || ir_is_afrag(t);
}

int
vf_is_tmap(IrType t)
{
	return ir_type_eq(t, ir_scalar(IR_TMAP));
}

int
vf_is_ptr(IrType t)
{
	return t.base == IR_PTR && t.lanes == 1 &&
	       (t.space == IR_GLOBAL || t.space == IR_SHARED || t.space == IR_CLUSTER) &&
	       t.elem >= IR_I1 && t.elem <= IR_F64;
}

/* Operand i must have type want. */
void
vf_want_arg(Verifier *v, const IrOp *op, int i, IrType want)
{
	IrType t = ir_vtype(v->k, op->args[i]);

	if (!ir_type_eq(t, want))
		vf_error(v, op->loc, "operand %d of %s has type %s, expected %s", i + 1, vf_opname(op), vf_tname(t),
		     vf_tname(want));
}

int
vf_want_nres(Verifier *v, const IrOp *op, int n)
{
	if (op->nres == n)
		return 1;
	vf_error(v, op->loc, "%s has %d result%s, expected %d", vf_opname(op), op->nres, op->nres == 1 ? "" : "s", n);
	return 0;
}


/* The value of x when a `const` of an integer type defines it. */
int
vf_const_of(const Verifier *v, IrValue x, int64_t *out)
{
	const IrOp *d;

	if (x <= 0 || x >= v->k->nvalues || !(d = v->def[x]) || d->opc != IR_CONST || d->nres != 1 ||
	    !ir_is_int(ir_vtype(v->k, x)))
		return 0;
	*out = d->imm;
	return 1;
}
