/* backend_ptx/llvm_ops.c: the LLVM IR for each IR op that has no regions (arithmetic,
 * casts, memory, atomics, warp collectives); the async ops go on to llvm_async.c. Control
 * flow is in llvm_kernel.c. */
#include "llvm_gen.h"

#include <llvm-c/Target.h>

#include <stdio.h>
#include <string.h>

/* Every lane collective uses the full warp: the IR requires all 32 lanes to take part. */
#define FULL_MASK 0xffffffffu

static LLVMValueRef
val(LlvmGen *g, const IrOp *op, IrValue v)
{
	return lg_val(g, op, v);
}

static LLVMValueRef
i32c(LlvmGen *g, uint32_t v)
{
	return LLVMConstInt(LLVMInt32TypeInContext(g->ctx), v, 0);
}

static LLVMTypeRef
f32t(LlvmGen *g)
{
	return LLVMFloatTypeInContext(g->ctx);
}

/* A type with the lane count of t and scalar base b (f32 for the f16 detours). */
static IrType
with_base(IrType t, IrBase b)
{
	return t.lanes > 1 ? ir_vector(b, t.lanes) : ir_scalar(b);
}

static int
type_bits(IrType t)
{
	return ir_base_bits((IrBase)t.base) * t.lanes;
}

static LLVMValueRef
const_op(LlvmGen *g, const IrOp *op, IrType t)
{
	LLVMTypeRef st = lg_type(g, ir_scalar((IrBase)t.base));
	LLVMValueRef c, lanes[IR_FRAG_MAX];
	int i;

	if (ir_is_float(t)) {
		c = LLVMConstReal(st, op->fimm);
	} else if (ir_is_fp8(t)) {
		c = LLVMConstInt(st, ir_fp8_bits((IrBase)t.base, op->fimm), 0);
	} else if (t.base == IR_PTR) {
		st = lg_type(g, t);
		c = op->imm ? LLVMConstIntToPtr(LLVMConstInt(LLVMInt64TypeInContext(g->ctx),
							     (unsigned long long)op->imm, 0), st)
			    : LLVMConstNull(st);
	} else if (ir_is_int(t)) {
		int bits = ir_base_bits((IrBase)t.base);
		uint64_t v = (uint64_t)op->imm;

		/* Masked to the width so that u32 4294967295 and i32 -1 are the same bits. */
		if (bits < 64)
			v &= (UINT64_C(1) << bits) - 1;
		c = LLVMConstInt(st, v, 0);
	} else {
		lg_error(g, op, "const of type %s", ir_base_name((IrBase)t.base));
		return LLVMGetPoison(lg_type(g, t));
	}
	if (t.lanes == 1)
		return c;
	if (t.lanes > IR_FRAG_MAX) {
		lg_error(g, op, "const with %d lanes", t.lanes);
		return LLVMGetPoison(lg_type(g, t));
	}
	for (i = 0; i < t.lanes; i++)
		lanes[i] = c;
	return LLVMConstVector(lanes, t.lanes);
}

/* Integer resize without a value change in range: i32 results of the sreg intrinsics
 * into the IR's result type, and lane indices into i32. */
static LLVMValueRef
int_resize(LlvmGen *g, LLVMValueRef v, IrType to, int is_signed)
{
	LLVMTypeRef dt = lg_type(g, to);
	unsigned have = LLVMGetIntTypeWidth(LLVMTypeOf(v));
	unsigned want = LLVMGetIntTypeWidth(dt);

	if (have == want)
		return v;
	if (have > want)
		return LLVMBuildTrunc(g->b, v, dt, "");
	return is_signed ? LLVMBuildSExt(g->b, v, dt, "") : LLVMBuildZExt(g->b, v, dt, "");
}

static LLVMValueRef
sreg(LlvmGen *g, const char *reg)
{
	char name[64];

	snprintf(name, sizeof name, "llvm.nvvm.read.ptx.sreg.%s", reg);
	return lg_intrinsic(g, name, NULL, 0, NULL, 0, reg);
}

/* warpid: the linear thread index / 32. Not %warpid, which the hardware may change during
 * a thread's life. ntid is known (the kernel carries it as reqntid), so the dimensions
 * are constants and the y/z terms vanish for 1-D blocks. */
static LLVMValueRef
warpid(LlvmGen *g)
{
	return LLVMBuildLShr(g->b, lg_linear_tid(g), i32c(g, 5), "");
}

/* The linear thread index in the block (tid.x + ntid.x (tid.y + ntid.y tid.z)). */
LLVMValueRef
lg_linear_tid(LlvmGen *g)
{
	const int *n = g->k->threads;
	LLVMValueRef lin = sreg(g, "tid.x");

	if (n[1] > 1 || n[2] > 1) {
		LLVMValueRef yz = sreg(g, "tid.y");

		if (n[2] > 1)
			yz = LLVMBuildNUWAdd(g->b, yz, LLVMBuildNUWMul(g->b, i32c(g, (uint32_t)n[1]),
								       sreg(g, "tid.z"), ""), "");
		lin = LLVMBuildNUWAdd(g->b, lin, LLVMBuildNUWMul(g->b, i32c(g, (uint32_t)n[0]), yz, ""), "");
	}
	return lin;
}

/* ---- casts ---- */

/* fp8 conversions use the paired-lane cvt instructions: two lanes per instruction
 * (cvt.rn.satfinite.e4m3x2.f32 and .f16x2 to fp8, cvt.rn.f16x2.e4m3x2 back), so a 2-lane
 * conversion is one cvt and a 4-lane one two. A scalar fills the second lane with zero.
 * Lane 0 is the low byte (half) of the pair, as in memory. */

static LLVMValueRef
lane(LlvmGen *g, LLVMValueRef v, int i)
{
	return LLVMBuildExtractElement(g->b, v, i32c(g, (uint32_t)i), "");
}

/* Lanes i and i + 1 of v (a scalar: v and zero). */
static void
lane_pair(LlvmGen *g, LLVMValueRef v, int lanes, int i, LLVMValueRef out[2])
{
	out[0] = lanes > 1 ? lane(g, v, i) : v;
	out[1] = lanes > 1 ? lane(g, v, i + 1) : LLVMConstNull(LLVMTypeOf(v));
}

/* Lanes i and i + 1 of v as a 2-lane vector (v itself when it has 2 lanes). */
static LLVMValueRef
lane_vec2(LlvmGen *g, LLVMValueRef v, int lanes, int i)
{
	LLVMValueRef l[2], r;

	if (lanes == 2)
		return v;
	lane_pair(g, v, lanes, i, l);
	r = LLVMGetPoison(LLVMVectorType(LLVMTypeOf(l[0]), 2));
	r = LLVMBuildInsertElement(g->b, r, l[0], i32c(g, 0), "");
	return LLVMBuildInsertElement(g->b, r, l[1], i32c(g, 1), "");
}

/* Joins the 2-lane results of each pair (or takes lane 0 of a scalar's pair). */
static LLVMValueRef
join_pairs(LlvmGen *g, LLVMValueRef *pairs, int lanes, const char *nm)
{
	LLVMValueRef mask[4];
	int i;

	if (lanes == 1)
		return LLVMBuildExtractElement(g->b, pairs[0], i32c(g, 0), nm);
	if (lanes == 2)
		return pairs[0];
	for (i = 0; i < 4; i++)
		mask[i] = i32c(g, (uint32_t)i);
	return LLVMBuildShuffleVector(g->b, pairs[0], pairs[1], LLVMConstVector(mask, 4), nm);
}

