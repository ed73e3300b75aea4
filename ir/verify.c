/* verify.c: the IR verifier. Runs after the frontend, after every pass and on parsed IR.
 *
 * Checks, per kernel: the header (threads, targets, params against the body's arguments,
 * shared buffers); per op: operand and region counts against ops.def, operand and result
 * types against the op's rule, that every use is dominated by its definition (defined
 * earlier in the same region or an enclosing one, or an argument of an enclosing region),
 * that each value is defined once, and that regions end in the terminator their parent
 * expects, carrying values that match. Each problem is one diagnostic at the op's location
 * naming the op and `when`; the count is returned. Never trusts an index before checking
 * it: the verifier's input is whatever a buggy pass or a fuzzer made. */
#include "verify.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	V_UNSEEN,       /* not defined yet in the walk */
	V_LIVE,         /* defined in an open region: uses are dominated */
	V_CLOSED,       /* defined in a region that has ended: uses are not dominated */
};

typedef enum RegionKind {
	RK_BODY, RK_IF, RK_FOR, RK_WHILE_BEFORE, RK_WHILE_AFTER, RK_OTHER,
	RK_ASYNC,       /* the region of role, elect, produce or consume */
} RegionKind;

static int
is_scalar_data(IrType t)
{
	return vf_is_data(t) && t.lanes == 1;
}

static int
is_int_data(IrType t)
{
	return vf_is_data(t) && ir_is_int(t);
}

static int
is_float_data(IrType t)
{
	return vf_is_data(t) && ir_is_float(t);
}

static int
is_i1(IrType t)
{
	return ir_type_eq(t, ir_scalar(IR_I1));
}

static int
is_32bit_int_scalar(IrType t)
{
	return ir_type_eq(t, ir_scalar(IR_I32)) || ir_type_eq(t, ir_scalar(IR_U32));
}

static int
bits_of(IrType t)
{
	return ir_base_bits((IrBase)t.base);
}

/* ---- values ---- */

static int
valid_id(const Verifier *v, IrValue x)
{
	return x > 0 && x < v->k->nvalues;
}

static IrType
vt(const Verifier *v, IrValue x)
{
	return ir_vtype(v->k, x);
}

/* Defines x here; reports a second definition or a missing type. */
static void
define(Verifier *v, IrValue x, SrcLoc loc, const char *what, int index, const char *owner)
{
	if (!valid_id(v, x)) {
		vf_error(v, loc, "%s %d of %s is not a value (%%%d; the kernel has %d value slots)", what,
		     index, owner, x, v->k->nvalues - 1);
		return;
	}
	if (v->state[x] != V_UNSEEN) {
		vf_error(v, loc, "%%%d is defined more than once (%s %d of %s)", x, what, index, owner);
		return;
	}
	if (!vf_is_data(vt(v, x)) && !vf_is_ptr(vt(v, x)) && !vf_is_tmap(vt(v, x)))
		vf_error(v, loc, "%s %d of %s (%%%d) has type %s, which is not a value type", what, index,
		     owner, x, vf_tname(vt(v, x)));
	else if (vf_is_tmap(vt(v, x)) && (strcmp(what, "argument") != 0 || strcmp(owner, "the kernel body") != 0) &&
		 strcmp(owner, "select") != 0)
		vf_error(v, loc, "%s %d of %s (%%%d) has type tmap, which only tensor-map parameters (and selects between them) have",
			 what, index, owner, x);
	v->state[x] = V_LIVE;
	PUSH(v->scope, v->nscope, v->capscope, x);
}

/* Returns 1 when the operand names a defined value (its type can be trusted). */
static int
check_use(Verifier *v, const IrOp *op, int i)
{
	IrValue x = op->args[i];

	if (!valid_id(v, x)) {
		vf_error(v, op->loc, "operand %d of %s is not a value (%%%d)", i + 1, vf_opname(op), x);
		return 0;
	}
	if (!v->defined[x]) {
		vf_error(v, op->loc, "operand %d of %s uses %%%d, which is never defined", i + 1, vf_opname(op), x);
		return 0;
	}
	if (v->state[x] == V_UNSEEN)
		vf_error(v, op->loc, "operand %d of %s uses %%%d before its definition", i + 1, vf_opname(op), x);
	else if (v->state[x] == V_CLOSED)
		vf_error(v, op->loc, "operand %d of %s uses %%%d, whose definition does not dominate it "
		     "(it is defined inside a region that has ended)", i + 1, vf_opname(op), x);
	return 1;
}

static void
mark_defined(Verifier *v, IrValue x, const IrOp *op)
{
	if (valid_id(v, x)) {
		v->defined[x] = 1;
		v->def[x] = op;
	}
}

static void
collect_defs(Verifier *v, const IrRegion *r, int depth)
{
	int i, j;

	if (depth > 1000)
		return;
	for (i = 0; i < r->nargs; i++)
		mark_defined(v, r->args[i], NULL);
	for (i = 0; i < r->nops; i++) {
		const IrOp *op = &r->ops[i];

		for (j = 0; j < op->nres; j++)
			mark_defined(v, op->res[j], op);
		for (j = 0; j < op->nregions; j++)
			collect_defs(v, &op->regions[j], depth + 1);
	}
}

/* ---- per-op rules ---- */

static IrType
rt(const Verifier *v, const IrOp *op, int i)
{
	return vt(v, op->res[i]);
}

static void
check_arith(Verifier *v, const IrOp *op)
{
	IrType t;
	int i, ok;
	const char *need;

	if (!vf_want_nres(v, op, 1))
		return;
	t = rt(v, op, 0);
	switch (op->opc) {
	case IR_REM: case IR_SHL: case IR_SHR:
		ok = is_int_data(t) && t.base != IR_I1;
		need = "an integer type other than i1";
		break;
	case IR_AND: case IR_OR: case IR_XOR: case IR_NOT:
		ok = is_int_data(t);
		need = "an integer type";
		break;
	case IR_EXP2: case IR_LOG2: case IR_RSQRT: case IR_SQRT: case IR_FMA:
		ok = is_float_data(t);
		need = "a float type";
		break;
	case IR_EXP: case IR_LOG: case IR_SIN: case IR_COS: case IR_TANH: case IR_ERF: case IR_POW:
	case IR_EXP_APPROX: case IR_LOG_APPROX: case IR_SIN_APPROX: case IR_COS_APPROX:
	case IR_TANH_APPROX:
		ok = t.base == IR_F32;  /* backend_ptx/llvm_math.c has the f32 algorithms only */
		need = "f32";
		break;
	case IR_FLOOR: case IR_CEIL: case IR_TRUNC: case IR_ROUND: case IR_RINT: case IR_COPYSIGN:
		ok = t.base == IR_F32 || t.base == IR_F64;
		need = "f32 or f64";
		break;
	default:
		ok = is_float_data(t) || (is_int_data(t) && t.base != IR_I1);
		need = "an integer (not i1) or float type";
		break;
	}
	if (!ok)
		vf_error(v, op->loc, "%s needs %s, got %s", vf_opname(op), need, vf_tname(t));
	if ((ir_opinfo[op->opc].flags & OPF_NSW) && op->imm
	    && (op->imm != 1 || !is_int_data(t)))
		vf_error(v, op->loc, "%s[%" PRId64 "]: the attribute is 0, or 1 (no signed overflow) on an integer type",
			 vf_opname(op), op->imm);
	for (i = 0; i < op->nargs; i++)
		vf_want_arg(v, op, i, t);
}

static void
check_cmp(Verifier *v, const IrOp *op)
{
	IrType a = vt(v, op->args[0]), b = vt(v, op->args[1]);
	int eq = op->opc == IR_CMP_EQ || op->opc == IR_CMP_NE;

	if ((!vf_is_data(a) && !(eq && vf_is_ptr(a))) || ir_is_fp8(a))
		vf_error(v, op->loc, "%s cannot compare %s", vf_opname(op), vf_tname(a));
	if (!ir_type_eq(a, b))
		vf_error(v, op->loc, "operand 2 of %s has type %s, expected %s", vf_opname(op), vf_tname(b), vf_tname(a));
	if (vf_want_nres(v, op, 1) && !ir_type_eq(rt(v, op, 0), ir_vector(IR_I1, a.lanes ? a.lanes : 1)))
		vf_error(v, op->loc, "%s gives %s, expected %s", vf_opname(op), vf_tname(rt(v, op, 0)),
		     vf_tname(ir_vector(IR_I1, a.lanes ? a.lanes : 1)));
}

