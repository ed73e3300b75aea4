/* backend_ptx/llvm_values.c: the ground floor of IR -> LLVM IR: errors, types, intrinsic
 * calls, and the binding of IR values to LLVM values (fragments as arrays of lanes). Every
 * other llvm_*.c file calls down into it; it calls none of them. */
#include "llvm_gen.h"

#include <stdio.h>
#include <string.h>

void
lg_error(LlvmGen *g, const IrOp *op, const char *fmt, ...)
{
	va_list ap;

	if (g->failed++)
		return;
	if (op && op->loc.line)
		buf_printf(g->err, "line %d:%d: ", op->loc.line, op->loc.col);
	if (op)
		buf_printf(g->err, "'%s': ", ir_opinfo[op->opc].name);
	va_start(ap, fmt);
	buf_vprintf(g->err, fmt, ap);
	va_end(ap);
}

LLVMTypeRef
lg_type(LlvmGen *g, IrType t)
{
	LLVMTypeRef s;

	switch (t.base) {
	case IR_VOID: return LLVMVoidTypeInContext(g->ctx);
	case IR_I1: s = LLVMInt1TypeInContext(g->ctx); break;
	/* fp8 is storage: its bits in an i8, converted by the cvt intrinsics (llvm_ops.c) */
	case IR_I8: case IR_U8: case IR_E4M3: case IR_E5M2: s = LLVMInt8TypeInContext(g->ctx); break;
	case IR_I16: case IR_U16: s = LLVMInt16TypeInContext(g->ctx); break;
	case IR_I32: case IR_U32: s = LLVMInt32TypeInContext(g->ctx); break;
	case IR_I64: case IR_U64: s = LLVMInt64TypeInContext(g->ctx); break;
	case IR_F16: s = LLVMHalfTypeInContext(g->ctx); break;
	case IR_BF16: s = LLVMBFloatTypeInContext(g->ctx); break;
	case IR_F32: s = LLVMFloatTypeInContext(g->ctx); break;
	case IR_F64: s = LLVMDoubleTypeInContext(g->ctx); break;
	case IR_PTR: return LLVMPointerTypeInContext(g->ctx, t.space);
	/* a tensor map is a byval kernel parameter: its value is the parameter's address */
	case IR_TMAP: return LLVMPointerTypeInContext(g->ctx, 0);
	default: return LLVMInt32TypeInContext(g->ctx);
	}
	return t.lanes > 1 ? LLVMVectorType(s, t.lanes) : s;
}

LLVMValueRef
lg_intrinsic(LlvmGen *g, const char *name, LLVMTypeRef *tys, int ntys, LLVMValueRef *args,
	     int nargs, const char *vname)
{
	unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
	LLVMValueRef fn;

	if (!id || (LLVMIntrinsicIsOverloaded(id) != 0) != (ntys > 0)) {
		lg_error(g, NULL, "no LLVM intrinsic %s with %d overload types", name, ntys);
		return LLVMGetUndef(LLVMInt32TypeInContext(g->ctx));
	}
	fn = LLVMGetIntrinsicDeclaration(g->mod, id, tys, (size_t)ntys);
	return LLVMBuildCall2(g->b, LLVMGlobalGetValueType(fn), fn, args, (unsigned)nargs, vname);
}

/* ---- values and fragments ---- */

int
lg_is_frag(IrType t)
{
	return t.lanes > 4;
}

static int
defined(LlvmGen *g, IrValue v)
{
	return v > 0 && v < g->k->nvalues && (g->vals[v] || g->lanes[v]);
}

int
lg_is_const(const LlvmGen *g, IrValue v)
{
	return g->def[v] && g->def[v]->opc == IR_CONST;
}

LLVMValueRef
lg_val(LlvmGen *g, const IrOp *op, IrValue v)
{
	IrType t;
	LLVMValueRef r;
	int i;

	if (!defined(g, v)) {
		lg_error(g, op, "operand %%%d of '%s' has no definition before its use", v,
			 ir_opinfo[op->opc].name);
		return LLVMGetPoison(lg_type(g, ir_vtype(g->k, v)));
	}
	if (g->vals[v])
		return g->vals[v];
	if (g->lane >= 0 && g->lanes[v])
		return g->lanes[v][g->lane];
	t = ir_vtype(g->k, v);
	r = LLVMGetPoison(lg_type(g, t));
	for (i = 0; i < t.lanes; i++)
		r = LLVMBuildInsertElement(g->b, r, g->lanes[v][i],
					   LLVMConstInt(LLVMInt32TypeInContext(g->ctx), (unsigned)i, 0), "");
	return r;
}