/* f16, bf16 or f32 to e4m3/e5m2, round to nearest even, saturating (satfinite). */
static LLVMValueRef
to_fp8(LlvmGen *g, LLVMValueRef v, IrType from, IrType to, const char *nm)
{
	const char *fmt = to.base == IR_E4M3 ? "e4m3x2" : "e5m2x2";
	LLVMTypeRef i8x2 = LLVMVectorType(LLVMInt8TypeInContext(g->ctx), 2);
	LLVMValueRef pairs[2];
	char name[64];
	int i;

	if (from.base == IR_BF16)   /* exact: bf16 is a truncated f32 */
		v = LLVMBuildFPExt(g->b, v, lg_type(g, with_base(from, IR_F32)), "");
	for (i = 0; i < (to.lanes + 1) / 2; i++) {
		LLVMValueRef r;

		if (from.base == IR_F16) {
			LLVMValueRef p = lane_vec2(g, v, to.lanes, 2 * i);

			snprintf(name, sizeof name, "llvm.nvvm.f16x2.to.%s.rn", fmt);
			r = lg_intrinsic(g, name, NULL, 0, &p, 1, "");
		} else {
			LLVMValueRef l[2], ab[2];

			/* cvt's first operand goes to the upper byte: lane 1 first */
			lane_pair(g, v, to.lanes, 2 * i, l);
			ab[0] = l[1];
			ab[1] = l[0];
			snprintf(name, sizeof name, "llvm.nvvm.ff.to.%s.rn", fmt);
			r = lg_intrinsic(g, name, NULL, 0, ab, 2, "");
		}
		pairs[i] = LLVMBuildBitCast(g->b, r, i8x2, to.lanes == 2 ? nm : "");
	}
	return join_pairs(g, pairs, to.lanes, nm);
}

/* e4m3/e5m2 to f16 (exact), then on to f32 or bf16 (exact too). */
static LLVMValueRef
from_fp8(LlvmGen *g, LLVMValueRef v, IrType from, IrType to, const char *nm)
{
	const char *fmt = from.base == IR_E4M3 ? "e4m3x2" : "e5m2x2";
	LLVMTypeRef i16 = LLVMInt16TypeInContext(g->ctx);
	LLVMValueRef pairs[2], h;
	char name[64];
	int i;

	snprintf(name, sizeof name, "llvm.nvvm.%s.to.f16x2.rn", fmt);
	for (i = 0; i < (from.lanes + 1) / 2; i++) {
		LLVMValueRef p = LLVMBuildBitCast(g->b, lane_vec2(g, v, from.lanes, 2 * i), i16, "");

		pairs[i] = lg_intrinsic(g, name, NULL, 0, &p, 1,
					to.base == IR_F16 && from.lanes == 2 ? nm : "");
	}
	if (to.base == IR_F16)
		return join_pairs(g, pairs, from.lanes, nm);
	h = join_pairs(g, pairs, from.lanes, "");
	if (to.base == IR_F32)
		return LLVMBuildFPExt(g->b, h, lg_type(g, to), nm);
	h = LLVMBuildFPExt(g->b, h, lg_type(g, with_base(to, IR_F32)), "");
	return LLVMBuildFPTrunc(g->b, h, lg_type(g, to), nm);
}

static LLVMValueRef
convert(LlvmGen *g, const IrOp *op, LLVMValueRef v, IrType from, IrType to, const char *nm)
{
	LLVMTypeRef dt = lg_type(g, to);
	int fb = ir_base_bits((IrBase)from.base), tb = ir_base_bits((IrBase)to.base);

	if (from.lanes != to.lanes) {
		lg_error(g, op, "cast between %d and %d lanes", from.lanes, to.lanes);
		return LLVMGetPoison(dt);
	}
	if (ir_is_fp8(to) && (ir_is_float(from) && from.base != IR_F64) && to.lanes <= 4)
		return to_fp8(g, v, from, to, nm);
	if (ir_is_fp8(from) && (ir_is_float(to) && to.base != IR_F64) && from.lanes <= 4)
		return from_fp8(g, v, from, to, nm);
	if (ir_is_fp8(from) || ir_is_fp8(to)) {
		lg_error(g, op, "cannot cast from %s to %s", ir_base_name((IrBase)from.base),
			 ir_base_name((IrBase)to.base));
		return LLVMGetPoison(dt);
	}
	if (LLVMTypeOf(v) == dt)
		return v;
	if (from.base == IR_PTR && to.base == IR_PTR)
		return LLVMBuildAddrSpaceCast(g->b, v, dt, nm);
	if (from.base == IR_PTR && ir_is_int(to))
		return LLVMBuildPtrToInt(g->b, v, dt, nm);
	if (ir_is_int(from) && to.base == IR_PTR)
		return LLVMBuildIntToPtr(g->b, v, dt, nm);
	if (ir_is_int(from) && ir_is_int(to)) {
		/* A value conversion to i1 is a truth test, as in C, not the low bit. */
		if (to.base == IR_I1)
			return LLVMBuildICmp(g->b, LLVMIntNE, v, LLVMConstNull(LLVMTypeOf(v)), nm);
		if (fb > tb)
			return LLVMBuildTrunc(g->b, v, dt, nm);
		return ir_is_signed(from) ? LLVMBuildSExt(g->b, v, dt, nm) : LLVMBuildZExt(g->b, v, dt, nm);
	}
	if (ir_is_int(from) && ir_is_float(to))
		return ir_is_signed(from) ? LLVMBuildSIToFP(g->b, v, dt, nm) : LLVMBuildUIToFP(g->b, v, dt, nm);
	if (ir_is_float(from) && ir_is_int(to)) {
		LLVMTypeRef tys[2];

		if (to.base == IR_I1)
			return LLVMBuildFCmp(g->b, LLVMRealUNE, v, LLVMConstNull(LLVMTypeOf(v)), nm);
		/* Saturating, NaN -> 0: the IR's float->int is defined for every input. */
		tys[0] = dt;
		tys[1] = LLVMTypeOf(v);
		return lg_intrinsic(g, ir_is_signed(to) ? "llvm.fptosi.sat" : "llvm.fptoui.sat",
				    tys, 2, &v, 1, nm);
	}
	if (ir_is_float(from) && ir_is_float(to)) {
		/* f16 <-> bf16 have the same width: widen exactly to f32, then round once. */
		if (fb == tb) {
			v = LLVMBuildFPExt(g->b, v, lg_type(g, with_base(from, IR_F32)), "");
			return LLVMBuildFPTrunc(g->b, v, dt, nm);
		}
		return fb < tb ? LLVMBuildFPExt(g->b, v, dt, nm) : LLVMBuildFPTrunc(g->b, v, dt, nm);
	}
	lg_error(g, op, "cannot cast from %s to %s", ir_base_name((IrBase)from.base),
		 ir_base_name((IrBase)to.base));
	return LLVMGetPoison(dt);
}

static LLVMValueRef
bitcast(LlvmGen *g, const IrOp *op, LLVMValueRef v, IrType from, IrType to, const char *nm)
{
	LLVMTypeRef dt = lg_type(g, to);

	if (type_bits(from) != type_bits(to)) {
		lg_error(g, op, "bitcast between %d and %d bits", type_bits(from), type_bits(to));
		return LLVMGetPoison(dt);
	}
	if (LLVMTypeOf(v) == dt)
		return v;
	if (from.base == IR_PTR && to.base == IR_PTR)
		return LLVMBuildAddrSpaceCast(g->b, v, dt, nm);
	if (from.base == IR_PTR) {
		v = LLVMBuildPtrToInt(g->b, v, LLVMInt64TypeInContext(g->ctx), "");
		return LLVMBuildBitCast(g->b, v, dt, nm);
	}
	if (to.base == IR_PTR) {
		v = LLVMBuildBitCast(g->b, v, LLVMInt64TypeInContext(g->ctx), "");
		return LLVMBuildIntToPtr(g->b, v, dt, nm);
	}
	return LLVMBuildBitCast(g->b, v, dt, nm);
}

/* ---- arithmetic ---- */

static LLVMValueRef
call1(LlvmGen *g, const char *name, LLVMValueRef a, const char *nm)
{
	LLVMTypeRef t = LLVMTypeOf(a);

	return lg_intrinsic(g, name, &t, 1, &a, 1, nm);
}

static LLVMValueRef
call2(LlvmGen *g, const char *name, LLVMValueRef a, LLVMValueRef c, const char *nm)
{
	LLVMTypeRef t = LLVMTypeOf(a);
	LLVMValueRef args[2] = {a, c};

	return lg_intrinsic(g, name, &t, 1, args, 2, nm);
}