/* isnan, isinf: a float operand, an i1 result with its lanes. */
static void
check_classify(Verifier *v, const IrOp *op)
{
	IrType a = vt(v, op->args[0]), want = ir_vector(IR_I1, a.lanes ? a.lanes : 1);

	if (a.base != IR_F32 && a.base != IR_F64)
		vf_error(v, op->loc, "%s needs f32 or f64, got %s", vf_opname(op), vf_tname(a));
	if (vf_want_nres(v, op, 1) && !ir_type_eq(rt(v, op, 0), want))
		vf_error(v, op->loc, "%s gives %s, expected %s", vf_opname(op), vf_tname(rt(v, op, 0)),
			 vf_tname(want));
}

static void
check_select(Verifier *v, const IrOp *op)
{
	IrType c = vt(v, op->args[0]), t;

	if (!vf_want_nres(v, op, 1))
		return;
	t = rt(v, op, 0);
	/* a tmap only between maps (a per_rank table's, picked by rank) */
	if (!vf_is_data(t) && !vf_is_ptr(t) && !vf_is_tmap(t))
		vf_error(v, op->loc, "select cannot give %s", vf_tname(t));
	if (!is_i1(c) && !ir_type_eq(c, ir_vector(IR_I1, t.lanes)))
		vf_error(v, op->loc, "operand 1 of select has type %s, expected i1%s", vf_tname(c),
		     t.lanes > 1 ? " or a vector of i1 with the result's lanes" : "");
	vf_want_arg(v, op, 1, t);
	vf_want_arg(v, op, 2, t);
}

/* The conversions the hardware has for fp8 (cvt ...e4m3x2/e5m2x2 from f32 and f16x2, and
 * back to f16x2): from and to f16, bf16 and f32, never between fp8 and anything else. */
static int
fp8_cast_ok(IrType a, IrType t)
{
	IrType other = ir_is_fp8(a) ? t : a;

	return other.base == IR_F16 || other.base == IR_BF16 || other.base == IR_F32;
}

static void
check_cast(Verifier *v, const IrOp *op)
{
	IrType a = vt(v, op->args[0]), t;

	if (!vf_want_nres(v, op, 1))
		return;
	t = rt(v, op, 0);
	if (op->opc == IR_CAST) {
		if (!vf_is_data(a) || !vf_is_data(t))
			vf_error(v, op->loc, "cast converts between integer and float types, not %s to %s",
			     vf_tname(a), vf_tname(t));
		else if (a.lanes != t.lanes)
			vf_error(v, op->loc, "cast from %s to %s changes the number of lanes", vf_tname(a), vf_tname(t));
		else if ((ir_is_fp8(a) || ir_is_fp8(t)) && !fp8_cast_ok(a, t))
			vf_error(v, op->loc, "cast from %s to %s: fp8 converts only to and from f16, bf16 and f32",
			     vf_tname(a), vf_tname(t));
		return;
	}
	if ((!vf_is_data(a) && !vf_is_ptr(a)) || (!vf_is_data(t) && !vf_is_ptr(t)) || a.base == IR_I1 || t.base == IR_I1)
		vf_error(v, op->loc, "bitcast cannot convert %s to %s", vf_tname(a), vf_tname(t));
	else if (ir_type_bytes(a) != ir_type_bytes(t))
		vf_error(v, op->loc, "bitcast from %s (%d bytes) to %s (%d bytes) changes the size", vf_tname(a),
		     ir_type_bytes(a), vf_tname(t), ir_type_bytes(t));
	else if (vf_is_ptr(a) && vf_is_ptr(t) && a.space != t.space)
		vf_error(v, op->loc, "bitcast from %s to %s changes the address space", vf_tname(a), vf_tname(t));
}

static void
check_vec(Verifier *v, const IrOp *op)
{
	IrType t;
	int i;

	if (!vf_want_nres(v, op, 1))
		return;
	t = rt(v, op, 0);
	if (!vf_is_data(t) || t.lanes < 2) {
		vf_error(v, op->loc, "vec builds a vector, not %s", vf_tname(t));
		return;
	}
	if (op->nargs != t.lanes) {
		vf_error(v, op->loc, "vec builds %s from %d scalars, got %d operand%s", vf_tname(t), t.lanes,
		     op->nargs, op->nargs == 1 ? "" : "s");
		return;
	}
	for (i = 0; i < op->nargs; i++)
		vf_want_arg(v, op, i, ir_scalar((IrBase)t.base));
}

static void
check_extract(Verifier *v, const IrOp *op)
{
	IrType a = vt(v, op->args[0]);

	if (!vf_is_data(a) || a.lanes < 2) {
		vf_error(v, op->loc, "extract needs a vector operand, got %s", vf_tname(a));
		return;
	}
	if (op->imm < 0 || op->imm >= a.lanes)
		vf_error(v, op->loc, "extract lane %" PRId64 " is out of range for %s (lanes 0 to %d)", op->imm,
		     vf_tname(a), a.lanes - 1);
	if (vf_want_nres(v, op, 1) && !ir_type_eq(rt(v, op, 0), ir_scalar((IrBase)a.base)))
		vf_error(v, op->loc, "extract from %s gives %s, expected %s", vf_tname(a), vf_tname(rt(v, op, 0)),
		     vf_tname(ir_scalar((IrBase)a.base)));
}

/* Operand i is a pointer; returns 0 (after reporting) if not. */
static int
want_ptr(Verifier *v, const IrOp *op, int i)
{
	IrType t = vt(v, op->args[i]);

	if (vf_is_ptr(t))
		return 1;
	vf_error(v, op->loc, "operand %d of %s has type %s, expected a pointer", i + 1, vf_opname(op), vf_tname(t));
	return 0;
}

/* store.row ptr, nrows, ncols, row, col, v0 .. vN-1 (ir/ops.def). */
static void
check_store_row(Verifier *v, const IrOp *op)
{
	IrType p, it, t;
	int i;

	if (op->nargs < 6 || op->nargs > 5 + IR_MAX_ROW_STORE) {
		vf_error(v, op->loc, "store.row takes a pointer, nrows, ncols, row, col and 1 to %d values, found %d operands",
			 IR_MAX_ROW_STORE, op->nargs);
		return;
	}
	p = vt(v, op->args[0]);
	if (!vf_want_nres(v, op, 0))
		return;
	if (p.base != IR_PTR || p.space != IR_GLOBAL || (p.elem != IR_F32 && p.elem != IR_BF16 && p.elem != IR_F16))
		vf_error(v, op->loc, "store.row writes through a global pointer to f32, bf16 or f16, not %s", vf_tname(p));
	it = vt(v, op->args[1]);
	if (!ir_type_eq(it, ir_scalar(IR_I32)) && !ir_type_eq(it, ir_scalar(IR_I64)))
		vf_error(v, op->loc, "operand 2 of store.row has type %s, expected i32 or i64", vf_tname(it));
	for (i = 2; i < 5; i++)
		if (!ir_type_eq(vt(v, op->args[i]), it))
			vf_error(v, op->loc, "operand %d of store.row has type %s, expected %s (operand 2's)",
				 i + 1, vf_tname(vt(v, op->args[i])), vf_tname(it));
	t = vt(v, op->args[5]);
	if (!ir_type_eq(t, ir_scalar(IR_F32)) && !ir_type_eq(t, ir_scalar(IR_BF16)) && !ir_type_eq(t, ir_scalar(IR_F16)))
		vf_error(v, op->loc, "operand 6 of store.row has type %s, expected f32, bf16 or f16", vf_tname(t));
	for (i = 6; i < op->nargs; i++)
		if (!ir_type_eq(vt(v, op->args[i]), t)) {
			vf_error(v, op->loc, "operand %d of store.row has type %s, expected %s (operand 6's)",
				 i + 1, vf_tname(vt(v, op->args[i])), vf_tname(t));
			return;
		}
}

/* wgmma.load[N | broadcast << 16 | transposed << 17] ptr, nrows, ncols, row0, col0 ->
 * f32x(N/2) (f32x4 for N = 8); a broadcast row is never transposed. */
