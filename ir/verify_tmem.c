/* verify_tmem.c: the verifier's rules for tensor memory and tcgen05 (FEAT_TMEM, FEAT_TCGEN05:
 * sm_100a, sm_103a; docs/ir.md, "tcgen05 and tensor memory"): the operand, result and
 * attribute rules of tmem.alloc .. tcgen05.fence.after, and the whole-kernel rules: the
 * column budget, one cta_group per kernel, cta_group::2 only in clusters of CTA pairs,
 * warp-collective ops not in one elected thread, tcgen05.ld results read only through
 * tcgen05.wait.ld, every alloc freed by the same warp and followed by a relinquish before
 * the kernel exits, and the fences that order tcgen05 ops with mbarrier waits and arrivals.
 * Rules a .cake user can break (columns, MMA shapes, elect, clusters) are vf_rule; the
 * rest only a compiler bug breaks (vf_error). Target gating is verify_async.c's, from the
 * ops.def rows. Like the rest of the verifier it trusts no index. */
#include "verify.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TMEM_COLS 512              /* columns of tensor memory per SM (128 lanes each) */
#define TMEM_CG2 (INT64_C(1) << 16) /* the cta_group::2 bit of every tmem/tcgen05 imm */
#define TMEM_LD_MAX 128            /* tcgen05.ld/st .32x32b: at most .x128 */
#define WALK_BUDGET 4000000        /* op visits of the fence walk (loops are walked twice) */

/* ---- types and attributes ---- */

static IrType
vt(const Verifier *v, IrValue x)
{
	return ir_vtype(v->k, x);
}

static int
is_i32(IrType t)
{
	return ir_type_eq(t, ir_scalar(IR_I32)) || ir_type_eq(t, ir_scalar(IR_U32));
}

static int
is_i64(IrType t)
{
	return ir_type_eq(t, ir_scalar(IR_I64)) || ir_type_eq(t, ir_scalar(IR_U64));
}

static int
is_cg2(const IrOp *op)
{
	return (op->imm & TMEM_CG2) != 0;
}

static int
valid_cols(int64_t n)
{
	return n >= 32 && n <= TMEM_COLS && (n & (n - 1)) == 0;
}

static void
want_arg(Verifier *v, const IrOp *op, int i, int ok, const char *what, const char *want)
{
	if (!ok)
		vf_error(v, op->loc, "operand %d of %s (%s) has type %s, expected %s", i + 1, vf_opname(op), what,
			 vf_tname(vt(v, op->args[i])), want);
}

/* An attribute with no bits outside `allowed`. */
static int
want_imm(Verifier *v, const IrOp *op, int64_t allowed, const char *layout)
{
	if (op->imm >= 0 && (op->imm & ~allowed) == 0)
		return 1;
	vf_error(v, op->loc, "%s[%" PRId64 "]: the attribute is %s", vf_opname(op), op->imm, layout);
	return 0;
}

/* The register type of tcgen05.ld/st .x<n>: one 32-bit word per column, f32 (f32, f32x2 ..
 * f32x128) or, where the IR has the vector type, i32/u32 (up to 4 lanes). */
static int
ld_type_ok(IrType t, int64_t n)
{
	return t.space == 0 && t.elem == 0 && t.lanes == n &&
	       (t.base == IR_F32 || ((t.base == IR_I32 || t.base == IR_U32) && n <= 4));
}

static int
valid_num(int64_t n)
{
	return n >= 1 && n <= TMEM_LD_MAX && (n & (n - 1)) == 0;
}

static void
check_alloc(Verifier *v, const IrOp *op)
{
	int64_t n = op->imm & 0xffff;

	vf_want_nres(v, op, 0);
	if (op->opc == IR_TMEM_ALLOC)
		want_arg(v, op, 0, ir_type_eq(vt(v, op->args[0]), ir_ptr(IR_SHARED, IR_I32)) ||
			 ir_type_eq(vt(v, op->args[0]), ir_ptr(IR_SHARED, IR_U32)), "the address slot", "ptr.shared.i32");
	else
		want_arg(v, op, 0, is_i32(vt(v, op->args[0])), "the TMEM address", "i32");
	if (!want_imm(v, op, TMEM_CG2 | 0xffff, "columns | cta_group::2 << 16"))
		return;
	/* the column count comes from the .cake tmem declarations */
	if (!valid_cols(n))
		vf_rule(v, op->loc, "%s of %" PRId64 " columns: tensor memory is allocated in a power of two of "
			"32 to %d columns", vf_opname(op), n, TMEM_COLS);
}