/* exp2, log2 and rsqrt on one scalar: PTX's approximate instructions. f16 and bf16 use a
 * native form where PTX has one (ex2.approx.f16, ex2.approx.ftz.bf16) and otherwise go
 * through f32 and round back; f64 has rsqrt.approx.f64 but no ex2/lg2, so those go through
 * f32 too (the ops are documented as approximate). exp2 is the .ftz form: without it ptxas
 * wraps every MUFU.EX2 in three instructions that scale subnormal results, which a softmax
 * pays for on every element; results below 2^-126 are 0 instead (docs/language.md). */
static LLVMValueRef
approx_scalar(LlvmGen *g, int opc, LLVMValueRef v, IrBase base)
{
	LLVMTypeRef t = LLVMTypeOf(v), f32 = f32t(g);
	LLVMValueRef r;

	if (opc == IR_EXP2 && base == IR_F16)
		return call1(g, "llvm.nvvm.ex2.approx", v, "");
	if (opc == IR_EXP2 && base == IR_BF16)
		return call1(g, "llvm.nvvm.ex2.approx.ftz", v, "");
	if (opc == IR_RSQRT && base == IR_F64)
		return lg_intrinsic(g, "llvm.nvvm.rsqrt.approx.d", NULL, 0, &v, 1, "");
	if (base != IR_F32)
		v = base == IR_F64 ? LLVMBuildFPTrunc(g->b, v, f32, "") : LLVMBuildFPExt(g->b, v, f32, "");
	switch (opc) {
	case IR_EXP2:
		r = call1(g, "llvm.nvvm.ex2.approx.ftz", v, "");
		break;
	case IR_LOG2:
		r = lg_intrinsic(g, "llvm.nvvm.lg2.approx.f", NULL, 0, &v, 1, "");
		break;
	default:
		r = lg_intrinsic(g, "llvm.nvvm.rsqrt.approx.f", NULL, 0, &v, 1, "");
		break;
	}
	if (base == IR_F32)
		return r;
	return base == IR_F64 ? LLVMBuildFPExt(g->b, r, t, "") : LLVMBuildFPTrunc(g->b, r, t, "");
}

static LLVMValueRef
approx(LlvmGen *g, const IrOp *op, LLVMValueRef v, IrType t, const char *nm)
{
	LLVMValueRef r;
	int i;

	if (!ir_is_float(t)) {
		lg_error(g, op, "%s of a non-float type", ir_opinfo[op->opc].name);
		return LLVMGetPoison(LLVMTypeOf(v));
	}
	if (t.lanes == 1)
		return approx_scalar(g, op->opc, v, (IrBase)t.base);
	r = LLVMGetPoison(LLVMTypeOf(v));
	for (i = 0; i < t.lanes; i++) {
		LLVMValueRef e = LLVMBuildExtractElement(g->b, v, i32c(g, (uint32_t)i), "");

		r = LLVMBuildInsertElement(g->b, r, approx_scalar(g, op->opc, e, (IrBase)t.base),
					   i32c(g, (uint32_t)i), i == t.lanes - 1 ? nm : "");
	}
	return r;
}

/* ---- Element addresses ----
 * An element's index is a sum of terms: the linear index's own additions (add[1]) and the
 * user's + and - in each index, which an index computes exactly (docs/language.md); a
 * term of an index other than the last is a term of the linear index times the
 * dimensions after it (mul[1]), when those are constants. Terms that are constants, or
 * become constants when LLVM fully unrolls the loops with constant bounds (`x[i + k - R]`,
 * `x[r, v0 + 4 * q]`, `x[b, k0 + 3, v]` of constant rows), go into a last address offset:
 * the accesses of one row share one 64-bit base and differ in the immediate offset of the
 * address, as NVVM's code for the same C. Summed into the index instead, each access
 * would have its own 64-bit address, which ptxas does not merge and LLVM's strength
 * reductions (SLSR, LSR) work hard to (a third of cp_fixup's compile). Not inbounds: the
 * IR lets a pointer step outside its tensor and back. */
enum { INDEX_TERMS = 8, INDEX_SCALES = 4 };

typedef struct IndexTerm {
	IrValue v;
	int neg;        /* subtracted */
	int fixed;      /* a constant, or one once constant-bound loops are unrolled */
	int nscale;     /* the term is v times scale[0 .. nscale): constant dimensions */
	IrValue scale[INDEX_SCALES];
} IndexTerm;

/* Whether v is a constant or becomes one when LLVM fully unrolls the loops with constant
 * bounds: their variables and integer arithmetic on them (g->fixed_iv). */
static int
unrolls_to_const(const LlvmGen *g, IrValue v, int depth)
{
	const IrOp *d = g->def[v];

	if (g->fixed_iv[v])
		return 1;
	if (!d || depth > 4 || !ir_is_int(ir_vtype(g->k, v)))
		return 0;
	if (d->opc == IR_CONST)
		return 1;
	if (d->opc != IR_ADD && d->opc != IR_SUB && d->opc != IR_MUL && d->opc != IR_SHL)
		return 0;
	return unrolls_to_const(g, d->args[0], depth + 1) && unrolls_to_const(g, d->args[1], depth + 1);
}

/* Whether index_terms splits d's sum: the linear index's own (add[1]) or, when index, the
 * user's + and - in an index. */
static int
splits(const IrOp *d, int index)
{
	return d && ((d->opc == IR_ADD && d->imm) || (index && (d->opc == IR_ADD || d->opc == IR_SUB) && !d->imm));
}

/* Whether the sum v (as splits says) holds a term that unrolls to a constant. */
static int
has_fixed_term(const LlvmGen *g, IrValue v, int index, int depth)
{
	const IrOp *d = g->def[v];

	if (!d || depth > 6)
		return 0;
	if (splits(d, index))
		return unrolls_to_const(g, d->args[0], 0) || unrolls_to_const(g, d->args[1], 0) ||
		       has_fixed_term(g, d->args[0], index, depth + 1) ||
		       has_fixed_term(g, d->args[1], index, depth + 1);
	return 0;
}

/* The scaled sum x * dim inside a linear index (mul[1] by a dimension that is a constant),
 * when x holds a constant term to take out: x, else 0; *dim the dimension. */
static IrValue
scaled_sum(const LlvmGen *g, const IrOp *d, IrValue *dim)
{
	int i;

	if (!d || d->opc != IR_MUL || !d->imm)
		return 0;
	for (i = 0; i < 2; i++)
		if (unrolls_to_const(g, d->args[1 - i], 0) && has_fixed_term(g, d->args[i], 1, 0)) {
			*dim = d->args[1 - i];
			return d->args[i];
		}
	return 0;
}

/* Appends the terms of v (subtracted when neg) to t[0..n), each times the sc[0..nsc);
 * index: v is (part of) one index, whose + and - are split too. Returns the new count. */
static int
index_terms(const LlvmGen *g, IrValue v, int neg, int index, const IrValue *sc, int nsc, IndexTerm *t, int n)
{
	const IrOp *d = g->def[v];
	int lin = splits(d, 0), user = !lin && splits(d, index);
	IrValue x, dim, sc2[INDEX_SCALES];

	if (splits(d, index) && n + 2 <= INDEX_TERMS
	    && ir_vtype(g->k, d->args[0]).base == ir_vtype(g->k, v).base
	    && ir_vtype(g->k, d->args[1]).base == ir_vtype(g->k, v).base) {
		n = index_terms(g, d->args[0], neg, user, sc, nsc, t, n);
		return index_terms(g, d->args[1], d->opc == IR_SUB ? !neg : neg, index || lin, sc, nsc, t, n);
	}
	if (nsc < INDEX_SCALES && (x = scaled_sum(g, d, &dim)) != 0) {
		if (nsc)
			memcpy(sc2, sc, (size_t)nsc * sizeof *sc);
		sc2[nsc] = dim;
		return index_terms(g, x, neg, 1, sc2, nsc + 1, t, n);
	}
	t[n].v = v;
	t[n].neg = neg;
	t[n].fixed = unrolls_to_const(g, v, 0);
	t[n].nscale = nsc;
	if (nsc)
		memcpy(t[n].scale, sc, (size_t)nsc * sizeof *sc);
	return n + 1;
}