/* The tile pointer of wgmma.load and wgmma.store: global, or shared (where the attribute
 * may name the array's swizzle), of f32, bf16 or f16. */
static int
tile_ptr_ok(Verifier *v, const IrOp *op, IrType p)
{
	(void)v;
	if (p.elem != IR_F32 && p.elem != IR_BF16 && p.elem != IR_F16)
		return 0;
	return p.space == IR_SHARED || (p.space == IR_GLOBAL && !IR_TILE_SWIZZLE(op->imm));
}

/* Paired rows (IR_TILE_PAIRED) are for transposed tiles only (of a global tensor or a
 * shared array): there a thread's two elements of a column are adjacent. */
static void
check_paired(Verifier *v, const IrOp *op)
{
	if ((op->imm & IR_TILE_PAIRED) && !(op->imm & IR_TILE_TRANSPOSED))
		vf_error(v, op->loc, "%s[%" PRId64 "]: paired rows (%d) need a transposed tile (%d)",
			 ir_opinfo[op->opc].name, op->imm, IR_TILE_PAIRED, IR_TILE_TRANSPOSED);
}

static void
check_wgmma_load(Verifier *v, const IrOp *op)
{
	int64_t n = op->imm & 0xffff;
	IrType p, t, want = ir_vector(IR_F32, (int)((op->imm & 0xffff) / 2));
	int i;

	if (!want_ptr(v, op, 0) || !vf_want_nres(v, op, 1))
		return;
	if (n < 8 || n > 256 || n % 8 || op->imm >> 21 || (op->imm >> 16 & 3) == 3) {
		vf_error(v, op->loc, "wgmma.load[%" PRId64 "]: the attribute is N | broadcast << 16 | transposed << 17 | swizzle << 18 | paired << 20 with N a multiple of 8 in 8..256 (not both flags)",
			 op->imm);
		return;
	}
	p = vt(v, op->args[0]);
	check_paired(v, op);
	if (!tile_ptr_ok(v, op, p))
		vf_error(v, op->loc, "wgmma.load reads through a global or shared pointer to f32, bf16 or f16 (a swizzle only for shared), not %s",
			 vf_tname(p));
	if (!ir_type_eq(vt(v, op->res[0]), want))
		vf_error(v, op->loc, "wgmma.load[%" PRId64 "] gives %s, expected %s", op->imm, vf_tname(vt(v, op->res[0])),
			 vf_tname(want));
	t = vt(v, op->args[1]);
	if (!ir_type_eq(t, ir_scalar(IR_I32)) && !ir_type_eq(t, ir_scalar(IR_I64))) {
		vf_error(v, op->loc, "operand 2 of wgmma.load has type %s, expected i32 or i64", vf_tname(t));
		return;
	}
	for (i = 2; i < 5; i++)
		if (!ir_type_eq(vt(v, op->args[i]), t))
			vf_error(v, op->loc, "operand %d of wgmma.load has type %s, expected %s (operand 2's)", i + 1,
				 vf_tname(vt(v, op->args[i])), vf_tname(t));
}

static void
check_memory(Verifier *v, const IrOp *op)
{
	IrType p, t;

	switch (op->opc) {
	case IR_ELEMPTR:
		if (!want_ptr(v, op, 0) || !vf_want_nres(v, op, 1))
			return;
		p = vt(v, op->args[0]);
		t = vt(v, op->args[1]);
		if (!ir_type_eq(t, ir_scalar(IR_I32)) && !ir_type_eq(t, ir_scalar(IR_I64)))
			vf_error(v, op->loc, "operand 2 of elemptr has type %s, expected i32 or i64", vf_tname(t));
		if (!ir_type_eq(rt(v, op, 0), p))
			vf_error(v, op->loc, "elemptr gives %s, expected %s (the pointer's type)",
			     vf_tname(rt(v, op, 0)), vf_tname(p));
		break;
	case IR_SMEM:
		if (!vf_want_nres(v, op, 1))
			return;
		if (op->imm < 0 || op->imm >= v->k->nbufs) {
			vf_error(v, op->loc, "smem names buffer %" PRId64 ", but the kernel has %d shared buffer%s",
			     op->imm, v->k->nbufs, v->k->nbufs == 1 ? "" : "s");
			return;
		}
		p = ir_ptr(IR_SHARED, v->k->bufs[op->imm].elem);
		if (!ir_type_eq(rt(v, op, 0), p))
			vf_error(v, op->loc, "smem[%" PRId64 "] gives %s, expected %s (buffer '%s')", op->imm,
			     vf_tname(rt(v, op, 0)), vf_tname(p), v->k->bufs[op->imm].name);
		break;
	case IR_LOAD:
		if (!want_ptr(v, op, 0) || !vf_want_nres(v, op, 1))
			return;
		p = vt(v, op->args[0]);
		t = rt(v, op, 0);
		if (!vf_is_data(t) || t.lanes > 4 || t.base != p.elem)
			vf_error(v, op->loc, "load through %s gives %s, expected %s or a vector of it", vf_tname(p),
			     vf_tname(t), ir_base_name((IrBase)p.elem));
		if (op->imm != 0 && op->imm != 1)
			vf_error(v, op->loc, "load[%" PRId64 "]: the attribute is 0 or 1 (read-only path)", op->imm);
		else if (op->imm == 1 && p.space != IR_GLOBAL)
			vf_error(v, op->loc, "load[1] (read-only path) needs a global pointer, got %s", vf_tname(p));
		break;
	case IR_STORE: case IR_STORE_IF:
		if (!want_ptr(v, op, 0) || !vf_want_nres(v, op, 0))
			return;
		p = vt(v, op->args[0]);
		t = vt(v, op->args[1]);
		if (!vf_is_data(t) || t.lanes > 4 || t.base != p.elem)
			vf_error(v, op->loc, "operand 2 of %s has type %s, expected %s or a vector of it (stored through %s)",
			     ir_opinfo[op->opc].name, vf_tname(t), ir_base_name((IrBase)p.elem), vf_tname(p));
		if (op->opc == IR_STORE_IF && t.base == IR_I1 && t.lanes > 1)
			vf_error(v, op->loc, "store.if stores scalars and vectors of data bytes, not %s", vf_tname(t));
		if (op->opc == IR_STORE_IF && !ir_type_eq(vt(v, op->args[2]), ir_scalar(IR_I1)))
			vf_error(v, op->loc, "operand 3 of store.if (the condition) has type %s, expected i1",
			     vf_tname(vt(v, op->args[2])));
		break;
	case IR_STORE_ROW:
		check_store_row(v, op);
		break;
	case IR_WGMMA_LOAD:
		check_wgmma_load(v, op);
		break;
	case IR_WGMMA_STORE: {
		int i;

		if (!want_ptr(v, op, 0) || !vf_want_nres(v, op, 0))
			return;
		if (op->imm & ~(int64_t)(IR_TILE_TRANSPOSED | IR_TILE_SWIZZLE_BITS(128) | IR_TILE_PAIRED))
			vf_error(v, op->loc, "wgmma.store[%" PRId64 "]: the attribute is transposed (%d) | swizzle << 18 | paired (%d)",
				 op->imm, IR_TILE_TRANSPOSED, IR_TILE_PAIRED);
		p = vt(v, op->args[0]);
		check_paired(v, op);
		t = vt(v, op->args[1]);
		if (!tile_ptr_ok(v, op, p))
			vf_error(v, op->loc, "wgmma.store writes through a global or shared pointer to f32, bf16 or f16 (a swizzle only for shared), not %s",
			     vf_tname(p));
		if (t.base != IR_F32 || t.lanes < 4 || t.lanes % 4)
			vf_error(v, op->loc, "operand 2 of wgmma.store has type %s, expected an m64nN accumulator (f32x(N/2))",
			     vf_tname(t));
		t = vt(v, op->args[2]);
		if (!ir_type_eq(t, ir_scalar(IR_I32)) && !ir_type_eq(t, ir_scalar(IR_I64)))
			vf_error(v, op->loc, "operand 3 of wgmma.store has type %s, expected i32 or i64", vf_tname(t));
		for (i = 3; i < 6; i++)
			if (!ir_type_eq(vt(v, op->args[i]), t))
				vf_error(v, op->loc, "operand %d of wgmma.store has type %s, expected %s (operand 3's)",
				     i + 1, vf_tname(vt(v, op->args[i])), vf_tname(t));
		break;
	}
	}
}