/* tcgen05.mma[N | M / 64 << 9 | kind << 12 | cta_group::2 << 16 | f16 D << 17] d, a, b, e:
 * the dense shapes of kinds f16 and f8f6f4 (PTX ISA, tcgen05 "Matrix shape"). */
static void
check_mma(Verifier *v, const IrOp *op)
{
	int64_t n = op->imm & 0x1ff, m = ((op->imm >> 9) & 7) * 64, kind = (op->imm >> 12) & 0xf;
	IrType a = vt(v, op->args[1]);

	vf_want_nres(v, op, 0);
	want_arg(v, op, 0, is_i32(vt(v, op->args[0])), "D, a TMEM address", "i32");
	want_arg(v, op, 1, is_i64(a) || is_i32(a), "A", "an i64 descriptor or an i32 TMEM address");
	want_arg(v, op, 2, is_i64(vt(v, op->args[2])), "the B descriptor", "i64");
	want_arg(v, op, 3, ir_type_eq(vt(v, op->args[3]), ir_scalar(IR_I1)), "enable-input-d", "i1");
	if (!want_imm(v, op, 0x3ffff, "N | M / 64 << 9 | kind << 12 | cta_group::2 << 16 | f16 D << 17"))
		return;
	if (kind > 3) {
		vf_error(v, op->loc, "tcgen05.mma[%" PRId64 "]: kind %" PRId64 ", expected 0 (bf16), 1 (f16), 2 (e4m3) "
			 "or 3 (e5m2)", op->imm, kind);
		return;
	}
	if (!is_cg2(op) && !((m == 64 || m == 128) && n >= 8 && n <= 256 && n % 8 == 0))
		vf_rule(v, op->loc, "tcgen05.mma m%" PRId64 "n%" PRId64 " with cta_group::1: M is 64 or 128 and N a "
			"multiple of 8 in 8..256", m, n);
	else if (is_cg2(op) && !((m == 128 || m == 256) && n >= 16 && n <= 256 && n % 16 == 0))
		vf_rule(v, op->loc, "tcgen05.mma m%" PRId64 "n%" PRId64 " with cta_group::2: M (of the CTA pair) is 128 "
			"or 256 and N a multiple of 16 in 16..256", m, n);
}

static void
check_commit(Verifier *v, const IrOp *op)
{
	vf_want_nres(v, op, 0);
	if (op->nargs != 1 && op->nargs != 2) {
		vf_error(v, op->loc, "tcgen05.commit has %d operands, expected 1 (the mbarrier) or 2 (and the i16 "
			 "multicast mask)", op->nargs);
		return;
	}
	want_arg(v, op, 0, ir_type_eq(vt(v, op->args[0]), ir_ptr(IR_SHARED, IR_I64)), "the mbarrier",
		 "ptr.shared.i64");
	want_imm(v, op, TMEM_CG2, "0 or cta_group::2 << 16");
	if (op->nargs == 2) {
		IrType m = vt(v, op->args[1]);

		if (ir_type_eq(m, ir_scalar(IR_I16)) || ir_type_eq(m, ir_scalar(IR_U16)))
			vf_cluster_arg(v, op, 1, 1);
		else
			want_arg(v, op, 1, 0, "the multicast mask", "i16");
	}
}