/* v sign-extended to 64 bits. (Widening the linear index's products as well, i64 n * N
 * for a row n, made LSR step each access's address by a 64-bit add pair: col_sum 2.5x
 * slower on the H200.) */
static LLVMValueRef
wide(LlvmGen *g, const IrOp *op, IrValue v)
{
	return LLVMBuildSExtOrBitCast(g->b, val(g, op, v), LLVMInt64TypeInContext(g->ctx), "");
}

/* Term t's value (without its sign), in the index's type or in 64 bits when widen. */
static LLVMValueRef
term_val(LlvmGen *g, const IrOp *op, const IndexTerm *t, int widen)
{
	LLVMValueRef x = widen ? wide(g, op, t->v) : val(g, op, t->v);
	int j;

	for (j = 0; j < t->nscale; j++)
		x = widen ? LLVMBuildNSWMul(g->b, x, wide(g, op, t->scale[j]), "")
			  : LLVMBuildMul(g->b, x, val(g, op, t->scale[j]), "");
	return x;
}

/* The sum of the terms whose fixed is `fixed`, in the index's type, or in 64 bits when
 * widen; NULL when there are none. */
static LLVMValueRef
sum_terms(LlvmGen *g, const IrOp *op, const IndexTerm *t, int n, int fixed, int widen)
{
	LLVMValueRef s = NULL;
	int i;

	for (i = 0; i < n; i++) {
		LLVMValueRef x;

		if (t[i].fixed != fixed)
			continue;
		x = term_val(g, op, &t[i], widen);
		if (!s)
			s = t[i].neg ? LLVMBuildNeg(g->b, x, "") : x;
		else if (t[i].neg)
			s = widen ? LLVMBuildNSWSub(g->b, s, x, "") : LLVMBuildSub(g->b, s, x, "");
		else
			s = widen ? LLVMBuildNSWAdd(g->b, s, x, "") : LLVMBuildAdd(g->b, s, x, "");
	}
	return s;
}

/* elemptr p, i: p advanced by the terms that vary, then by the fixed ones (above). In a
 * loop unrolled at run time (plain_unroll) each varying term is its own 64-bit step: the
 * loop-invariant ones are hoisted as one base, and LSR steps the unrolled loads from it
 * by the stride of the one that moves with the loop (col_sum: 1.22 -> 1.11x NVRTC's time
 * on the H200). Elsewhere (straight-line code, a grid-stride loop) 64-bit index arithmetic
 * per access would cost registers (gdp_decode_tma: 127 -> 156), so the varying terms are
 * summed in the index's type there. */
static LLVMValueRef
elemptr(LlvmGen *g, const IrOp *op, const char *nm)
{
	IrType pt = ir_vtype(g->k, op->args[0]);
	LLVMTypeRef et = lg_type(g, ir_scalar((IrBase)pt.elem));
	LLVMValueRef p = val(g, op, op->args[0]), vary, fixed;
	IndexTerm t[INDEX_TERMS];
	int n, i, nfixed = 0;

	if (pt.space != IR_GLOBAL)
		return LLVMBuildGEP2(g->b, et, p, (LLVMValueRef[]){val(g, op, op->args[1])}, 1, nm);
	n = index_terms(g, op->args[1], 0, 1, NULL, 0, t, 0);
	for (i = 0; i < n; i++)
		nfixed += t[i].fixed;
	if (nfixed == n || (nfixed == 0 && !g->in_plain_loop))
		return LLVMBuildGEP2(g->b, et, p, (LLVMValueRef[]){val(g, op, op->args[1])}, 1, nm);
	if (g->in_plain_loop) {
		for (i = 0; i < n; i++) {
			if (t[i].fixed)
				continue;
			vary = term_val(g, op, &t[i], 1);
			if (t[i].neg)
				vary = LLVMBuildNSWNeg(g->b, vary, "");
			p = LLVMBuildGEP2(g->b, et, p, &vary, 1, "");
		}
	} else {
		vary = sum_terms(g, op, t, n, 0, 0);
		p = LLVMBuildGEP2(g->b, et, p, &vary, 1, "");
	}
	if (!nfixed)
		return p;
	fixed = sum_terms(g, op, t, n, 1, 1);
	return LLVMBuildGEP2(g->b, et, p, &fixed, 1, nm);
}

static LLVMValueRef
arith(LlvmGen *g, const IrOp *op, IrType t, const char *nm)
{
	LLVMValueRef a = val(g, op, op->args[0]);
	LLVMValueRef c = op->nargs > 1 ? val(g, op, op->args[1]) : NULL;
	int fl = ir_is_float(t), sg = ir_is_signed(t);

	if (!fl && !ir_is_int(t)) {
		lg_error(g, op, "'%s' on type %s", ir_opinfo[op->opc].name, ir_base_name((IrBase)t.base));
		return LLVMGetPoison(lg_type(g, t));
	}
	switch (op->opc) {
	/* add[1]/mul[1] (OPF_NSW): tensor index arithmetic, which cannot overflow. nsw lets
	 * LLVM split the sign extension of an address into 64-bit pieces: in a loop that is
	 * unrolled at run time (plain_unroll) they become a base and a pointer increment (no
	 * index arithmetic per load, as NVRTC's code); elsewhere (straight-line code, a
	 * grid-stride loop) each access would instead pay 64-bit multiplies and adds
	 * (gdp_decode_tma: 127 -> 156 registers), so nsw only there (g->in_plain_loop). */
	case IR_ADD:
		if (fl)
			return LLVMBuildFAdd(g->b, a, c, nm);
		return op->imm && g->in_plain_loop ? LLVMBuildNSWAdd(g->b, a, c, nm)
						     : LLVMBuildAdd(g->b, a, c, nm);
	case IR_SUB: return fl ? LLVMBuildFSub(g->b, a, c, nm) : LLVMBuildSub(g->b, a, c, nm);
	case IR_MUL:
		if (fl)
			return LLVMBuildFMul(g->b, a, c, nm);
		return op->imm && g->in_plain_loop ? LLVMBuildNSWMul(g->b, a, c, nm)
						     : LLVMBuildMul(g->b, a, c, nm);
	case IR_DIV:
		if (fl)
			return LLVMBuildFDiv(g->b, a, c, nm);
		return sg ? LLVMBuildSDiv(g->b, a, c, nm) : LLVMBuildUDiv(g->b, a, c, nm);
	case IR_REM:
		if (fl)
			return LLVMBuildFRem(g->b, a, c, nm);
		return sg ? LLVMBuildSRem(g->b, a, c, nm) : LLVMBuildURem(g->b, a, c, nm);
	case IR_MIN:
		if (fl)  /* minnum: a NaN operand yields the other one, as PTX min.f32 */
			return call2(g, "llvm.minnum", a, c, nm);
		return call2(g, sg ? "llvm.smin" : "llvm.umin", a, c, nm);
	case IR_MAX:
		if (fl)
			return call2(g, "llvm.maxnum", a, c, nm);
		return call2(g, sg ? "llvm.smax" : "llvm.umax", a, c, nm);
	case IR_NEG: return fl ? LLVMBuildFNeg(g->b, a, nm) : LLVMBuildNeg(g->b, a, nm);
	case IR_ABS:
		if (fl)
			return call1(g, "llvm.fabs", a, nm);
		if (!sg)
			return a;
		{
			LLVMTypeRef ty = LLVMTypeOf(a);
			/* false: abs(INT_MIN) is INT_MIN, not poison */
			LLVMValueRef args[2] = {a, LLVMConstInt(LLVMInt1TypeInContext(g->ctx), 0, 0)};

			return lg_intrinsic(g, "llvm.abs", &ty, 1, args, 2, nm);
		}
	case IR_SQRT:
		if (!fl)
			break;
		/* f16/bf16: sqrt in f32 then one rounding is correctly rounded (f32 has more
		 * than twice their precision plus two bits). */
		if (t.base == IR_F16 || t.base == IR_BF16) {
			LLVMValueRef w = LLVMBuildFPExt(g->b, a, lg_type(g, with_base(t, IR_F32)), "");

			return LLVMBuildFPTrunc(g->b, call1(g, "llvm.sqrt", w, ""), lg_type(g, t), nm);
		}
		return call1(g, "llvm.sqrt", a, nm);
	case IR_FMA:
		if (!fl)
			break;
		{
			LLVMTypeRef ty = LLVMTypeOf(a);
			LLVMValueRef args[3] = {a, c, val(g, op, op->args[2])};

			return lg_intrinsic(g, "llvm.fma", &ty, 1, args, 3, nm);
		}
	case IR_EXP2: case IR_LOG2: case IR_RSQRT:
		return approx(g, op, a, t, nm);
	default:
		if (fl)
			break;
		switch (op->opc) {
		case IR_AND: return LLVMBuildAnd(g->b, a, c, nm);
		case IR_OR: return LLVMBuildOr(g->b, a, c, nm);
		case IR_XOR: return LLVMBuildXor(g->b, a, c, nm);
		case IR_SHL: return LLVMBuildShl(g->b, a, c, nm);
		case IR_SHR: return sg ? LLVMBuildAShr(g->b, a, c, nm) : LLVMBuildLShr(g->b, a, c, nm);
		case IR_NOT: return LLVMBuildNot(g->b, a, nm);
		}
		break;
	}
	lg_error(g, op, "'%s' on type %s", ir_opinfo[op->opc].name, ir_base_name((IrBase)t.base));
	return LLVMGetPoison(lg_type(g, t));
}