static void
check_atomic(Verifier *v, const IrOp *op)
{
	IrType p, e;
	int ok, bits, i;
	const char *need;

	if (!want_ptr(v, op, 0))
		return;
	p = vt(v, op->args[0]);
	e = ir_scalar((IrBase)p.elem);
	for (i = 1; i < op->nargs; i++)
		vf_want_arg(v, op, i, e);
	bits = bits_of(e);
	switch (op->opc) {
	case IR_ATOM_ADD:
		ok = (ir_is_int(e) && bits >= 32) || ir_is_float(e);
		need = "a 32- or 64-bit integer or a float";
		break;
	case IR_ATOM_XCHG:
		ok = bits >= 32;
		need = "a 32- or 64-bit type";
		break;
	default:
		ok = ir_is_int(e) && bits >= 32;
		need = "a 32- or 64-bit integer";
		break;
	}
	if (!ok)
		vf_error(v, op->loc, "%s on %s: the element must be %s", vf_opname(op), vf_tname(e), need);
	if (op->nres > 1)
		vf_error(v, op->loc, "%s has %d results, expected at most 1 (the old value)", vf_opname(op), op->nres);
	else if (op->nres == 1 && !ir_type_eq(rt(v, op, 0), e))
		vf_error(v, op->loc, "%s gives %s, expected %s (the old value)", vf_opname(op), vf_tname(rt(v, op, 0)),
		     vf_tname(e));
}

/* load.acquire, store.release, wait.ge and fence: a scope attribute; the accesses take a
 * global or shared pointer to a 32- or 64-bit integer (what PTX's ld.acquire and
 * st.release take for flags), wait.ge a value of that type and an i64 timeout. */
static void
check_ordered(Verifier *v, const IrOp *op)
{
	IrType p, e;

	if (op->imm < 0 || op->imm >= IR_NSCOPES)
		vf_error(v, op->loc, "%s[%" PRId64 "]: the scope is 0 (cta), 1 (cluster), 2 (gpu) or 3 (system)",
			 vf_opname(op), op->imm);
	if (op->opc == IR_FENCE) {
		vf_want_nres(v, op, 0);
		return;
	}
	if (!want_ptr(v, op, 0))
		return;
	p = vt(v, op->args[0]);
	e = ir_scalar((IrBase)p.elem);
	if ((p.space != IR_GLOBAL && p.space != IR_SHARED) || !ir_is_int(e) || bits_of(e) < 32)
		vf_error(v, op->loc, "%s through %s: it takes a global or shared pointer to a 32- or 64-bit integer",
			 vf_opname(op), vf_tname(p));
	switch (op->opc) {
	case IR_LOAD_ACQ:
		if (vf_want_nres(v, op, 1) && !ir_type_eq(rt(v, op, 0), e))
			vf_error(v, op->loc, "load.acquire gives %s, expected %s (the pointer's element)",
				 vf_tname(rt(v, op, 0)), vf_tname(e));
		break;
	case IR_STORE_REL:
		vf_want_nres(v, op, 0);
		vf_want_arg(v, op, 1, e);
		break;
	default:
		vf_want_arg(v, op, 1, e);
		vf_want_arg(v, op, 2, ir_scalar(IR_I64));
		if (vf_want_nres(v, op, 1) && !ir_type_eq(rt(v, op, 0), ir_scalar(IR_I1)))
			vf_error(v, op->loc, "wait.ge gives %s, expected i1", vf_tname(rt(v, op, 0)));
		break;
	}
}

/* bar.sync / bar.arrive a, b: i32 operands; a constant id is a named barrier (1..15, 0 is
 * the CTA barrier's), a constant count a multiple of 32 up to the CTA's threads. */
static void
check_named_barrier(Verifier *v, const IrOp *op)
{
	int64_t c, n = (int64_t)v->k->threads[0] * v->k->threads[1] * v->k->threads[2];

	vf_want_nres(v, op, 0);
	vf_want_arg(v, op, 0, ir_scalar(IR_I32));
	vf_want_arg(v, op, 1, ir_scalar(IR_I32));
	if (vf_const_of(v, op->args[0], &c) && (c < 1 || c > 15))
		vf_error(v, op->loc, "%s: the barrier id is %" PRId64 ", expected 1 to 15 (0 is the CTA barrier's)",
			 vf_opname(op), c);
	if (vf_const_of(v, op->args[1], &c) && (c < 32 || c % 32 || c > n))
		vf_error(v, op->loc, "%s: the thread count is %" PRId64 ", expected a multiple of 32 from 32 to the CTA's %" PRId64,
			 vf_opname(op), c, n);
}

static void
check_warp(Verifier *v, const IrOp *op)
{
	IrType a = vt(v, op->args[0]);

	if (!vf_want_nres(v, op, 1))
		return;
	switch (op->opc) {
	case IR_SHFL_XOR: case IR_SHFL_DOWN: case IR_SHFL_UP: case IR_SHFL_IDX:
		if (!is_scalar_data(a) || bits_of(a) != 32)
			vf_error(v, op->loc, "%s moves 32-bit values (i32, u32, f32), got %s", vf_opname(op), vf_tname(a));
		if (!is_32bit_int_scalar(vt(v, op->args[1])))
			vf_error(v, op->loc, "operand 2 of %s has type %s, expected i32", vf_opname(op),
			     vf_tname(vt(v, op->args[1])));
		if (!ir_type_eq(rt(v, op, 0), a))
			vf_error(v, op->loc, "%s gives %s, expected %s", vf_opname(op), vf_tname(rt(v, op, 0)), vf_tname(a));
		break;
	case IR_VOTE_ANY: case IR_VOTE_ALL:
		vf_want_arg(v, op, 0, ir_scalar(IR_I1));
		if (!is_i1(rt(v, op, 0)))
			vf_error(v, op->loc, "%s gives %s, expected i1", vf_opname(op), vf_tname(rt(v, op, 0)));
		break;
	case IR_BALLOT:
		vf_want_arg(v, op, 0, ir_scalar(IR_I1));
		if (!is_32bit_int_scalar(rt(v, op, 0)))
			vf_error(v, op->loc, "ballot gives %s, expected u32", vf_tname(rt(v, op, 0)));
		break;
	}
}

/* cp.async: a shared destination and a global source of one element type, 4, 8 or 16
 * bytes (a whole number of elements); commit and wait take nothing and give nothing. */
static void
check_cp_async(Verifier *v, const IrOp *op)
{
	IrType d, s;

	if (!vf_want_nres(v, op, 0))
		return;
	if (op->opc == IR_CP_ASYNC_WAIT && (op->imm < 0 || op->imm > 31)) {
		vf_error(v, op->loc, "cp.async.wait[%" PRId64 "]: the group count is 0 to 31", op->imm);
		return;
	}
	if (op->opc != IR_CP_ASYNC)
		return;
	d = vt(v, op->args[0]);
	s = vt(v, op->args[1]);
	if (d.base != IR_PTR || d.space != IR_SHARED)
		vf_error(v, op->loc, "operand 1 of cp.async has type %s, expected a shared pointer", vf_tname(d));
	else if (s.base != IR_PTR || s.space != IR_GLOBAL)
		vf_error(v, op->loc, "operand 2 of cp.async has type %s, expected a global pointer", vf_tname(s));
	else if (d.elem != s.elem)
		vf_error(v, op->loc, "cp.async copies %s into %s: the element types differ", vf_tname(s), vf_tname(d));
	else if (op->imm != 4 && op->imm != 8 && op->imm != 16)
		vf_error(v, op->loc, "cp.async[%" PRId64 "]: a copy is 4, 8 or 16 bytes", op->imm);
	else if (op->imm % ir_type_bytes(ir_scalar((IrBase)d.elem)) != 0)
		vf_error(v, op->loc, "cp.async[%" PRId64 "] of %s: not a whole number of elements", op->imm,
			 ir_base_name((IrBase)d.elem));
}

