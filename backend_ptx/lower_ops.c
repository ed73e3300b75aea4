/* backend_ptx/lower_ops.c: the LLVM IR for each IR op that has no regions (arithmetic,
 * casts, memory, atomics, warp collectives). Control flow is in lower_llvm.c. */
#include "lower.h"

#include <llvm-c/Target.h>

#include <stdio.h>
#include <string.h>

/* Every lane collective uses the full warp: the IR requires all 32 lanes to take part. */
#define FULL_MASK 0xffffffffu

static LLVMValueRef
val(Lower *L, const IrOp *op, IrValue v)
{
	return lw_val(L, op, v);
}

static LLVMValueRef
i32c(Lower *L, uint32_t v)
{
	return LLVMConstInt(LLVMInt32TypeInContext(L->ctx), v, 0);
}

static LLVMTypeRef
f32t(Lower *L)
{
	return LLVMFloatTypeInContext(L->ctx);
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
const_op(Lower *L, const IrOp *op, IrType t)
{
	LLVMTypeRef st = lw_type(L, ir_scalar((IrBase)t.base));
	LLVMValueRef c, lanes[IR_FRAG_MAX];
	int i;

	if (ir_is_float(t)) {
		c = LLVMConstReal(st, op->fimm);
	} else if (t.base == IR_PTR) {
		st = lw_type(L, t);
		c = op->imm ? LLVMConstIntToPtr(LLVMConstInt(LLVMInt64TypeInContext(L->ctx),
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
		lw_error(L, op, "const of type %s", ir_base_name((IrBase)t.base));
		return LLVMGetPoison(lw_type(L, t));
	}
	if (t.lanes == 1)
		return c;
	if (t.lanes > IR_FRAG_MAX) {
		lw_error(L, op, "const with %d lanes", t.lanes);
		return LLVMGetPoison(lw_type(L, t));
	}
	for (i = 0; i < t.lanes; i++)
		lanes[i] = c;
	return LLVMConstVector(lanes, t.lanes);
}

/* Integer resize without a value change in range: i32 results of the sreg intrinsics
 * into the IR's result type, and lane indices into i32. */
static LLVMValueRef
int_resize(Lower *L, LLVMValueRef v, IrType to, int is_signed)
{
	LLVMTypeRef dt = lw_type(L, to);
	unsigned have = LLVMGetIntTypeWidth(LLVMTypeOf(v));
	unsigned want = LLVMGetIntTypeWidth(dt);

	if (have == want)
		return v;
	if (have > want)
		return LLVMBuildTrunc(L->b, v, dt, "");
	return is_signed ? LLVMBuildSExt(L->b, v, dt, "") : LLVMBuildZExt(L->b, v, dt, "");
}

static LLVMValueRef
sreg(Lower *L, const char *reg)
{
	char name[64];

	snprintf(name, sizeof name, "llvm.nvvm.read.ptx.sreg.%s", reg);
	return lw_intrinsic(L, name, NULL, 0, NULL, 0, reg);
}

/* warpid: the linear thread index / 32. Not %warpid, which the hardware may change during
 * a thread's life. ntid is known (the kernel carries it as reqntid), so the dimensions
 * are constants and the y/z terms vanish for 1-D blocks. */
static LLVMValueRef
warpid(Lower *L)
{
	const int *n = L->k->threads;
	LLVMValueRef lin = sreg(L, "tid.x");

	if (n[1] > 1 || n[2] > 1) {
		LLVMValueRef yz = sreg(L, "tid.y");

		if (n[2] > 1)
			yz = LLVMBuildNUWAdd(L->b, yz, LLVMBuildNUWMul(L->b, i32c(L, (uint32_t)n[1]),
								       sreg(L, "tid.z"), ""), "");
		lin = LLVMBuildNUWAdd(L->b, lin, LLVMBuildNUWMul(L->b, i32c(L, (uint32_t)n[0]), yz, ""), "");
	}
	return LLVMBuildLShr(L->b, lin, i32c(L, 5), "");
}

/* ---- casts ---- */

static LLVMValueRef
convert(Lower *L, const IrOp *op, LLVMValueRef v, IrType from, IrType to, const char *nm)
{
	LLVMTypeRef dt = lw_type(L, to);
	int fb = ir_base_bits((IrBase)from.base), tb = ir_base_bits((IrBase)to.base);

	if (from.lanes != to.lanes) {
		lw_error(L, op, "cast between %d and %d lanes", from.lanes, to.lanes);
		return LLVMGetPoison(dt);
	}
	if (LLVMTypeOf(v) == dt)
		return v;
	if (from.base == IR_PTR && to.base == IR_PTR)
		return LLVMBuildAddrSpaceCast(L->b, v, dt, nm);
	if (from.base == IR_PTR && ir_is_int(to))
		return LLVMBuildPtrToInt(L->b, v, dt, nm);
	if (ir_is_int(from) && to.base == IR_PTR)
		return LLVMBuildIntToPtr(L->b, v, dt, nm);
	if (ir_is_int(from) && ir_is_int(to)) {
		/* A value conversion to i1 is a truth test, as in C, not the low bit. */
		if (to.base == IR_I1)
			return LLVMBuildICmp(L->b, LLVMIntNE, v, LLVMConstNull(LLVMTypeOf(v)), nm);
		if (fb > tb)
			return LLVMBuildTrunc(L->b, v, dt, nm);
		return ir_is_signed(from) ? LLVMBuildSExt(L->b, v, dt, nm) : LLVMBuildZExt(L->b, v, dt, nm);
	}
	if (ir_is_int(from) && ir_is_float(to))
		return ir_is_signed(from) ? LLVMBuildSIToFP(L->b, v, dt, nm) : LLVMBuildUIToFP(L->b, v, dt, nm);
	if (ir_is_float(from) && ir_is_int(to)) {
		LLVMTypeRef tys[2];

		if (to.base == IR_I1)
			return LLVMBuildFCmp(L->b, LLVMRealUNE, v, LLVMConstNull(LLVMTypeOf(v)), nm);
		/* Saturating, NaN -> 0: the IR's float->int is defined for every input. */
		tys[0] = dt;
		tys[1] = LLVMTypeOf(v);
		return lw_intrinsic(L, ir_is_signed(to) ? "llvm.fptosi.sat" : "llvm.fptoui.sat",
				    tys, 2, &v, 1, nm);
	}
	if (ir_is_float(from) && ir_is_float(to)) {
		/* f16 <-> bf16 have the same width: widen exactly to f32, then round once. */
		if (fb == tb) {
			v = LLVMBuildFPExt(L->b, v, lw_type(L, with_base(from, IR_F32)), "");
			return LLVMBuildFPTrunc(L->b, v, dt, nm);
		}
		return fb < tb ? LLVMBuildFPExt(L->b, v, dt, nm) : LLVMBuildFPTrunc(L->b, v, dt, nm);
	}
	lw_error(L, op, "cannot cast from %s to %s", ir_base_name((IrBase)from.base),
		 ir_base_name((IrBase)to.base));
	return LLVMGetPoison(dt);
}

static LLVMValueRef
bitcast(Lower *L, const IrOp *op, LLVMValueRef v, IrType from, IrType to, const char *nm)
{
	LLVMTypeRef dt = lw_type(L, to);

	if (type_bits(from) != type_bits(to)) {
		lw_error(L, op, "bitcast between %d and %d bits", type_bits(from), type_bits(to));
		return LLVMGetPoison(dt);
	}
	if (LLVMTypeOf(v) == dt)
		return v;
	if (from.base == IR_PTR && to.base == IR_PTR)
		return LLVMBuildAddrSpaceCast(L->b, v, dt, nm);
	if (from.base == IR_PTR) {
		v = LLVMBuildPtrToInt(L->b, v, LLVMInt64TypeInContext(L->ctx), "");
		return LLVMBuildBitCast(L->b, v, dt, nm);
	}
	if (to.base == IR_PTR) {
		v = LLVMBuildBitCast(L->b, v, LLVMInt64TypeInContext(L->ctx), "");
		return LLVMBuildIntToPtr(L->b, v, dt, nm);
	}
	return LLVMBuildBitCast(L->b, v, dt, nm);
}

/* ---- arithmetic ---- */

static LLVMValueRef
call1(Lower *L, const char *name, LLVMValueRef a, const char *nm)
{
	LLVMTypeRef t = LLVMTypeOf(a);

	return lw_intrinsic(L, name, &t, 1, &a, 1, nm);
}

static LLVMValueRef
call2(Lower *L, const char *name, LLVMValueRef a, LLVMValueRef c, const char *nm)
{
	LLVMTypeRef t = LLVMTypeOf(a);
	LLVMValueRef args[2] = {a, c};

	return lw_intrinsic(L, name, &t, 1, args, 2, nm);
}

/* exp2, log2 and rsqrt on one scalar: PTX's approximate instructions. f16 and bf16 use a
 * native form where PTX has one (ex2.approx.f16, ex2.approx.ftz.bf16) and otherwise go
 * through f32 and round back; f64 has rsqrt.approx.f64 but no ex2/lg2, so those go through
 * f32 too (the ops are documented as approximate). */
static LLVMValueRef
approx_scalar(Lower *L, int opc, LLVMValueRef v, IrBase base)
{
	LLVMTypeRef t = LLVMTypeOf(v), f32 = f32t(L);
	LLVMValueRef r;

	if (opc == IR_EXP2 && base == IR_F16)
		return call1(L, "llvm.nvvm.ex2.approx", v, "");
	if (opc == IR_EXP2 && base == IR_BF16)
		return call1(L, "llvm.nvvm.ex2.approx.ftz", v, "");
	if (opc == IR_RSQRT && base == IR_F64)
		return lw_intrinsic(L, "llvm.nvvm.rsqrt.approx.d", NULL, 0, &v, 1, "");
	if (base != IR_F32)
		v = base == IR_F64 ? LLVMBuildFPTrunc(L->b, v, f32, "") : LLVMBuildFPExt(L->b, v, f32, "");
	switch (opc) {
	case IR_EXP2:
		r = call1(L, "llvm.nvvm.ex2.approx", v, "");
		break;
	case IR_LOG2:
		r = lw_intrinsic(L, "llvm.nvvm.lg2.approx.f", NULL, 0, &v, 1, "");
		break;
	default:
		r = lw_intrinsic(L, "llvm.nvvm.rsqrt.approx.f", NULL, 0, &v, 1, "");
		break;
	}
	if (base == IR_F32)
		return r;
	return base == IR_F64 ? LLVMBuildFPExt(L->b, r, t, "") : LLVMBuildFPTrunc(L->b, r, t, "");
}

static LLVMValueRef
approx(Lower *L, const IrOp *op, LLVMValueRef v, IrType t, const char *nm)
{
	LLVMValueRef r;
	int i;

	if (!ir_is_float(t)) {
		lw_error(L, op, "%s of a non-float type", ir_opinfo[op->opc].name);
		return LLVMGetPoison(LLVMTypeOf(v));
	}
	if (t.lanes == 1)
		return approx_scalar(L, op->opc, v, (IrBase)t.base);
	r = LLVMGetPoison(LLVMTypeOf(v));
	for (i = 0; i < t.lanes; i++) {
		LLVMValueRef e = LLVMBuildExtractElement(L->b, v, i32c(L, (uint32_t)i), "");

		r = LLVMBuildInsertElement(L->b, r, approx_scalar(L, op->opc, e, (IrBase)t.base),
					   i32c(L, (uint32_t)i), i == t.lanes - 1 ? nm : "");
	}
	return r;
}

static LLVMValueRef
arith(Lower *L, const IrOp *op, IrType t, const char *nm)
{
	LLVMValueRef a = val(L, op, op->args[0]);
	LLVMValueRef c = op->nargs > 1 ? val(L, op, op->args[1]) : NULL;
	int fl = ir_is_float(t), sg = ir_is_signed(t);

	if (!fl && !ir_is_int(t)) {
		lw_error(L, op, "'%s' on type %s", ir_opinfo[op->opc].name, ir_base_name((IrBase)t.base));
		return LLVMGetPoison(lw_type(L, t));
	}
	switch (op->opc) {
	case IR_ADD: return fl ? LLVMBuildFAdd(L->b, a, c, nm) : LLVMBuildAdd(L->b, a, c, nm);
	case IR_SUB: return fl ? LLVMBuildFSub(L->b, a, c, nm) : LLVMBuildSub(L->b, a, c, nm);
	case IR_MUL: return fl ? LLVMBuildFMul(L->b, a, c, nm) : LLVMBuildMul(L->b, a, c, nm);
	case IR_DIV:
		if (fl)
			return LLVMBuildFDiv(L->b, a, c, nm);
		return sg ? LLVMBuildSDiv(L->b, a, c, nm) : LLVMBuildUDiv(L->b, a, c, nm);
	case IR_REM:
		if (fl)
			return LLVMBuildFRem(L->b, a, c, nm);
		return sg ? LLVMBuildSRem(L->b, a, c, nm) : LLVMBuildURem(L->b, a, c, nm);
	case IR_MIN:
		if (fl)  /* minnum: a NaN operand yields the other one, as PTX min.f32 */
			return call2(L, "llvm.minnum", a, c, nm);
		return call2(L, sg ? "llvm.smin" : "llvm.umin", a, c, nm);
	case IR_MAX:
		if (fl)
			return call2(L, "llvm.maxnum", a, c, nm);
		return call2(L, sg ? "llvm.smax" : "llvm.umax", a, c, nm);
	case IR_NEG: return fl ? LLVMBuildFNeg(L->b, a, nm) : LLVMBuildNeg(L->b, a, nm);
	case IR_ABS:
		if (fl)
			return call1(L, "llvm.fabs", a, nm);
		if (!sg)
			return a;
		{
			LLVMTypeRef ty = LLVMTypeOf(a);
			/* false: abs(INT_MIN) is INT_MIN, not poison */
			LLVMValueRef args[2] = {a, LLVMConstInt(LLVMInt1TypeInContext(L->ctx), 0, 0)};

			return lw_intrinsic(L, "llvm.abs", &ty, 1, args, 2, nm);
		}
	case IR_SQRT:
		if (!fl)
			break;
		/* f16/bf16: sqrt in f32 then one rounding is correctly rounded (f32 has more
		 * than twice their precision plus two bits). */
		if (t.base == IR_F16 || t.base == IR_BF16) {
			LLVMValueRef w = LLVMBuildFPExt(L->b, a, lw_type(L, with_base(t, IR_F32)), "");

			return LLVMBuildFPTrunc(L->b, call1(L, "llvm.sqrt", w, ""), lw_type(L, t), nm);
		}
		return call1(L, "llvm.sqrt", a, nm);
	case IR_FMA:
		if (!fl)
			break;
		{
			LLVMTypeRef ty = LLVMTypeOf(a);
			LLVMValueRef args[3] = {a, c, val(L, op, op->args[2])};

			return lw_intrinsic(L, "llvm.fma", &ty, 1, args, 3, nm);
		}
	case IR_EXP2: case IR_LOG2: case IR_RSQRT:
		return approx(L, op, a, t, nm);
	default:
		if (fl)
			break;
		switch (op->opc) {
		case IR_AND: return LLVMBuildAnd(L->b, a, c, nm);
		case IR_OR: return LLVMBuildOr(L->b, a, c, nm);
		case IR_XOR: return LLVMBuildXor(L->b, a, c, nm);
		case IR_SHL: return LLVMBuildShl(L->b, a, c, nm);
		case IR_SHR: return sg ? LLVMBuildAShr(L->b, a, c, nm) : LLVMBuildLShr(L->b, a, c, nm);
		case IR_NOT: return LLVMBuildNot(L->b, a, nm);
		}
		break;
	}
	lw_error(L, op, "'%s' on type %s", ir_opinfo[op->opc].name, ir_base_name((IrBase)t.base));
	return LLVMGetPoison(lw_type(L, t));
}

static LLVMValueRef
compare(Lower *L, const IrOp *op, const char *nm)
{
	static const LLVMIntPredicate spred[] = {LLVMIntEQ, LLVMIntNE, LLVMIntSLT, LLVMIntSLE, LLVMIntSGT, LLVMIntSGE};
	static const LLVMIntPredicate upred[] = {LLVMIntEQ, LLVMIntNE, LLVMIntULT, LLVMIntULE, LLVMIntUGT, LLVMIntUGE};
	/* ordered except != (true when either is NaN), as the opcode table says */
	static const LLVMRealPredicate fpred[] = {LLVMRealOEQ, LLVMRealUNE, LLVMRealOLT, LLVMRealOLE, LLVMRealOGT, LLVMRealOGE};
	IrType t = ir_vtype(L->k, op->args[0]);
	LLVMValueRef a = val(L, op, op->args[0]), c = val(L, op, op->args[1]);
	int i = op->opc - IR_CMP_EQ;

	if (ir_is_float(t))
		return LLVMBuildFCmp(L->b, fpred[i], a, c, nm);
	return LLVMBuildICmp(L->b, ir_is_signed(t) ? spred[i] : upred[i], a, c, nm);
}

/* ---- memory ---- */

LLVMValueRef
lw_smem_base(Lower *L)
{
	if (!L->smem) {
		/* One dynamic array: the launcher sizes it, and `extern .shared` lets a kernel
		 * use more than the 48 KiB static limit. 1024 covers every swizzle alignment. */
		L->smem = LLVMAddGlobalInAddressSpace(L->mod, LLVMArrayType2(LLVMInt8TypeInContext(L->ctx), 0),
						      "cake_smem", IR_SHARED);
		LLVMSetLinkage(L->smem, LLVMExternalLinkage);
		LLVMSetAlignment(L->smem, 1024);
	}
	return L->smem;
}

static LLVMValueRef
smem_ptr(Lower *L, const IrOp *op, const char *nm)
{
	const IrKernel *k = L->k;
	LLVMValueRef off;

	if (op->imm < 0 || op->imm >= k->nbufs) {
		lw_error(L, op, "smem[%lld] but the kernel has %d shared buffers", (long long)op->imm, k->nbufs);
		return LLVMGetPoison(lw_type(L, ir_ptr(IR_SHARED, IR_I8)));
	}
	if (k->bufs[op->imm].offset < 0) {
		lw_error(L, op, "shared buffer '%s' has no offset (smem-layout has not run)",
			 k->bufs[op->imm].name);
		return LLVMGetPoison(lw_type(L, ir_ptr(IR_SHARED, IR_I8)));
	}
	if (k->bufs[op->imm].offset == 0)
		return lw_smem_base(L);
	off = LLVMConstInt(LLVMInt64TypeInContext(L->ctx), (unsigned long long)k->bufs[op->imm].offset, 0);
	return LLVMBuildInBoundsGEP2(L->b, LLVMInt8TypeInContext(L->ctx), lw_smem_base(L), &off, 1, nm);
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
store_if(Lower *L, const IrOp *op)
{
	IrType pt = ir_vtype(L->k, op->args[0]), vt = ir_vtype(L->k, op->args[1]);
	LLVMTargetDataRef td = LLVMGetModuleDataLayout(L->mod);
	LLVMValueRef v = val(L, op, op->args[1]), ins[6], fn;
	LLVMTypeRef tys[6], fty;
	const char *space = pt.space == IR_GLOBAL ? "global" : pt.space == IR_SHARED ? "shared"
			  : "shared::cluster";
	const IrOp *ep = L->def[op->args[0]], *c;
	int bits = vt.base == IR_I1 ? 8 : type_bits(vt), nin, i;
	char addr[48], text[128], cons[48];

	if (bits != 8 && bits != 16 && bits != 32 && bits != 64 && bits != 128) {
		lw_error(L, op, "store.if of a %d-bit value", bits);
		return;
	}
	snprintf(addr, sizeof addr, "[$1]");
	ins[0] = val(L, op, op->args[2]);
	ins[1] = val(L, op, op->args[0]);
	/* elemptr p, constant: the constant becomes the address's immediate offset ([p+off]),
	 * as LLVM folds it into a plain store's; no address arithmetic per store */
	c = ep && ep->opc == IR_ELEMPTR ? L->def[ep->args[1]] : NULL;
	if (c && c->opc == IR_CONST && ir_is_int(ir_vtype(L->k, ep->args[1])) &&
	    c->imm > -(1 << 20) && c->imm < (1 << 20)) {
		ins[1] = val(L, op, ep->args[0]);
		snprintf(addr, sizeof addr, "[$1+%lld]",
			 (long long)c->imm * ir_type_bytes(ir_scalar((IrBase)pt.elem)));
	}
	if (vt.base == IR_I1)
		v = LLVMBuildZExt(L->b, v, LLVMInt8TypeInContext(L->ctx), "");
	if (bits == 128) {
		LLVMValueRef w = LLVMBuildBitCast(L->b, v, LLVMVectorType(LLVMInt32TypeInContext(L->ctx), 4), "");

		for (i = 0; i < 4; i++)
			ins[2 + i] = LLVMBuildExtractElement(L->b, w, i32c(L, (uint32_t)i), "");
		nin = 6;
		snprintf(text, sizeof text, "@$0 st.%s.v4.b32 %s, {$2, $3, $4, $5};", space, addr);
	} else {
		v = LLVMBuildBitCast(L->b, v, LLVMIntTypeInContext(L->ctx, (unsigned)bits), "");
		if (bits == 8)
			v = LLVMBuildZExt(L->b, v, LLVMInt16TypeInContext(L->ctx), "");
		ins[2] = v;
		nin = 3;
		snprintf(text, sizeof text, "@$0 st.%s.b%d %s, $2;", space, bits, addr);
	}
	snprintf(cons, sizeof cons, "b,%s,%s,~{memory}", LLVMPointerSizeForAS(td, pt.space) == 8 ? "l" : "r",
		 bits == 128 ? "r,r,r,r" : bits <= 16 ? "h" : bits == 32 ? "r" : "l");
	for (i = 0; i < nin; i++)
		tys[i] = LLVMTypeOf(ins[i]);
	fty = LLVMFunctionType(LLVMVoidTypeInContext(L->ctx), tys, (unsigned)nin, 0);
	fn = LLVMGetInlineAsm(fty, text, strlen(text), cons, strlen(cons), 1, 0, LLVMInlineAsmDialectATT, 0);
	LLVMBuildCall2(L->b, fty, fn, ins, (unsigned)nin, "");
}

static LLVMValueRef
load(Lower *L, const IrOp *op, IrType t, const char *nm)
{
	IrType pt = ir_vtype(L->k, op->args[0]);
	LLVMValueRef ld = LLVMBuildLoad2(L->b, lw_type(L, t), val(L, op, op->args[0]), nm);

	LLVMSetAlignment(ld, natural_align(t));
	/* The read-only path: !invariant.load is what NVPTX turns into ld.global.nc (LLVM
	 * dropped the ldg intrinsics). Only for global memory: shared memory has no nc path. */
	if (op->imm == 1 && pt.space == IR_GLOBAL) {
		unsigned kind = LLVMGetMDKindIDInContext(L->ctx, "invariant.load", 14);

		LLVMSetMetadata(ld, kind, LLVMMetadataAsValue(L->ctx, LLVMMDNodeInContext2(L->ctx, NULL, 0)));
	}
	return ld;
}

static LLVMValueRef
atomic(Lower *L, const IrOp *op, IrType t, const char *nm)
{
	LLVMValueRef p = val(L, op, op->args[0]), v = val(L, op, op->args[1]), r;
	int fl = ir_is_float(t), sg = ir_is_signed(t);
	LLVMAtomicRMWBinOp bop;

	if (op->opc == IR_ATOM_CAS) {
		LLVMValueRef nv = val(L, op, op->args[2]);
		LLVMTypeRef it = NULL;

		/* cmpxchg takes integers only: compare float bit patterns, as atom.cas does */
		if (fl) {
			it = LLVMIntTypeInContext(L->ctx, (unsigned)type_bits(t));
			v = LLVMBuildBitCast(L->b, v, it, "");
			nv = LLVMBuildBitCast(L->b, nv, it, "");
		}
		r = LLVMBuildAtomicCmpXchgSyncScope(L->b, p, v, nv, LLVMAtomicOrderingMonotonic,
						    LLVMAtomicOrderingMonotonic, L->sscope_device);
		r = LLVMBuildExtractValue(L->b, r, 0, fl ? "" : nm);
		return fl ? LLVMBuildBitCast(L->b, r, lw_type(L, t), nm) : r;
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
		lw_error(L, op, "'%s' on a float type", ir_opinfo[op->opc].name);
		return LLVMGetPoison(lw_type(L, t));
	}
	r = LLVMBuildAtomicRMWSyncScope(L->b, bop, p, v, LLVMAtomicOrderingMonotonic, L->sscope_device);
	LLVMSetValueName2(r, nm, strlen(nm));
	return r;
}

/* cp.async through the NVVM intrinsics: 16-byte copies take .cg (L2 only: staged data is
 * read once from shared memory, so caching it in L1 too only evicts other lines), smaller
 * ones .ca, the only form PTX has for them. */
static void
cp_async(Lower *L, const IrOp *op)
{
	char name[64];
	LLVMValueRef args[2];

	switch (op->opc) {
	case IR_CP_ASYNC:
		snprintf(name, sizeof name, "llvm.nvvm.cp.async.%s.shared.global.%d",
			 op->imm == 16 ? "cg" : "ca", (int)op->imm);
		args[0] = val(L, op, op->args[0]);
		args[1] = val(L, op, op->args[1]);
		lw_intrinsic(L, name, NULL, 0, args, 2, "");
		break;
	case IR_CP_ASYNC_COMMIT:
		lw_intrinsic(L, "llvm.nvvm.cp.async.commit.group", NULL, 0, NULL, 0, "");
		break;
	default:
		args[0] = i32c(L, (uint32_t)op->imm);
		lw_intrinsic(L, "llvm.nvvm.cp.async.wait.group", NULL, 0, args, 1, "");
		break;
	}
}

/* ---- warp collectives ---- */

static LLVMValueRef
shfl32(Lower *L, const char *kind, const char *ty, LLVMValueRef v, LLVMValueRef lane)
{
	char name[64];
	/* c = 0x1f (clamp to the last lane) for bfly/down/idx; 0 for up (clamp at lane 0). */
	LLVMValueRef args[4] = {i32c(L, FULL_MASK), v, lane, i32c(L, strcmp(kind, "up") ? 0x1f : 0)};

	snprintf(name, sizeof name, "llvm.nvvm.shfl.sync.%s.%s", kind, ty);
	return lw_intrinsic(L, name, NULL, 0, args, 4, "");
}

/* Shuffles any value as 32-bit words: f32 directly, anything of at most 32 bits widened
 * to one i32, wider values (i64, f64, vectors) split into i32 words. */
static LLVMValueRef
shuffle(Lower *L, const IrOp *op, const char *kind, const char *nm)
{
	IrType t = ir_vtype(L->k, op->args[0]);
	LLVMValueRef v = val(L, op, op->args[0]), r;
	LLVMValueRef lane = val(L, op, op->args[1]);
	LLVMTypeRef i32 = LLVMInt32TypeInContext(L->ctx);
	int bits = type_bits(t), i, n;

	lane = int_resize(L, lane, ir_scalar(IR_I32), 0);
	if (t.base == IR_F32 && t.lanes == 1) {
		r = shfl32(L, kind, "f32", v, lane);
		LLVMSetValueName2(r, nm, strlen(nm));
		return r;
	}
	if (t.base == IR_PTR)
		v = LLVMBuildPtrToInt(L->b, v, LLVMInt64TypeInContext(L->ctx), "");
	if (bits <= 32) {
		LLVMTypeRef it = LLVMIntTypeInContext(L->ctx, (unsigned)bits);

		v = LLVMBuildBitCast(L->b, v, it, "");
		r = shfl32(L, kind, "i32", int_resize(L, v, ir_scalar(IR_I32), 0), lane);
		r = LLVMBuildTrunc(L->b, r, it, "");
	} else if (bits % 32 == 0) {
		LLVMTypeRef vt = LLVMVectorType(i32, (unsigned)(n = bits / 32));

		v = LLVMBuildBitCast(L->b, v, vt, "");
		r = LLVMGetPoison(vt);
		for (i = 0; i < n; i++) {
			LLVMValueRef w = LLVMBuildExtractElement(L->b, v, i32c(L, (uint32_t)i), "");

			r = LLVMBuildInsertElement(L->b, r, shfl32(L, kind, "i32", w, lane),
						   i32c(L, (uint32_t)i), "");
		}
	} else {
		lw_error(L, op, "shuffle of a %d-bit value", bits);
		return LLVMGetPoison(lw_type(L, t));
	}
	if (t.base == IR_PTR) {
		r = LLVMBuildBitCast(L->b, r, LLVMInt64TypeInContext(L->ctx), "");
		return LLVMBuildIntToPtr(L->b, r, lw_type(L, t), nm);
	}
	return LLVMBuildBitCast(L->b, r, lw_type(L, t), nm);
}

static LLVMValueRef
vote(Lower *L, const IrOp *op, const char *nm)
{
	static const char *const names[] = {"llvm.nvvm.vote.any.sync", "llvm.nvvm.vote.all.sync",
					    "llvm.nvvm.vote.ballot.sync"};
	IrType t = ir_vtype(L->k, op->args[0]);
	LLVMValueRef p = val(L, op, op->args[0]);
	LLVMValueRef args[2];

	if (t.base != IR_I1)
		p = convert(L, op, p, t, ir_scalar(IR_I1), "");
	args[0] = i32c(L, FULL_MASK);
	args[1] = p;
	return lw_intrinsic(L, names[op->opc - IR_VOTE_ANY], NULL, 0, args, 2, nm);
}

void
lw_op(Lower *L, const IrOp *op)
{
	IrType t = op->nres ? ir_vtype(L->k, op->res[0]) : ir_scalar(IR_VOID);
	LLVMValueRef r = NULL;
	char nm[32];

	nm[0] = 0;
	if (op->nres)
		snprintf(nm, sizeof nm, "v%d", op->res[0]);
	switch (op->opc) {
	case IR_CONST: r = const_op(L, op, t); break;
	case IR_TID_X: r = sreg(L, "tid.x"); break;
	case IR_TID_Y: r = sreg(L, "tid.y"); break;
	case IR_TID_Z: r = sreg(L, "tid.z"); break;
	case IR_NTID_X: r = sreg(L, "ntid.x"); break;
	case IR_NTID_Y: r = sreg(L, "ntid.y"); break;
	case IR_NTID_Z: r = sreg(L, "ntid.z"); break;
	case IR_CTAID_X: r = sreg(L, "ctaid.x"); break;
	case IR_CTAID_Y: r = sreg(L, "ctaid.y"); break;
	case IR_CTAID_Z: r = sreg(L, "ctaid.z"); break;
	case IR_NCTAID_X: r = sreg(L, "nctaid.x"); break;
	case IR_NCTAID_Y: r = sreg(L, "nctaid.y"); break;
	case IR_NCTAID_Z: r = sreg(L, "nctaid.z"); break;
	case IR_LANEID: r = sreg(L, "laneid"); break;
	case IR_WARPID: r = warpid(L); break;
	case IR_ADD: case IR_SUB: case IR_MUL: case IR_DIV: case IR_REM:
	case IR_AND: case IR_OR: case IR_XOR: case IR_SHL: case IR_SHR:
	case IR_MIN: case IR_MAX: case IR_NEG: case IR_NOT: case IR_ABS:
	case IR_EXP2: case IR_LOG2: case IR_RSQRT: case IR_SQRT: case IR_FMA:
		r = arith(L, op, t, nm);
		break;
	case IR_CMP_EQ: case IR_CMP_NE: case IR_CMP_LT: case IR_CMP_LE: case IR_CMP_GT: case IR_CMP_GE:
		r = compare(L, op, nm);
		break;
	case IR_SELECT:
		r = LLVMBuildSelect(L->b, val(L, op, op->args[0]), val(L, op, op->args[1]),
				    val(L, op, op->args[2]), nm);
		break;
	case IR_CAST:
		r = convert(L, op, val(L, op, op->args[0]), ir_vtype(L->k, op->args[0]), t, nm);
		break;
	case IR_BITCAST:
		r = bitcast(L, op, val(L, op, op->args[0]), ir_vtype(L->k, op->args[0]), t, nm);
		break;
	case IR_VEC: {
		int i;

		r = LLVMGetPoison(lw_type(L, t));
		for (i = 0; i < op->nargs; i++)
			r = LLVMBuildInsertElement(L->b, r, val(L, op, op->args[i]), i32c(L, (uint32_t)i),
						   i == op->nargs - 1 ? nm : "");
		break;
	}
	case IR_EXTRACT:
		if (lw_is_frag(ir_vtype(L->k, op->args[0]))) {
			r = lw_lanes(L, op, op->args[0])[op->imm];
			break;
		}
		r = LLVMBuildExtractElement(L->b, val(L, op, op->args[0]), i32c(L, (uint32_t)op->imm), nm);
		break;
	case IR_ELEMPTR: {
		IrType pt = ir_vtype(L->k, op->args[0]);
		LLVMValueRef idx = val(L, op, op->args[1]);

		/* Not inbounds: the IR lets a pointer step outside its tensor and back. */
		r = LLVMBuildGEP2(L->b, lw_type(L, ir_scalar((IrBase)pt.elem)), val(L, op, op->args[0]),
				  &idx, 1, nm);
		break;
	}
	case IR_SMEM: r = smem_ptr(L, op, nm); break;
	case IR_LOAD: r = load(L, op, t, nm); break;
	case IR_STORE: {
		IrType vt = ir_vtype(L->k, op->args[1]);
		LLVMValueRef st = LLVMBuildStore(L->b, val(L, op, op->args[1]), val(L, op, op->args[0]));

		LLVMSetAlignment(st, natural_align(vt));
		break;
	}
	case IR_STORE_IF: store_if(L, op); break;
	case IR_ATOM_ADD: case IR_ATOM_MIN: case IR_ATOM_MAX: case IR_ATOM_AND:
	case IR_ATOM_OR: case IR_ATOM_XCHG: case IR_ATOM_CAS:
		r = atomic(L, op, t, nm);
		break;
	case IR_BARRIER: {
		/* bar.sync 0 is barrier.sync.aligned 0 with every thread of the CTA */
		LLVMValueRef zero = i32c(L, 0);

		lw_intrinsic(L, "llvm.nvvm.barrier.cta.sync.aligned.all", NULL, 0, &zero, 1, "");
		break;
	}
	case IR_CP_ASYNC: case IR_CP_ASYNC_COMMIT: case IR_CP_ASYNC_WAIT:
		cp_async(L, op);
		break;
	case IR_SHFL_XOR: r = shuffle(L, op, "bfly", nm); break;
	case IR_SHFL_DOWN: r = shuffle(L, op, "down", nm); break;
	case IR_SHFL_UP: r = shuffle(L, op, "up", nm); break;
	case IR_SHFL_IDX: r = shuffle(L, op, "idx", nm); break;
	case IR_VOTE_ANY: case IR_VOTE_ALL: case IR_BALLOT: r = vote(L, op, nm); break;
	default:
		if (op->opc >= IR_ROLE && op->opc <= IR_WGMMA_WAIT) {
			lw_async_op(L, op);
			return;
		}
		lw_error(L, op, "'%s' cannot be lowered here", ir_opinfo[op->opc].name);
		break;
	}
	if (!op->nres)
		return;
	if (!r) {
		r = LLVMGetPoison(lw_type(L, t));
	} else if (op->opc >= IR_TID_X && op->opc <= IR_WARPID) {
		r = int_resize(L, r, t, 0);
		LLVMSetValueName2(r, nm, strlen(nm));
	}
	lw_bind(L, op->res[0], r);
}