static LLVMValueRef
compare(LlvmGen *g, const IrOp *op, const char *nm)
{
	static const LLVMIntPredicate spred[] = {LLVMIntEQ, LLVMIntNE, LLVMIntSLT, LLVMIntSLE, LLVMIntSGT, LLVMIntSGE};
	static const LLVMIntPredicate upred[] = {LLVMIntEQ, LLVMIntNE, LLVMIntULT, LLVMIntULE, LLVMIntUGT, LLVMIntUGE};
	/* ordered except != (true when either is NaN), as the opcode table says */
	static const LLVMRealPredicate fpred[] = {LLVMRealOEQ, LLVMRealUNE, LLVMRealOLT, LLVMRealOLE, LLVMRealOGT, LLVMRealOGE};
	IrType t = ir_vtype(g->k, op->args[0]);
	LLVMValueRef a = val(g, op, op->args[0]), c = val(g, op, op->args[1]);
	int i = op->opc - IR_CMP_EQ;

	if (ir_is_float(t))
		return LLVMBuildFCmp(g->b, fpred[i], a, c, nm);
	return LLVMBuildICmp(g->b, ir_is_signed(t) ? spred[i] : upred[i], a, c, nm);
}

/* ---- memory ---- */

static LLVMValueRef
smem_ptr(LlvmGen *g, const IrOp *op, const char *nm)
{
	const IrKernel *k = g->k;
	LLVMValueRef off;

	if (op->imm < 0 || op->imm >= k->nbufs) {
		lg_error(g, op, "smem[%lld] but the kernel has %d shared buffers", (long long)op->imm, k->nbufs);
		return LLVMGetPoison(lg_type(g, ir_ptr(IR_SHARED, IR_I8)));
	}
	if (k->bufs[op->imm].offset < 0) {
		lg_error(g, op, "shared buffer '%s' has no offset (smem-layout has not run)",
			 k->bufs[op->imm].name);
		return LLVMGetPoison(lg_type(g, ir_ptr(IR_SHARED, IR_I8)));
	}
	if (k->bufs[op->imm].offset == 0)
		return lg_smem_base(g);
	off = LLVMConstInt(LLVMInt64TypeInContext(g->ctx), (unsigned long long)k->bufs[op->imm].offset, 0);
	return LLVMBuildInBoundsGEP2(g->b, LLVMInt8TypeInContext(g->ctx), lg_smem_base(g), &off, 1, nm);
}

/* Natural alignment: a vector access is aligned to its whole size so NVPTX emits one
 * ld.v2/ld.v4 (8 or 16 bytes) instead of splitting it. */
static unsigned
natural_align(IrType t)
{
	return (unsigned)ir_type_bytes(t);
}

/* store.if: a predicated PTX store (@p st), so that a masked store is straight-line code
 * with no branch around it. The value goes in as untyped bits: 8, 16, 32 or 64 of them in
 * one register, 128 as four 32-bit words (st.v4.b32); the alignment is the plain store's.
 * Operands: $0 the condition, $1 the address, $2.. the value. */
static void
store_if(LlvmGen *g, const IrOp *op)
{
	IrType pt = ir_vtype(g->k, op->args[0]), vt = ir_vtype(g->k, op->args[1]);
	LLVMTargetDataRef td = LLVMGetModuleDataLayout(g->mod);
	LLVMValueRef v = val(g, op, op->args[1]), ins[6], fn;
	LLVMTypeRef tys[6], fty;
	const char *space = pt.space == IR_GLOBAL ? "global" : pt.space == IR_SHARED ? "shared"
			  : "shared::cluster";
	const IrOp *ep = g->def[op->args[0]], *c;
	int bits = vt.base == IR_I1 ? 8 : type_bits(vt), nin, i;
	char addr[48], text[128], cons[48];

	if (bits != 8 && bits != 16 && bits != 32 && bits != 64 && bits != 128) {
		lg_error(g, op, "store.if of a %d-bit value", bits);
		return;
	}
	snprintf(addr, sizeof addr, "[$1]");
	ins[0] = val(g, op, op->args[2]);
	ins[1] = val(g, op, op->args[0]);
	/* elemptr p, constant: the constant becomes the address's immediate offset ([p+off]),
	 * as LLVM folds it into a plain store's; no address arithmetic per store */
	c = ep && ep->opc == IR_ELEMPTR ? g->def[ep->args[1]] : NULL;
	if (c && c->opc == IR_CONST && ir_is_int(ir_vtype(g->k, ep->args[1])) &&
	    c->imm > -(1 << 20) && c->imm < (1 << 20)) {
		ins[1] = val(g, op, ep->args[0]);
		snprintf(addr, sizeof addr, "[$1+%lld]",
			 (long long)c->imm * ir_type_bytes(ir_scalar((IrBase)pt.elem)));
	}
	if (vt.base == IR_I1)
		v = LLVMBuildZExt(g->b, v, LLVMInt8TypeInContext(g->ctx), "");
	if (bits == 128) {
		LLVMValueRef w = LLVMBuildBitCast(g->b, v, LLVMVectorType(LLVMInt32TypeInContext(g->ctx), 4), "");

		for (i = 0; i < 4; i++)
			ins[2 + i] = LLVMBuildExtractElement(g->b, w, i32c(g, (uint32_t)i), "");
		nin = 6;
		snprintf(text, sizeof text, "@$0 st.%s.v4.b32 %s, {$2, $3, $4, $5};", space, addr);
	} else {
		v = LLVMBuildBitCast(g->b, v, LLVMIntTypeInContext(g->ctx, (unsigned)bits), "");
		if (bits == 8)
			v = LLVMBuildZExt(g->b, v, LLVMInt16TypeInContext(g->ctx), "");
		ins[2] = v;
		nin = 3;
		snprintf(text, sizeof text, "@$0 st.%s.b%d %s, $2;", space, bits, addr);
	}
	snprintf(cons, sizeof cons, "b,%s,%s,~{memory}", LLVMPointerSizeForAS(td, pt.space) == 8 ? "l" : "r",
		 bits == 128 ? "r,r,r,r" : bits <= 16 ? "h" : bits == 32 ? "r" : "l");
	for (i = 0; i < nin; i++)
		tys[i] = LLVMTypeOf(ins[i]);
	fty = LLVMFunctionType(LLVMVoidTypeInContext(g->ctx), tys, (unsigned)nin, 0);
	fn = LLVMGetInlineAsm(fty, text, strlen(text), cons, strlen(cons), 1, 0, LLVMInlineAsmDialectATT, 0);
	LLVMBuildCall2(g->b, fty, fn, ins, (unsigned)nin, "");
}