static void
check_const(Verifier *v, const IrOp *op)
{
	IrType t;
	int bits;

	if (!vf_want_nres(v, op, 1))
		return;
	t = rt(v, op, 0);
	if (!vf_is_data(t)) {
		vf_error(v, op->loc, "const cannot have type %s", vf_tname(t));
		return;
	}
	bits = bits_of(t);
	if (ir_is_fp8(t) && !ir_fp8_is_value((IrBase)t.base, op->fimm))
		vf_error(v, op->loc, "const %g is not a value of %s", op->fimm, vf_tname(t));
	if (ir_is_int(t) && bits < 64) {
		/* either reading of the bits is fine: -1 and 255 are both an i8 */
		int64_t lo = -(INT64_C(1) << (bits - 1)), hi = (INT64_C(1) << bits) - 1;

		if (bits == 1)
			lo = -1;
		if (op->imm < lo || op->imm > hi)
			vf_error(v, op->loc, "const %" PRId64 " does not fit in %s", op->imm, vf_tname(t));
	}
}

static void verify_region(Verifier *v, const IrRegion *r, RegionKind kind, const IrOp *parent, int index);

/* The terminator of region i of op, if it is the expected one. */
static const IrOp *
terminator(const IrOp *op, int i, int opc)
{
	const IrRegion *r = &op->regions[i];

	if (r->nops == 0 || r->ops[r->nops - 1].opc != opc)
		return NULL;
	return &r->ops[r->nops - 1];
}

/* The values a terminator passes (from operand `first` on) match `types`. */
static void
check_passed(Verifier *v, const IrOp *term, int first, int n, const IrType *types, const IrOp *parent,
	     int region, const char *what)
{
	int i, have = term->nargs - first;

	if (have != n) {
		vf_error(v, term->loc, "%s in region %d of %s passes %d value%s, expected %d (%s)", vf_opname(term),
		     region + 1, vf_opname(parent), have < 0 ? 0 : have, have == 1 ? "" : "s", n, what);
		return;
	}
	for (i = 0; i < n; i++) {
		IrValue x = term->args[first + i];
		IrType t = vt(v, x);

		if (valid_id(v, x) && v->defined[x] && !ir_type_eq(t, types[i]))
			vf_error(v, term->loc, "operand %d of %s has type %s, expected %s (%s)", first + i + 1,
			     vf_opname(term), vf_tname(t), vf_tname(types[i]), what);
	}
}

static void
want_region_args(Verifier *v, const IrOp *op, int region, int n, const IrType *types, const char *what)
{
	const IrRegion *r = &op->regions[region];
	int i;

	if (r->nargs != n) {
		vf_error(v, op->loc, "region %d of %s has %d argument%s, expected %d (%s)", region + 1, vf_opname(op),
		     r->nargs, r->nargs == 1 ? "" : "s", n, what);
		return;
	}
	for (i = 0; i < n; i++)
		if (valid_id(v, r->args[i]) && !ir_type_eq(vt(v, r->args[i]), types[i]))
			vf_error(v, op->loc, "argument %d of region %d of %s has type %s, expected %s (%s)", i + 1,
			     region + 1, vf_opname(op), vf_tname(vt(v, r->args[i])), vf_tname(types[i]), what);
}

static void
want_results(Verifier *v, const IrOp *op, int n, const IrType *types, const char *what)
{
	int i;

	if (op->nres != n) {
		vf_error(v, op->loc, "%s has %d result%s, expected %d (%s)", vf_opname(op), op->nres,
		     op->nres == 1 ? "" : "s", n, what);
		return;
	}
	for (i = 0; i < n; i++)
		if (!ir_type_eq(rt(v, op, i), types[i]))
			vf_error(v, op->loc, "result %d of %s has type %s, expected %s (%s)", i + 1, vf_opname(op),
			     vf_tname(rt(v, op, i)), vf_tname(types[i]), what);
}

static IrType *
arg_types(const Verifier *v, const IrValue *vals, int n)
{
	IrType *t = xcalloc((size_t)(n ? n : 1), sizeof *t);
	int i;

	for (i = 0; i < n; i++)
		t[i] = vt(v, vals[i]);
	return t;
}

static void
check_if(Verifier *v, const IrOp *op)
{
	IrType *res = arg_types(v, op->res, op->nres);
	int i;

	vf_want_arg(v, op, 0, ir_scalar(IR_I1));
	for (i = 0; i < 2; i++) {
		const IrOp *y;

		if (op->regions[i].nargs)
			vf_error(v, op->loc, "region %d of if has %d arguments, expected none", i + 1,
			     op->regions[i].nargs);
		verify_region(v, &op->regions[i], RK_IF, op, i);
		if ((y = terminator(op, i, IR_YIELD)))
			check_passed(v, y, 0, op->nres, res, op, i, "the results of if");
	}
	free(res);
}

/* A full unroll (for[-1]) of a loop whose bounds are known may not pass
 * IR_MAX_FULL_UNROLL iterations: LLVM would unroll it however large (a compile that runs
 * for minutes). Bounds known only at run time leave the hint to LLVM's own limits. */
/* The iterations of a for whose bounds are known; -1 for any other op. */
static int64_t
for_trips(const Verifier *v, const IrOp *op)
{
	IrEval e = {v->k, v->def, NULL, NULL, 0, 256, 0};
	int64_t lo, hi, step;

	if (op->opc != IR_FOR || op->nargs < 3 || !ir_eval_value(&e, op->args[0], &lo) ||
	    !ir_eval_value(&e, op->args[1], &hi) || !ir_eval_value(&e, op->args[2], &step) ||
	    step <= 0)
		return -1;
	return hi <= lo ? 0 : (int64_t)(((uint64_t)hi - (uint64_t)lo - 1) / (uint64_t)step + 1);
}

/* How many copies of its body an op's unroll hint makes: the trips of a full unroll with
 * known bounds, a factor N's min(N, trips), 1 otherwise (and for anything but for). */
static int64_t
unroll_copies(const Verifier *v, const IrOp *op)
{
	int64_t trips;

	if (op->opc != IR_FOR || (op->imm != -1 && op->imm <= 1))
		return 1;
	trips = for_trips(v, op);
	if (op->imm == -1)
		return trips > 1 ? trips : 1;
	return trips >= 0 && trips < op->imm ? (trips > 1 ? trips : 1) : op->imm;
}

static void
check_full_unroll(Verifier *v, const IrOp *op)
{
	int64_t trips = op->imm == -1 ? for_trips(v, op) : -1;

	if (trips > IR_MAX_FULL_UNROLL)
		vf_rule(v, op->loc, "a full unroll of %" PRId64 " iterations is past the limit of %d: "
			"unroll by a factor instead (for[N]), or not at all", trips, IR_MAX_FULL_UNROLL);
}

static void
check_for(Verifier *v, const IrOp *op)
{
	int n = op->nargs - 3, i;
	IrType iv, *carried, *rargs;
	const IrOp *y;

	if (op->nargs < 3) {
		vf_error(v, op->loc, "for expects lo, hi, step and the initial loop-carried values: at least 3 operands, got %d",
		     op->nargs);
		verify_region(v, &op->regions[0], RK_OTHER, op, 0);
		return;
	}
	iv = vt(v, op->args[0]);
	if (!is_scalar_data(iv) || !ir_is_int(iv) || iv.base == IR_I1)
		vf_error(v, op->loc, "operand 1 of for (lo) has type %s, expected an integer scalar", vf_tname(iv));
	vf_want_arg(v, op, 1, iv);
	vf_want_arg(v, op, 2, iv);
	if (op->imm < -1)
		vf_error(v, op->loc, "for[%" PRId64 "]: the unroll hint is -1 (full), 0 (none), 1 (no unroll) or N",
		     op->imm);
	else if (op->imm > IR_MAX_UNROLL_FACTOR)
		vf_rule(v, op->loc, "for[%" PRId64 "]: an unroll factor is at most %d", op->imm, IR_MAX_UNROLL_FACTOR);
	check_full_unroll(v, op);
	carried = arg_types(v, op->args + 3, n);
	rargs = xcalloc((size_t)n + 1, sizeof *rargs);
	rargs[0] = iv;
	for (i = 0; i < n; i++)
		rargs[i + 1] = carried[i];
	want_results(v, op, n, carried, "the loop-carried values");
	want_region_args(v, op, 0, n + 1, rargs, "the induction variable and the loop-carried values");
	verify_region(v, &op->regions[0], RK_FOR, op, 0);
	if ((y = terminator(op, 0, IR_YIELD)))
		check_passed(v, y, 0, n, carried, op, 0, "the loop-carried values");
	free(carried);
	free(rargs);
}