static void
check_ld_st(Verifier *v, const IrOp *op)
{
	int64_t n = op->imm & 0xffff;
	IrType t;

	want_arg(v, op, 0, is_i32(vt(v, op->args[0])), "the TMEM address", "i32");
	/* bit 16 may be set (the kernel's cta_group): ld and st have none of their own */
	if (!want_imm(v, op, TMEM_CG2 | 0xffff, "the number of columns (1, 2, 4 .. 128)"))
		return;
	if (!valid_num(n)) {
		vf_error(v, op->loc, "%s[%" PRId64 "]: .32x32b takes 1, 2, 4, 8, 16, 32, 64 or 128 columns",
			 vf_opname(op), n);
		return;
	}
	if (op->opc == IR_TCGEN05_ST) {
		vf_want_nres(v, op, 0);
		t = vt(v, op->args[1]);
	} else {
		if (!vf_want_nres(v, op, 1))
			return;
		t = vt(v, op->res[0]);
	}
	if (!ld_type_ok(t, n))
		vf_error(v, op->loc, "%s[%" PRId64 "] %s %s, expected %s%s%s (one 32-bit word per column)", vf_opname(op),
			 n, op->opc == IR_TCGEN05_ST ? "stores" : "gives", vf_tname(t),
			 vf_tname(ir_vector(IR_F32, (int)n)), n <= 4 ? " or " : "",
			 n <= 4 ? vf_tname(ir_vector(IR_I32, (int)n)) : "");
}

/* tcgen05.wait.ld passes tcgen05.ld results through (as wgmma.wait passes accumulators):
 * the backend ties them through the wait so that nothing reads them before it. */
static void
check_wait_ld(Verifier *v, const IrOp *op)
{
	int i;

	if (op->nres != op->nargs) {
		vf_error(v, op->loc, "tcgen05.wait.ld has %d operand%s and %d result%s, expected one result per "
			 "tcgen05.ld result", op->nargs, op->nargs == 1 ? "" : "s", op->nres, op->nres == 1 ? "" : "s");
		return;
	}
	for (i = 0; i < op->nargs; i++) {
		IrValue x = op->args[i];
		const IrOp *d = x > 0 && x < v->k->nvalues ? v->def[x] : NULL;

		if (!d || d->opc != IR_TCGEN05_LD)
			vf_error(v, op->loc, "operand %d of tcgen05.wait.ld (%%%d) is not a tcgen05.ld result", i + 1, x);
		else if (!ir_type_eq(vt(v, op->res[i]), vt(v, x)))
			vf_error(v, op->loc, "result %d of tcgen05.wait.ld has type %s, expected %s (its operand's)", i + 1,
				 vf_tname(vt(v, op->res[i])), vf_tname(vt(v, x)));
	}
}

void
vf_tmem_op(Verifier *v, const IrOp *op)
{
	switch (op->opc) {
	case IR_TMEM_ALLOC: case IR_TMEM_DEALLOC:
		check_alloc(v, op);
		break;
	case IR_TMEM_RELINQUISH:
		vf_want_nres(v, op, 0);
		want_imm(v, op, TMEM_CG2, "0 or cta_group::2 << 16");
		break;
	case IR_TCGEN05_DESC:
		want_arg(v, op, 0, vf_is_ptr(vt(v, op->args[0])) && vt(v, op->args[0]).space == IR_SHARED,
			 "the operand's address", "a shared pointer");
		if (op->imm != 32 && op->imm != 64 && op->imm != 128)
			vf_error(v, op->loc, "tcgen05.desc[%" PRId64 "]: the swizzle is 32, 64 or 128 (K-major operands "
				 "without swizzle are not supported)", op->imm);
		if (vf_want_nres(v, op, 1) && !is_i64(vt(v, op->res[0])))
			vf_error(v, op->loc, "tcgen05.desc gives %s, expected i64", vf_tname(vt(v, op->res[0])));
		break;
	case IR_TCGEN05_MMA:
		check_mma(v, op);
		break;
	case IR_TCGEN05_COMMIT:
		check_commit(v, op);
		break;
	case IR_TCGEN05_LD: case IR_TCGEN05_ST:
		check_ld_st(v, op);
		break;
	case IR_TCGEN05_WAIT_LD:
		check_wait_ld(v, op);
		break;
	case IR_TCGEN05_WAIT_ST: case IR_TCGEN05_FENCE_BEFORE: case IR_TCGEN05_FENCE_AFTER:
		vf_want_nres(v, op, 0);
		break;
	default:
		break;
	}
}

void
vf_tmem_kernel(Verifier *v)
{
	(void)v;
}