static LLVMValueRef
load(LlvmGen *g, const IrOp *op, IrType t, const char *nm)
{
	IrType pt = ir_vtype(g->k, op->args[0]);
	LLVMValueRef ld = LLVMBuildLoad2(g->b, lg_type(g, t), val(g, op, op->args[0]), nm);

	LLVMSetAlignment(ld, natural_align(t));
	/* The read-only path: !invariant.load is what NVPTX turns into ld.global.nc (LLVM
	 * dropped the ldg intrinsics). Only for global memory: shared memory has no nc path. */
	if (op->imm == 1 && pt.space == IR_GLOBAL) {
		unsigned kind = LLVMGetMDKindIDInContext(g->ctx, "invariant.load", 14);

		LLVMSetMetadata(ld, kind, LLVMMetadataAsValue(g->ctx, LLVMMDNodeInContext2(g->ctx, NULL, 0)));
	}
	return ld;
}

static LLVMValueRef
atomic(LlvmGen *g, const IrOp *op, IrType t, const char *nm)
{
	LLVMValueRef p = val(g, op, op->args[0]), v = val(g, op, op->args[1]), r;
	int fl, sg;

	/* the operand's type: an atomic whose old value is unused has a void result */
	t = ir_vtype(g->k, op->args[1]);
	fl = ir_is_float(t);
	sg = ir_is_signed(t);
	LLVMAtomicRMWBinOp bop;

	if (op->opc == IR_ATOM_CAS) {
		LLVMValueRef nv = val(g, op, op->args[2]);
		LLVMTypeRef it = NULL;

		/* cmpxchg takes integers only: compare float bit patterns, as atom.cas does */
		if (fl) {
			it = LLVMIntTypeInContext(g->ctx, (unsigned)type_bits(t));
			v = LLVMBuildBitCast(g->b, v, it, "");
			nv = LLVMBuildBitCast(g->b, nv, it, "");
		}
		r = LLVMBuildAtomicCmpXchgSyncScope(g->b, p, v, nv, LLVMAtomicOrderingMonotonic,
						    LLVMAtomicOrderingMonotonic, g->sscope_device);
		r = LLVMBuildExtractValue(g->b, r, 0, fl ? "" : nm);
		return fl ? LLVMBuildBitCast(g->b, r, lg_type(g, t), nm) : r;
	}
	switch (op->opc) {
	case IR_ATOM_ADD: bop = fl ? LLVMAtomicRMWBinOpFAdd : LLVMAtomicRMWBinOpAdd; break;
	case IR_ATOM_MIN:
		bop = fl ? LLVMAtomicRMWBinOpFMin : sg ? LLVMAtomicRMWBinOpMin : LLVMAtomicRMWBinOpUMin;
		break;
	case IR_ATOM_MAX:
		bop = fl ? LLVMAtomicRMWBinOpFMax : sg ? LLVMAtomicRMWBinOpMax : LLVMAtomicRMWBinOpUMax;
		break;
	case IR_ATOM_AND: bop = LLVMAtomicRMWBinOpAnd; break;
	case IR_ATOM_OR: bop = LLVMAtomicRMWBinOpOr; break;
	default: bop = LLVMAtomicRMWBinOpXchg; break;
	}
	if (fl && (op->opc == IR_ATOM_AND || op->opc == IR_ATOM_OR)) {
		lg_error(g, op, "'%s' on a float type", ir_opinfo[op->opc].name);
		return LLVMGetPoison(lg_type(g, t));
	}
	r = LLVMBuildAtomicRMWSyncScope(g->b, bop, p, v, LLVMAtomicOrderingMonotonic, g->sscope_device);
	LLVMSetValueName2(r, nm, strlen(nm));
	return r;
}

/* ---- flags: ordered accesses at a scope (load.acquire, store.release, fence, wait.ge) ---- */

static unsigned
scope_id(LlvmGen *g, const IrOp *op)
{
	const char *w = ir_scopes[op->imm].llvm;

	return LLVMGetSyncScopeID(g->ctx, w, strlen(w));
}

static LLVMValueRef
load_acquire(LlvmGen *g, const IrOp *op, LLVMValueRef p, IrType t, const char *nm)
{
	LLVMValueRef ld = LLVMBuildLoad2(g->b, lg_type(g, t), p, nm);

	LLVMSetOrdering(ld, LLVMAtomicOrderingAcquire);
	LLVMSetAtomicSyncScopeID(ld, scope_id(g, op));
	LLVMSetAlignment(ld, natural_align(t));
	return ld;
}

/* A poll of the flag, then %globaltimer against the deadline, then a short nanosleep, in
 * a loop; 1 from the poll that saw the value, 0 from the clock that passed the limit. The
 * timer is a special register that LLVM reads anew each time (not a constant one). */
static LLVMValueRef
wait_ge(LlvmGen *g, const IrOp *op, const char *nm)
{
	LLVMBasicBlockRef poll = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "wait.poll");
	LLVMBasicBlockRef clock = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "wait.clock");
	LLVMBasicBlockRef nap = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "wait.nap");
	LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "wait.done");
	IrType t = ir_vtype(g->k, op->args[1]);
	LLVMValueRef p = val(g, op, op->args[0]), want = val(g, op, op->args[1]), limit = val(g, op, op->args[2]);
	LLVMValueRef t0 = sreg(g, "globaltimer"), v, seen, late, nap_ns = i32c(g, 32), r, in[2];
	LLVMBasicBlockRef from[2] = {poll, clock};

	LLVMBuildBr(g->b, poll);
	LLVMPositionBuilderAtEnd(g->b, poll);
	v = load_acquire(g, op, p, t, "");
	seen = LLVMBuildICmp(g->b, LLVMIntSGE, LLVMBuildSub(g->b, v, want, ""), LLVMConstInt(lg_type(g, t), 0, 0), "");
	LLVMBuildCondBr(g->b, seen, done, clock);
	LLVMPositionBuilderAtEnd(g->b, clock);
	late = LLVMBuildICmp(g->b, LLVMIntSGE, LLVMBuildSub(g->b, sreg(g, "globaltimer"), t0, ""), limit, "");
	LLVMBuildCondBr(g->b, late, done, nap);
	LLVMPositionBuilderAtEnd(g->b, nap);
	lg_intrinsic(g, "llvm.nvvm.nanosleep", NULL, 0, &nap_ns, 1, "");
	LLVMBuildBr(g->b, poll);
	LLVMPositionBuilderAtEnd(g->b, done);
	r = LLVMBuildPhi(g->b, LLVMInt1TypeInContext(g->ctx), nm);
	in[0] = LLVMConstInt(LLVMInt1TypeInContext(g->ctx), 1, 0);
	in[1] = LLVMConstInt(LLVMInt1TypeInContext(g->ctx), 0, 0);
	LLVMAddIncoming(r, in, from, 2);
	return r;
}

static LLVMValueRef
ordered(LlvmGen *g, const IrOp *op, IrType t, const char *nm)
{
	LLVMValueRef st;

	switch (op->opc) {
	case IR_LOAD_ACQ:
		return load_acquire(g, op, val(g, op, op->args[0]), t, nm);
	case IR_STORE_REL:
		st = LLVMBuildStore(g->b, val(g, op, op->args[1]), val(g, op, op->args[0]));
		LLVMSetOrdering(st, LLVMAtomicOrderingRelease);
		LLVMSetAtomicSyncScopeID(st, scope_id(g, op));
		LLVMSetAlignment(st, natural_align(ir_vtype(g->k, op->args[1])));
		return NULL;
	case IR_FENCE:
		LLVMBuildFenceSyncScope(g->b, LLVMAtomicOrderingAcquireRelease, scope_id(g, op), "");
		return NULL;
	default:
		return wait_ge(g, op, nm);
	}
}

/* cp.async through the NVVM intrinsics: 16-byte copies take .cg (L2 only: staged data is
 * read once from shared memory, so caching it in L1 too only evicts other lines), smaller
 * ones .ca, the only form PTX has for them. */