static void
check_while(Verifier *v, const IrOp *op)
{
	IrType *carried = arg_types(v, op->args, op->nargs), *passed = NULL;
	const IrOp *c, *y;
	int m = 0;

	want_region_args(v, op, 0, op->nargs, carried, "the loop-carried values");
	verify_region(v, &op->regions[0], RK_WHILE_BEFORE, op, 0);
	if ((c = terminator(op, 0, IR_CONDITION))) {
		if (c->nargs < 1) {
			vf_error(v, c->loc, "condition needs an i1 operand first");
		} else {
			if (valid_id(v, c->args[0]) && v->defined[c->args[0]] && !is_i1(vt(v, c->args[0])))
				vf_error(v, c->loc, "operand 1 of condition has type %s, expected i1",
				     vf_tname(vt(v, c->args[0])));
			m = c->nargs - 1;
			passed = arg_types(v, c->args + 1, m);
			want_region_args(v, op, 1, m, passed, "the values condition passes");
			want_results(v, op, m, passed, "the values condition passes");
		}
	}
	verify_region(v, &op->regions[1], RK_WHILE_AFTER, op, 1);
	if ((y = terminator(op, 1, IR_YIELD)))
		check_passed(v, y, 0, op->nargs, carried, op, 1, "the loop-carried values");
	free(carried);
	free(passed);
}

/* role, elect, produce, consume: one region without arguments that yields the results.
 * role and elect take one initial value per result after their fixed operands (what the
 * threads that do not run the region get), so those must match the results too. */
static void
check_async_region(Verifier *v, const IrOp *op)
{
	int fixed = op->opc == IR_ROLE ? 3 : op->opc == IR_ELECT ? 0 : op->nargs;
	IrType *res = arg_types(v, op->res, op->nres);
	const IrOp *y;
	int i;

	if (op->nargs < fixed || (fixed < op->nargs && op->nargs - fixed != op->nres)) {
		vf_error(v, op->loc, "%s has %d operand%s, expected %s%d initial value%s for its %d result%s",
		     vf_opname(op), op->nargs, op->nargs == 1 ? "" : "s",
		     op->opc == IR_ROLE ? "lo, hi, regs and " : "", op->nres, op->nres == 1 ? "" : "s",
		     op->nres, op->nres == 1 ? "" : "s");
	} else if (op->opc == IR_ROLE || op->opc == IR_ELECT) {
		if (op->nargs - fixed != op->nres)
			vf_error(v, op->loc, "%s has %d result%s but %d initial value%s", vf_opname(op), op->nres,
			     op->nres == 1 ? "" : "s", op->nargs - fixed, op->nargs - fixed == 1 ? "" : "s");
		else
			for (i = 0; i < op->nres; i++)
				vf_want_arg(v, op, fixed + i, res[i]);
	}
	if (op->regions[0].nargs)
		vf_error(v, op->loc, "the region of %s has %d arguments, expected none", vf_opname(op),
		     op->regions[0].nargs);
	verify_region(v, &op->regions[0], RK_ASYNC, op, 0);
	if ((y = terminator(op, 0, IR_YIELD)))
		check_passed(v, y, 0, op->nres, res, op, 0, "the results");
	free(res);
}

/* Terminators belong at the end of the region kind that expects them. */
static void
check_terminator_place(Verifier *v, const IrOp *op, RegionKind kind)
{
	int ok;

	if (kind == RK_OTHER)
		return;  /* the region's owner is broken already */
	switch (op->opc) {
	case IR_YIELD:
		ok = kind == RK_IF || kind == RK_FOR || kind == RK_WHILE_AFTER || kind == RK_ASYNC;
		break;
	case IR_CONDITION:
		ok = kind == RK_WHILE_BEFORE;
		break;
	default:
		ok = kind == RK_BODY;
		break;
	}
	if (!ok) {
		static const char *const where[] = {
			"the kernel body", "an if region", "a for region", "the before region of while",
			"the after region of while", "this region",
			"a role, elect, produce or consume region",
		};
		static const char *const allowed[] = {
			"in if, for, while-after, role, elect, produce and consume regions", "in while-before regions", "in the kernel body",
		};

		vf_error(v, op->loc, "%s cannot end %s (%s is only allowed %s)", vf_opname(op), where[kind],
		     vf_opname(op), allowed[op->opc == IR_YIELD ? 0 : op->opc == IR_CONDITION ? 1 : 2]);
	}
}

static void
verify_op(Verifier *v, const IrOp *op, RegionKind kind)
{
	const IrOpInfo *info;
	int i, ok = 1;

	if (op->opc < 0 || op->opc >= IR_NOPCODES) {
		vf_error(v, op->loc, "unknown opcode %d", op->opc);
		return;
	}
	info = &ir_opinfo[op->opc];
	if (op->nargs < 0 || (op->nargs > 0 && !op->args) || op->nres < 0 || (op->nres > 0 && !op->res) ||
	    op->nregions < 0 || (op->nregions > 0 && !op->regions)) {
		vf_error(v, op->loc, "%s has corrupt operand, result or region arrays", info->name);
		return;
	}
	for (i = 0; i < op->nargs; i++)
		ok &= check_use(v, op, i);
	if (info->nargs >= 0 && op->nargs != info->nargs) {
		vf_error(v, op->loc, "%s expects %d operand%s, got %d", info->name, info->nargs,
		     info->nargs == 1 ? "" : "s", op->nargs);
		ok = 0;
	}
	if (op->nregions != info->nregions) {
		vf_error(v, op->loc, "%s has %d region%s, expected %d", info->name, op->nregions,
		     op->nregions == 1 ? "" : "s", info->nregions);
		ok = 0;
	}
	if (ok) {
		switch (op->opc) {
		case IR_CONST:
			check_const(v, op);
			break;
		case IR_TID_X: case IR_TID_Y: case IR_TID_Z: case IR_NTID_X: case IR_NTID_Y:
		case IR_NTID_Z: case IR_CTAID_X: case IR_CTAID_Y: case IR_CTAID_Z: case IR_NCTAID_X:
		case IR_NCTAID_Y: case IR_NCTAID_Z: case IR_LANEID: case IR_WARPID:
			if (vf_want_nres(v, op, 1) && !is_32bit_int_scalar(rt(v, op, 0)))
				vf_error(v, op->loc, "%s gives %s, expected i32 or u32", info->name,
				     vf_tname(rt(v, op, 0)));
			break;
		case IR_CMP_EQ: case IR_CMP_NE: case IR_CMP_LT: case IR_CMP_LE: case IR_CMP_GT:
		case IR_CMP_GE:
			check_cmp(v, op);
			break;
		case IR_SELECT:
			check_select(v, op);
			break;
		case IR_CAST: case IR_BITCAST:
			check_cast(v, op);
			break;
		case IR_VEC:
			check_vec(v, op);
			break;
		case IR_EXTRACT:
			check_extract(v, op);
			break;
		case IR_ELEMPTR: case IR_SMEM: case IR_LOAD: case IR_STORE: case IR_STORE_IF: case IR_WGMMA_STORE:
		case IR_STORE_ROW: case IR_WGMMA_LOAD:
			check_memory(v, op);
			break;
		case IR_ATOM_ADD: case IR_ATOM_MIN: case IR_ATOM_MAX: case IR_ATOM_AND: case IR_ATOM_OR:
		case IR_ATOM_XCHG: case IR_ATOM_CAS:
			check_atomic(v, op);
			break;
		case IR_LOAD_ACQ: case IR_STORE_REL: case IR_FENCE: case IR_WAIT_GE:
			check_ordered(v, op);
			break;
		case IR_BARRIER: case IR_WARP_SYNC:
			vf_want_nres(v, op, 0);
			break;
		case IR_BAR_SYNC: case IR_BAR_ARRIVE:
			check_named_barrier(v, op);
			break;
		case IR_SHFL_XOR: case IR_SHFL_DOWN: case IR_SHFL_UP: case IR_SHFL_IDX:
		case IR_VOTE_ANY: case IR_VOTE_ALL: case IR_BALLOT:
			check_warp(v, op);
			break;
		case IR_IF:
			check_if(v, op);
			break;
		case IR_FOR:
			check_for(v, op);
			break;
		case IR_WHILE:
			check_while(v, op);
			break;
		case IR_ROLE: case IR_ELECT: case IR_PRODUCE: case IR_CONSUME:
			vf_async_op(v, op);
			check_async_region(v, op);
			break;
		case IR_MBAR: case IR_SMEM_STAGE: case IR_MBAR_INIT: case IR_MBAR_ARRIVE:
		case IR_MBAR_ARRIVE_TX: case IR_MBAR_EXPECT_TX: case IR_MBAR_WAIT:
		case IR_MBAR_ARRIVE_REMOTE: case IR_FENCE_MBAR_INIT: case IR_FENCE_PROXY_ASYNC:
		case IR_TMA_LOAD: case IR_TMA_LOAD_MC: case IR_TMA_STORE: case IR_TMA_COMMIT:
		case IR_TMA_WAIT: case IR_ELECT_SYNC: case IR_SETMAXNREG: case IR_CLUSTER_RANK:
		case IR_CLUSTER_SYNC: case IR_MAPA: case IR_WGMMA_DESC: case IR_WGMMA:
		case IR_WGMMA_FENCE: case IR_WGMMA_COMMIT: case IR_WGMMA_WAIT:
			vf_async_op(v, op);
			break;
		case IR_TMEM_ALLOC: case IR_TMEM_DEALLOC: case IR_TMEM_RELINQUISH: case IR_TCGEN05_DESC:
		case IR_TCGEN05_MMA: case IR_TCGEN05_COMMIT: case IR_TCGEN05_LD: case IR_TCGEN05_ST:
		case IR_TCGEN05_WAIT_LD: case IR_TCGEN05_WAIT_ST: case IR_TCGEN05_FENCE_BEFORE:
		case IR_TCGEN05_FENCE_AFTER:
			vf_tmem_op(v, op);
			break;
		case IR_CP_ASYNC: case IR_CP_ASYNC_COMMIT: case IR_CP_ASYNC_WAIT:
			check_cp_async(v, op);
			break;
		case IR_ISNAN: case IR_ISINF:
			check_classify(v, op);
			break;
		case IR_YIELD: case IR_CONDITION: case IR_RET:
			vf_want_nres(v, op, 0);
			check_terminator_place(v, op, kind);
			break;
		default:
			if (info->flags & OPF_ARITH)
				check_arith(v, op);
			break;
		}
	}
	/* regions the per-op rule did not walk still need their uses checked */
	if (!ok)
		for (i = 0; i < op->nregions; i++)
			verify_region(v, &op->regions[i], RK_OTHER, op, i);
	for (i = 0; i < op->nres; i++)
		define(v, op->res[i], op->loc, "result", i + 1, info->name);
}