LLVMValueRef *
lg_lanes(LlvmGen *g, const IrOp *op, IrValue v)
{
	IrType t = ir_vtype(g->k, v);
	LLVMValueRef *l;
	int i;

	if (defined(g, v) && g->lanes[v])
		return g->lanes[v];
	if (defined(g, v))
		lg_error(g, op, "%%%d is not a fragment", v);
	else
		lg_error(g, op, "operand %%%d of '%s' has no definition before its use", v,
			 ir_opinfo[op->opc].name);
	l = arena_alloc(g->arena, (size_t)(t.lanes > 0 ? t.lanes : 1) * sizeof *l);
	for (i = 0; i < t.lanes; i++)
		l[i] = LLVMGetPoison(lg_type(g, ir_scalar((IrBase)t.base)));
	return l;
}

void
lg_bind_lanes(LlvmGen *g, IrValue v, LLVMValueRef *lanes, int n)
{
	g->lanes[v] = arena_alloc(g->arena, (size_t)n * sizeof *lanes);
	memcpy(g->lanes[v], lanes, (size_t)n * sizeof *lanes);
	g->vals[v] = NULL;
}

void
lg_bind(LlvmGen *g, IrValue v, LLVMValueRef r)
{
	IrType t = ir_vtype(g->k, v);
	LLVMValueRef *l;
	int i;

	if (!lg_is_frag(t)) {
		g->vals[v] = r;
		g->lanes[v] = NULL;
		return;
	}
	l = arena_alloc(g->arena, (size_t)t.lanes * sizeof *l);
	for (i = 0; i < t.lanes; i++)
		l[i] = LLVMBuildExtractElement(g->b, r, LLVMConstInt(LLVMInt32TypeInContext(g->ctx),
								     (unsigned)i, 0), "");
	g->lanes[v] = l;
	g->vals[v] = NULL;
}

void
lg_alias(LlvmGen *g, const IrOp *op, IrValue dst, IrValue src)
{
	if (!defined(g, src)) {
		lg_error(g, op, "%%%d has no definition before its use", src);
		lg_bind(g, dst, LLVMGetPoison(lg_type(g, ir_vtype(g->k, dst))));
		return;
	}
	g->vals[dst] = g->vals[src];
	g->lanes[dst] = g->lanes[src];
}

/* ---- shared memory ---- */

LLVMValueRef
lg_smem_base(LlvmGen *g)
{
	if (!g->smem) {
		/* One dynamic array: the launcher sizes it, and `extern .shared` lets a kernel
		 * use more than the 48 KiB static limit. 1024 covers every swizzle alignment. */
		g->smem = LLVMAddGlobalInAddressSpace(g->mod, LLVMArrayType2(LLVMInt8TypeInContext(g->ctx), 0),
						      "cake_smem", IR_SHARED);
		LLVMSetLinkage(g->smem, LLVMExternalLinkage);
		LLVMSetAlignment(g->smem, 1024);
	}
	return g->smem;
}

LLVMValueRef
lg_arg(LlvmGen *g, const IrOp *op, int i)
{
	return lg_val(g, op, op->args[i]);
}

LLVMTypeRef
lg_i32t(LlvmGen *g)
{
	return LLVMInt32TypeInContext(g->ctx);
}

LLVMTypeRef
lg_i64t(LlvmGen *g)
{
	return LLVMInt64TypeInContext(g->ctx);
}

LLVMValueRef
lg_c32(LlvmGen *g, int64_t v)
{
	return LLVMConstInt(lg_i32t(g), (unsigned long long)v, 0);
}

/* <2 x T> of lo (element 0) and hi: a pair of lanes as one 32- or 64-bit value */
LLVMValueRef
lg_pair(LlvmGen *g, LLVMValueRef lo, LLVMValueRef hi)
{
	LLVMValueRef v = LLVMGetPoison(LLVMVectorType(LLVMTypeOf(lo), 2));

	v = LLVMBuildInsertElement(g->b, v, lo, lg_c32(g, 0), "");
	return LLVMBuildInsertElement(g->b, v, hi, lg_c32(g, 1), "");
}

LLVMValueRef
lg_c64(LlvmGen *g, uint64_t v)
{
	return LLVMConstInt(lg_i64t(g), v, 0);
}

void
lg_result_name(const IrOp *op, char *nm, size_t size)
{
	if (op->nres)
		snprintf(nm, size, "v%d", op->res[0]);
	else if (size)
		nm[0] = 0;
}