static void
cp_async(LlvmGen *g, const IrOp *op)
{
	char name[64];
	LLVMValueRef args[2];

	switch (op->opc) {
	case IR_CP_ASYNC:
		snprintf(name, sizeof name, "llvm.nvvm.cp.async.%s.shared.global.%d",
			 op->imm == 16 ? "cg" : "ca", (int)op->imm);
		args[0] = val(g, op, op->args[0]);
		args[1] = val(g, op, op->args[1]);
		lg_intrinsic(g, name, NULL, 0, args, 2, "");
		break;
	case IR_CP_ASYNC_COMMIT:
		lg_intrinsic(g, "llvm.nvvm.cp.async.commit.group", NULL, 0, NULL, 0, "");
		break;
	default:
		args[0] = i32c(g, (uint32_t)op->imm);
		lg_intrinsic(g, "llvm.nvvm.cp.async.wait.group", NULL, 0, args, 1, "");
		break;
	}
}

/* ---- warp collectives ---- */

static LLVMValueRef
shfl32(LlvmGen *g, const char *kind, const char *ty, LLVMValueRef v, LLVMValueRef lane)
{
	char name[64];
	/* c = 0x1f (clamp to the last lane) for bfly/down/idx; 0 for up (clamp at lane 0). */
	LLVMValueRef args[4] = {i32c(g, FULL_MASK), v, lane, i32c(g, strcmp(kind, "up") ? 0x1f : 0)};

	snprintf(name, sizeof name, "llvm.nvvm.shfl.sync.%s.%s", kind, ty);
	return lg_intrinsic(g, name, NULL, 0, args, 4, "");
}

/* Shuffles any value as 32-bit words: f32 directly, anything of at most 32 bits widened
 * to one i32, wider values (i64, f64, vectors) split into i32 words. */
static LLVMValueRef
shuffle(LlvmGen *g, const IrOp *op, const char *kind, const char *nm)
{
	IrType t = ir_vtype(g->k, op->args[0]);
	LLVMValueRef v = val(g, op, op->args[0]), r;
	LLVMValueRef lane = val(g, op, op->args[1]);
	LLVMTypeRef i32 = LLVMInt32TypeInContext(g->ctx);
	int bits = type_bits(t), i, n;

	lane = int_resize(g, lane, ir_scalar(IR_I32), 0);
	if (t.base == IR_F32 && t.lanes == 1) {
		r = shfl32(g, kind, "f32", v, lane);
		LLVMSetValueName2(r, nm, strlen(nm));
		return r;
	}
	if (t.base == IR_PTR)
		v = LLVMBuildPtrToInt(g->b, v, LLVMInt64TypeInContext(g->ctx), "");
	if (bits <= 32) {
		LLVMTypeRef it = LLVMIntTypeInContext(g->ctx, (unsigned)bits);

		v = LLVMBuildBitCast(g->b, v, it, "");
		r = shfl32(g, kind, "i32", int_resize(g, v, ir_scalar(IR_I32), 0), lane);
		r = LLVMBuildTrunc(g->b, r, it, "");
	} else if (bits % 32 == 0) {
		LLVMTypeRef vt = LLVMVectorType(i32, (unsigned)(n = bits / 32));

		v = LLVMBuildBitCast(g->b, v, vt, "");
		r = LLVMGetPoison(vt);
		for (i = 0; i < n; i++) {
			LLVMValueRef w = LLVMBuildExtractElement(g->b, v, i32c(g, (uint32_t)i), "");

			r = LLVMBuildInsertElement(g->b, r, shfl32(g, kind, "i32", w, lane),
						   i32c(g, (uint32_t)i), "");
		}
	} else {
		lg_error(g, op, "shuffle of a %d-bit value", bits);
		return LLVMGetPoison(lg_type(g, t));
	}
	if (t.base == IR_PTR) {
		r = LLVMBuildBitCast(g->b, r, LLVMInt64TypeInContext(g->ctx), "");
		return LLVMBuildIntToPtr(g->b, r, lg_type(g, t), nm);
	}
	return LLVMBuildBitCast(g->b, r, lg_type(g, t), nm);
}

static LLVMValueRef
vote(LlvmGen *g, const IrOp *op, const char *nm)
{
	static const char *const names[] = {"llvm.nvvm.vote.any.sync", "llvm.nvvm.vote.all.sync",
					    "llvm.nvvm.vote.ballot.sync"};
	IrType t = ir_vtype(g->k, op->args[0]);
	LLVMValueRef p = val(g, op, op->args[0]);
	LLVMValueRef args[2];

	if (t.base != IR_I1)
		p = convert(g, op, p, t, ir_scalar(IR_I1), "");
	args[0] = i32c(g, FULL_MASK);
	args[1] = p;
	return lg_intrinsic(g, names[op->opc - IR_VOTE_ANY], NULL, 0, args, 2, nm);
}

/* ---- element-wise ops on fragments ---- */

static int
lanewise(int opc)
{
	switch (opc) {
	case IR_ADD: case IR_SUB: case IR_MUL: case IR_DIV: case IR_REM:
	case IR_AND: case IR_OR: case IR_XOR: case IR_SHL: case IR_SHR:
	case IR_MIN: case IR_MAX: case IR_NEG: case IR_NOT: case IR_ABS:
	case IR_EXP2: case IR_LOG2: case IR_RSQRT: case IR_SQRT: case IR_FMA:
	case IR_EXP: case IR_LOG: case IR_SIN: case IR_COS: case IR_TANH: case IR_ERF: case IR_POW:
	case IR_EXP_APPROX: case IR_LOG_APPROX: case IR_SIN_APPROX: case IR_COS_APPROX:
	case IR_TANH_APPROX: case IR_FLOOR: case IR_CEIL: case IR_TRUNC: case IR_ROUND: case IR_RINT:
	case IR_COPYSIGN: case IR_ISNAN: case IR_ISINF:
	case IR_CMP_EQ: case IR_CMP_NE: case IR_CMP_LT: case IR_CMP_LE: case IR_CMP_GT: case IR_CMP_GE:
	case IR_SELECT: case IR_CAST: case IR_VEC:
		return 1;
	default:
		return 0;
	}
}

/* A conversion of fragment lanes to 16-bit floats, two lanes at a time: fptrunc <2 x
 * float> is one cvt.rn.bf16x2.f32 (or f16x2), where lane by lane it would be two
 * conversions and a pack. */
static void
cast_pairs(LlvmGen *g, const IrOp *op, IrType t, LLVMValueRef *out)
{
	IrType st = ir_vtype(g->k, op->args[0]);
	LLVMValueRef *in = lg_lanes(g, op, op->args[0]);
	int i;

	for (i = 0; i < t.lanes; i += 2) {
		LLVMValueRef p = convert(g, op, lg_pair(g, in[i], in[i + 1]), ir_vector((IrBase)st.base, 2),
					 ir_vector((IrBase)t.base, 2), "");

		out[i] = LLVMBuildExtractElement(g->b, p, i32c(g, 0), "");
		out[i + 1] = LLVMBuildExtractElement(g->b, p, i32c(g, 1), "");
	}
}

static LLVMValueRef scalar_op(LlvmGen *g, const IrOp *op, IrType t, const char *nm);

/* An element-wise op whose result is a fragment, built lane by lane on scalars (fragments
 * live as lanes, llvm_gen.h): as one LLVM vector op it would cost an insertelement per lane
 * of each operand and an extractelement per lane of the result, which InstCombine leaves
 * in part, and instruction selection would split the vector again (a third of the
 * selection time of ssd's kernel). */
static void
gen_lanewise(LlvmGen *g, const IrOp *op, IrType t)
{
	IrType st = op->opc == IR_CAST ? ir_vtype(g->k, op->args[0]) : t;
	LLVMValueRef *out = arena_alloc(g->arena, (size_t)t.lanes * sizeof *out);
	int i;

	if (op->opc == IR_CAST && st.base == IR_F32 && (t.base == IR_BF16 || t.base == IR_F16) && t.lanes % 2 == 0) {
		cast_pairs(g, op, t, out);
	} else {
		for (i = 0; i < t.lanes; i++) {
			g->lane = i;
			out[i] = op->opc == IR_VEC ? val(g, op, op->args[i]) : scalar_op(g, op, ir_scalar((IrBase)t.base), "");
		}
		g->lane = -1;
	}
	lg_bind_lanes(g, op->res[0], out, t.lanes);
}