static const char *
expected_terminator(RegionKind kind)
{
	switch (kind) {
	case RK_BODY: return "ret";
	case RK_WHILE_BEFORE: return "condition";
	case RK_OTHER: return NULL;
	default: return "yield";
	}
}

static void
verify_region(Verifier *v, const IrRegion *r, RegionKind kind, const IrOp *parent, int index)
{
	int mark = v->nscope, i;
	const char *term = expected_terminator(kind);
	SrcLoc where = parent ? parent->loc : (SrcLoc){v->k->file, 0, 0, 0};

	if (++v->depth > 1000) {
		vf_error(v, where, "regions are nested too deeply");
		v->depth--;
		return;
	}
	if (r->nargs < 0 || (r->nargs > 0 && !r->args) || r->nops < 0 || (r->nops > 0 && !r->ops)) {
		vf_error(v, where, "region %d of %s has corrupt argument or op arrays", index + 1,
		     parent ? vf_opname(parent) : "the kernel");
		v->depth--;
		return;
	}
	for (i = 0; i < r->nargs; i++)
		define(v, r->args[i], where, "argument", i + 1, parent ? vf_opname(parent) : "the kernel body");
	for (i = 0; i < r->nops; i++) {
		const IrOp *op = &r->ops[i];

		if (i < r->nops - 1 && op->opc >= 0 && op->opc < IR_NOPCODES &&
		    (ir_opinfo[op->opc].flags & OPF_TERM))
			vf_error(v, op->loc, "%s must be the last op of its region (%d op%s)", vf_opname(op),
			     r->nops - 1 - i, r->nops - 1 - i == 1 ? " follows" : "s follow");
		verify_op(v, op, kind);
	}
	/* A wrong terminator was reported by the op itself; here only a missing one. */
	if (term) {
		const IrOp *last = r->nops ? &r->ops[r->nops - 1] : NULL;

		if (!last || last->opc < 0 || last->opc >= IR_NOPCODES || !(ir_opinfo[last->opc].flags & OPF_TERM)) {
			/* at the op where the terminator should have been, if the region has one */
			SrcLoc at = last && last->loc.line > 0 ? last->loc : where;

			if (kind == RK_BODY)
				vf_error(v, at, "the kernel body does not end in ret");
			else
				vf_error(v, at, "region %d of %s does not end in %s", index + 1, vf_opname(parent), term);
		}
	}
	while (v->nscope > mark)
		v->state[v->scope[--v->nscope]] = V_CLOSED;
	v->depth--;
}

/* ---- the kernel header ---- */

static int
is_pow2(int64_t x)
{
	return x > 0 && (x & (x - 1)) == 0;
}

static void
verify_params(Verifier *v)
{
	const IrKernel *k = v->k;
	int i, j;

	for (i = 0; i < k->nparams; i++) {
		const IrParam *p = &k->params[i];
		const char *name = p->name ? p->name : "";

		if (!*name)
			vf_error(v, p->loc, "parameter %d has no name", i + 1);
		for (j = 0; j < i; j++)
			if (k->params[j].name && strcmp(k->params[j].name, name) == 0)
				vf_error(v, p->loc, "parameter '%s' is declared twice", name);
		switch (p->kind) {
		case PARAM_TENSOR:
			if (!vf_is_ptr(p->type) || p->type.space != IR_GLOBAL)
				vf_error(v, p->loc, "tensor parameter '%s' has type %s, expected a global pointer",
				     name, vf_tname(p->type));
			if (p->access < ACC_IN || p->access > ACC_INOUT)
				vf_error(v, p->loc, "tensor parameter '%s' has access %d (in, out or inout)", name,
				     p->access);
			if (p->rank < 0 || p->rank > IR_MAX_RANK) {
				vf_error(v, p->loc, "tensor parameter '%s' has rank %d (0 to %d)", name, p->rank,
				     IR_MAX_RANK);
				break;
			}
			for (j = 0; j < p->rank; j++) {
				const IrDim *d = &p->dims[j];

				if (d->sym >= 0 && (d->sym >= k->nparams || k->params[d->sym].kind != PARAM_SYM))
					vf_error(v, p->loc, "dimension %d of '%s' names parameter %d, which is not a sym",
					     j + 1, name, d->sym + 1);
				else if (d->sym < 0 && d->size < 1)
					vf_error(v, p->loc, "dimension %d of '%s' is %" PRId64 ", expected at least 1",
					     j + 1, name, d->size);
			}
			break;
		case PARAM_SYM:
			if (!ir_type_eq(p->type, ir_scalar(k->index64 ? IR_I64 : IR_I32)))
				vf_error(v, p->loc, "sym parameter '%s' has type %s, expected %s (the kernel's index width)",
				     name, vf_tname(p->type), k->index64 ? "i64" : "i32");
			break;
		case PARAM_TMAP:
			if (!vf_is_tmap(p->type))
				vf_error(v, p->loc, "tensor map parameter '%s' has type %s, expected tmap", name,
				     vf_tname(p->type));
			if (p->tmap_tensor < 0 || p->tmap_tensor >= k->nparams ||
			    k->params[p->tmap_tensor].kind != PARAM_TENSOR)
				vf_error(v, p->loc, "tensor map '%s' names parameter %d, which is not a tensor", name,
				     p->tmap_tensor + 1);
			break;
		case PARAM_SCALAR:
			if (!is_scalar_data(p->type))
				vf_error(v, p->loc, "scalar parameter '%s' has type %s, expected an integer or float scalar",
				     name, vf_tname(p->type));
			break;
		default:
			vf_error(v, p->loc, "parameter '%s' has unknown kind %d", name, p->kind);
			break;
		}
	}
	if (k->body.nargs != k->nparams) {
		vf_error(v, (SrcLoc){k->file, 0, 0, 0}, "the kernel body has %d argument%s but the kernel has %d parameter%s",
		     k->body.nargs, k->body.nargs == 1 ? "" : "s", k->nparams, k->nparams == 1 ? "" : "s");
		return;
	}
	for (i = 0; i < k->nparams; i++) {
		IrValue x = k->body.args[i];

		if (valid_id(v, x) && !ir_type_eq(vt(v, x), k->params[i].type))
			vf_error(v, k->params[i].loc, "body argument %d (%%%d) has type %s, but parameter '%s' is %s",
			     i + 1, x, vf_tname(vt(v, x)), k->params[i].name ? k->params[i].name : "",
			     vf_tname(k->params[i].type));
	}
}

static void
verify_buffers(Verifier *v)
{
	const IrKernel *k = v->k;
	int i, j;

	for (i = 0; i < k->nbufs; i++) {
		const IrBuffer *b = &k->bufs[i];
		const char *name = b->name ? b->name : "";
		int64_t count = 1, align;
		int overflow = 0;

		if (!*name)
			vf_error(v, b->loc, "shared buffer %d has no name", i);
		for (j = 0; j < i; j++)
			if (k->bufs[j].name && strcmp(k->bufs[j].name, name) == 0)
				vf_error(v, b->loc, "shared buffer '%s' is declared twice", name);
		if (b->elem < IR_I1 || b->elem > IR_F64) {
			vf_error(v, b->loc, "shared buffer '%s' has element type %d, expected a scalar type", name,
			     (int)b->elem);
			continue;
		}
		if (b->rank < 1 || b->rank > IR_MAX_RANK) {
			vf_error(v, b->loc, "shared buffer '%s' has rank %d (1 to %d)", name, b->rank, IR_MAX_RANK);
			continue;
		}
		for (j = 0; j < b->rank; j++) {
			if (b->dims[j] < 1) {
				vf_error(v, b->loc, "dimension %d of shared buffer '%s' is %" PRId64 ", expected at least 1",
				     j + 1, name, b->dims[j]);
				overflow = 1;
			} else if (count > INT64_MAX / b->dims[j]) {
				overflow = 1;
			} else {
				count *= b->dims[j];
			}
		}
		if (!overflow && count != b->count)
			vf_error(v, b->loc, "shared buffer '%s' has count %" PRId64 ", but its dimensions make %" PRId64,
			     name, b->count, count);
		if (b->align != 0 && !is_pow2(b->align))
			vf_error(v, b->loc, "shared buffer '%s' has alignment %d, expected a power of two", name, b->align);
		align = b->align > 0 ? b->align : ir_type_bytes(ir_scalar(b->elem));
		if (b->offset < -1 || (b->offset >= 0 && is_pow2(align) && b->offset % align != 0))
			vf_error(v, b->loc, "shared buffer '%s' has offset %" PRId64 ", expected -1 (not laid out) or a multiple of %" PRId64,
			     name, b->offset, align);
	}
}

static void
verify_header(Verifier *v)
{
	const IrKernel *k = v->k;
	SrcLoc kloc = {k->file, 0, 0, 0};
	int64_t n = 1;
	int i;

	if (!k->name || !*k->name)
		vf_error(v, kloc, "the kernel has no name");
	if (k->targets & ~((1u << TARGET_COUNT) - 1))
		vf_error(v, kloc, "the kernel's target mask 0x%x names unknown targets", k->targets);
	for (i = 0; i < 3; i++) {
		/* each dimension within 1..1024 first, so that the product cannot overflow */
		if (k->threads[i] < 1 || k->threads[i] > 1024)
			n = -1;
		else if (n > 0)
			n *= k->threads[i];
		if (!k->grid[i] || !*k->grid[i])
			vf_error(v, kloc, "grid dimension %d is empty", i + 1);
	}
	if (n < 0)
		vf_error(v, kloc, "threads %d %d %d: each dimension must be from 1 to 1024", k->threads[0],
		     k->threads[1], k->threads[2]);
	else if (n > 1024)
		vf_error(v, kloc, "threads %d %d %d make %" PRId64 " threads per block; the limit is 1024",
		     k->threads[0], k->threads[1], k->threads[2], n);
	if (k->smem_bytes < 0)
		vf_error(v, kloc, "smem_bytes is %" PRId64 ", expected 0 or more", k->smem_bytes);
	verify_params(v);
	verify_buffers(v);
	vf_async_header(v);
}

/* ---- the kernel's size once unrolled ---- */

/* Adds the ops of r, each weighing mult (the product of the copies the unrolls around it
 * make), to *total; the first op that takes it past IR_MAX_UNROLLED_OPS is reported at the
 * outermost unroll around it (root), or at itself. Saturates: nested unrolls multiply. */
static int
unrolled_size(Verifier *v, const IrRegion *r, int64_t mult, const IrOp *root, int64_t *total)
{
	int i, j;

	for (i = 0; i < r->nops; i++) {
		const IrOp *op = &r->ops[i];
		int64_t copies = unroll_copies(v, op), inner = mult;

		*total += mult;
		if (*total > IR_MAX_UNROLLED_OPS) {
			vf_rule(v, (root ? root : op)->loc, "the kernel has more than %d operations (each copy an unroll "
				"makes counted): unroll by a factor instead (for[N]), or split the kernel",
				IR_MAX_UNROLLED_OPS);
			return 1;
		}
		if (copies > 1)
			inner = copies > IR_MAX_UNROLLED_OPS / mult ? IR_MAX_UNROLLED_OPS + 1 : mult * copies;
		for (j = 0; j < op->nregions; j++)
			if (unrolled_size(v, &op->regions[j], inner, root || copies == 1 ? root : op, total))
				return 1;
	}
	return 0;
}

/* cakec-run --no-static-tmem-rules clears it: the interpreter's tests run planted tensor-
 * memory bugs that these static rules would refuse, to show the run-time checks find them. */
int ir_verify_tmem_kernel_rules = 1;

static int verify_kernel(const IrKernel *k, const char *when, const char *rule_when, int *nrule, int input);

int
ir_verify(const IrKernel *k, const char *when)
{
	int nrule;

	return verify_kernel(k, when, when, &nrule, 0);
}

int
ir_verify_rules(const IrKernel *k, const char *when, const char *rule_when, int *nrule)
{
	return verify_kernel(k, when, rule_when, nrule, 1);
}

/* input: the run before the first pass, which also checks the limits on the input's size
 * (IR_MAX_UNROLLED_OPS): a pass that adds ops to a kernel near it must not turn it into
 * an error without a line. */
static int
verify_kernel(const IrKernel *k, const char *when, const char *rule_when, int *nrule, int input)
{
	Verifier v;

	memset(&v, 0, sizeof v);
	v.k = k;
	v.when = when;
	v.rule_when = rule_when;
	*nrule = 0;
	if (k->nvalues < 1 || !k->vtypes) {
		vf_error(&v, (SrcLoc){k->file, 0, 0, 0}, "the kernel's value table is corrupt");
		return v.nerr;
	}
	v.state = xcalloc((size_t)k->nvalues, 1);
	v.defined = xcalloc((size_t)k->nvalues, 1);
	v.def = xcalloc((size_t)k->nvalues, sizeof *v.def);
	verify_header(&v);
	collect_defs(&v, &k->body, 0);
	verify_region(&v, &k->body, RK_BODY, NULL, 0);
	/* the whole-kernel rules trust the ops' shapes, so only on structurally valid IR */
	if (!v.nerr) {
		int64_t total = 0;

		if (input)
			unrolled_size(&v, &k->body, 1, NULL, &total);
		vf_async_kernel(&v);
		if (ir_verify_tmem_kernel_rules)
			vf_tmem_kernel(&v);
	}
	free(v.state);
	free(v.defined);
	free(v.def);
	free(v.scope);
	*nrule = v.nrule;
	return v.nerr;
}