/* The lane-wise ops (lanewise, but for vec), with result type t: of the op's own type, or
 * in gen_lanewise one lane's (g->lane set, the operands' lanes); NULL for other ops. */
static LLVMValueRef
scalar_op(LlvmGen *g, const IrOp *op, IrType t, const char *nm)
{
	IrType st;

	switch (op->opc) {
	case IR_ADD: case IR_SUB: case IR_MUL: case IR_DIV: case IR_REM:
	case IR_AND: case IR_OR: case IR_XOR: case IR_SHL: case IR_SHR:
	case IR_MIN: case IR_MAX: case IR_NEG: case IR_NOT: case IR_ABS:
	case IR_EXP2: case IR_LOG2: case IR_RSQRT: case IR_SQRT: case IR_FMA:
		return arith(g, op, t, nm);
	case IR_EXP: case IR_LOG: case IR_SIN: case IR_COS: case IR_TANH: case IR_ERF: case IR_POW:
	case IR_EXP_APPROX: case IR_LOG_APPROX: case IR_SIN_APPROX: case IR_COS_APPROX:
	case IR_TANH_APPROX: case IR_FLOOR: case IR_CEIL: case IR_TRUNC: case IR_ROUND: case IR_RINT:
	case IR_COPYSIGN: case IR_ISNAN: case IR_ISINF:
		return lg_math_op(g, op, t, nm);
	case IR_CMP_EQ: case IR_CMP_NE: case IR_CMP_LT: case IR_CMP_LE: case IR_CMP_GT: case IR_CMP_GE:
		return compare(g, op, nm);
	case IR_SELECT:
		return LLVMBuildSelect(g->b, val(g, op, op->args[0]), val(g, op, op->args[1]),
				       val(g, op, op->args[2]), nm);
	case IR_CAST:
		st = ir_vtype(g->k, op->args[0]);
		if (g->lane >= 0)
			st = ir_scalar((IrBase)st.base);
		return convert(g, op, val(g, op, op->args[0]), st, t, nm);
	default:
		return NULL;
	}
}

void
lg_op(LlvmGen *g, const IrOp *op)
{
	IrType t = op->nres ? ir_vtype(g->k, op->res[0]) : ir_scalar(IR_VOID);
	LLVMValueRef r = NULL;
	char nm[32];

	lg_result_name(op, nm, sizeof nm);
	if (op->nres == 1 && lg_is_frag(t) && lanewise(op->opc)) {
		gen_lanewise(g, op, t);
		return;
	}
	if ((r = scalar_op(g, op, t, nm)) != NULL) {
		lg_bind(g, op->res[0], r);
		return;
	}
	switch (op->opc) {
	case IR_CONST: r = const_op(g, op, t); break;
	case IR_TID_X: r = sreg(g, "tid.x"); break;
	case IR_TID_Y: r = sreg(g, "tid.y"); break;
	case IR_TID_Z: r = sreg(g, "tid.z"); break;
	case IR_NTID_X: r = sreg(g, "ntid.x"); break;
	case IR_NTID_Y: r = sreg(g, "ntid.y"); break;
	case IR_NTID_Z: r = sreg(g, "ntid.z"); break;
	case IR_CTAID_X: r = sreg(g, "ctaid.x"); break;
	case IR_CTAID_Y: r = sreg(g, "ctaid.y"); break;
	case IR_CTAID_Z: r = sreg(g, "ctaid.z"); break;
	case IR_NCTAID_X: r = sreg(g, "nctaid.x"); break;
	case IR_NCTAID_Y: r = sreg(g, "nctaid.y"); break;
	case IR_NCTAID_Z: r = sreg(g, "nctaid.z"); break;
	case IR_LANEID: r = sreg(g, "laneid"); break;
	case IR_WARPID: r = warpid(g); break;
	case IR_BITCAST:
		r = bitcast(g, op, val(g, op, op->args[0]), ir_vtype(g->k, op->args[0]), t, nm);
		break;
	case IR_VEC: {
		int i;

		r = LLVMGetPoison(lg_type(g, t));
		for (i = 0; i < op->nargs; i++)
			r = LLVMBuildInsertElement(g->b, r, val(g, op, op->args[i]), i32c(g, (uint32_t)i),
						   i == op->nargs - 1 ? nm : "");
		break;
	}
	case IR_EXTRACT:
		if (lg_is_frag(ir_vtype(g->k, op->args[0]))) {
			r = lg_lanes(g, op, op->args[0])[op->imm];
			break;
		}
		r = LLVMBuildExtractElement(g->b, val(g, op, op->args[0]), i32c(g, (uint32_t)op->imm), nm);
		break;
	case IR_ELEMPTR: r = elemptr(g, op, nm); break;
	case IR_SMEM: r = smem_ptr(g, op, nm); break;
	case IR_LOAD: r = load(g, op, t, nm); break;
	case IR_STORE: {
		IrType vt = ir_vtype(g->k, op->args[1]);
		LLVMValueRef st = LLVMBuildStore(g->b, val(g, op, op->args[1]), val(g, op, op->args[0]));

		LLVMSetAlignment(st, natural_align(vt));
		break;
	}
	case IR_STORE_IF: store_if(g, op); break;
	case IR_STORE_ROW: lg_store_row(g, op); break;
	case IR_ATOM_ADD: case IR_ATOM_MIN: case IR_ATOM_MAX: case IR_ATOM_AND:
	case IR_ATOM_OR: case IR_ATOM_XCHG: case IR_ATOM_CAS:
		r = atomic(g, op, t, nm);
		break;
	case IR_LOAD_ACQ: case IR_STORE_REL: case IR_FENCE: case IR_WAIT_GE:
		r = ordered(g, op, t, nm);
		break;
	case IR_BARRIER: {
		/* bar.sync 0 is barrier.sync.aligned 0 with every thread of the CTA */
		LLVMValueRef zero = i32c(g, 0);

		lg_intrinsic(g, "llvm.nvvm.barrier.cta.sync.aligned.all", NULL, 0, &zero, 1, "");
		break;
	}
	case IR_BAR_SYNC: case IR_BAR_ARRIVE: {
		LLVMValueRef a[2] = {lg_arg(g, op, 0), lg_arg(g, op, 1)};

		lg_intrinsic(g, op->opc == IR_BAR_SYNC ? "llvm.nvvm.barrier.cta.sync.aligned.count"
			     : "llvm.nvvm.barrier.cta.arrive.aligned.count", NULL, 0, a, 2, "");
		break;
	}
	case IR_WARP_SYNC: {
		LLVMValueRef all = i32c(g, -1);

		lg_intrinsic(g, "llvm.nvvm.bar.warp.sync", NULL, 0, &all, 1, "");
		break;
	}
	case IR_CP_ASYNC: case IR_CP_ASYNC_COMMIT: case IR_CP_ASYNC_WAIT:
		cp_async(g, op);
		break;
	case IR_SHFL_XOR: r = shuffle(g, op, "bfly", nm); break;
	case IR_SHFL_DOWN: r = shuffle(g, op, "down", nm); break;
	case IR_SHFL_UP: r = shuffle(g, op, "up", nm); break;
	case IR_SHFL_IDX: r = shuffle(g, op, "idx", nm); break;
	case IR_VOTE_ANY: case IR_VOTE_ALL: case IR_BALLOT: r = vote(g, op, nm); break;
	default:
		if (op->opc >= IR_ROLE && op->opc <= IR_TCGEN05_FENCE_AFTER) {
			lg_async_op(g, op);
			return;
		}
		lg_error(g, op, "'%s' cannot be lowered here", ir_opinfo[op->opc].name);
		break;
	}
	if (!op->nres)
		return;
	if (!r) {
		r = LLVMGetPoison(lg_type(g, t));
	} else if (op->opc >= IR_TID_X && op->opc <= IR_WARPID) {
		r = int_resize(g, r, t, 0);
		LLVMSetValueName2(r, nm, strlen(nm));
	}
	lg_bind(g, op->res[0], r);
}
