/* backend_ptx/llvm_store.c: stores of many values into a tensor, clipped to its bounds:
 * store.row, and the clipped rows that it shares with wgmma.store (llvm_wgmma.c). Both are
 * one straight run of code per case, with no branch per element: a branch per element is
 * what made LLVM's code generation slow on an epilogue of a few hundred stores. */
#include "llvm_gen.h"

#include <stdio.h>
#include <stdlib.h>

/* One asm statement that stores words[w] at column cols[w] from p (in elements of ebytes
 * bytes) where that column is below left, the columns left in the row (setp, @p st: no
 * branch). With pairs, a word is a b32 of two 16-bit elements (columns cols[w] and
 * cols[w] + 1; mov splits it); else one element (f32, or a 16-bit value). One statement
 * instead of one per element: each asm call costs LLVM's code generation as much as a few
 * dozen plain instructions. */
void
lg_store_clipped(LlvmGen *g, LLVMValueRef p, LLVMValueRef left, LLVMValueRef *words, const int *cols,
		 int nw, int ebytes, int pairs)
{
	Buf text = {0}, cons = {0};
	LLVMValueRef *ins = xcalloc((size_t)nw + 2, sizeof *ins);
	LLVMTypeRef *tys = xcalloc((size_t)nw + 2, sizeof *tys), fty;
	int wide = LLVMGetIntTypeWidth(LLVMTypeOf(left)) == 64, w, e;

	buf_puts(&text, pairs ? "{\n.reg .pred p;\n.reg .b16 lo, hi;\n" : "{\n.reg .pred p;\n");
	buf_puts(&cons, wide ? "l,l" : "l,r");
	ins[0] = p;
	ins[1] = left;
	for (w = 0; w < nw; w++) {
		ins[w + 2] = words[w];
		if (!pairs && ebytes == 2)   /* bf16 and f16 go in as b16 registers */
			ins[w + 2] = LLVMBuildBitCast(g->b, words[w], LLVMInt16TypeInContext(g->ctx), "");
		buf_puts(&cons, pairs ? ",r" : ebytes == 4 ? ",f" : ",h");
		if (pairs)
			buf_printf(&text, "mov.b32 {lo, hi}, $%d;\n", w + 2);
		for (e = 0; e < (pairs ? 2 : 1); e++) {
			int col = cols[w] + e;
			char val[16];

			if (pairs)
				snprintf(val, sizeof val, "%s", e ? "hi" : "lo");
			else
				snprintf(val, sizeof val, "$%d", w + 2);
			buf_printf(&text, "setp.gt.s%d p, $1, %d;\n@p st.global.b%d [$0+%d], %s;\n", wide ? 64 : 32,
				   col, ebytes * 8, col * ebytes, val);
		}
	}
	buf_puts(&text, "}");
	buf_puts(&cons, ",~{memory}");
	for (w = 0; w < nw + 2; w++)
		tys[w] = LLVMTypeOf(ins[w]);
	fty = LLVMFunctionType(LLVMVoidTypeInContext(g->ctx), tys, (unsigned)nw + 2, 0);
	LLVMBuildCall2(g->b, fty, LLVMGetInlineAsm(fty, text.s, (size_t)text.len, cons.s, (size_t)cons.len,
						   1, 0, LLVMInlineAsmDialectATT, 0),
		       ins, (unsigned)nw + 2, "");
	buf_free(&text);
	buf_free(&cons);
	free(ins);
	free(tys);
}

/* v (f32, bf16 or f16) as the element type ety: bf16 and f16 convert through f32. */
static LLVMValueRef
to_elem(LlvmGen *g, LLVMValueRef v, LLVMTypeRef ety)
{
	LLVMTypeRef f32 = LLVMFloatTypeInContext(g->ctx), vt = LLVMTypeOf(v);

	if (vt == ety)
		return v;
	if (vt != f32)
		v = LLVMBuildFPExt(g->b, v, f32, "");
	return ety == f32 ? v : LLVMBuildFPTrunc(g->b, v, ety, "");
}

/* The widest store (bytes, at most 16) whose size divides the row's n * ebytes bytes. */
static int
chunk_bytes(int n, int ebytes)
{
	int w = 16;

	while ((n * ebytes) % w)
		w /= 2;
	return w;
}

/* store.row ptr, nrows, ncols, row, col, v0 .. vN-1 (ir/ops.def). Where the whole row lies
 * inside the tensor and its first element is aligned to the chunk, the values go out in
 * chunks of up to 16 bytes (st.v4 for 4 f32 or 8 16-bit values); otherwise, where the row
 * is inside, one asm statement of predicated scalar stores (lg_store_clipped). */
void
lg_store_row(LlvmGen *g, const IrOp *op)
{
	IrType pt = ir_vtype(g->k, op->args[0]);
	LLVMTypeRef ety = lg_type(g, ir_scalar((IrBase)pt.elem)), ity = lg_type(g, ir_vtype(g->k, op->args[1]));
	LLVMValueRef base = lg_arg(g, op, 0), nrows = lg_arg(g, op, 1), ncols = lg_arg(g, op, 2);
	LLVMValueRef row = lg_arg(g, op, 3), col = lg_arg(g, op, 4), *vals, p, off, rowin, left, full, mis;
	LLVMBasicBlockRef fast, part, clip, join;
	int n = op->nargs - 5, ebytes = ir_type_bytes(ir_scalar((IrBase)pt.elem)), cb = chunk_bytes(n, ebytes);
	int per = cb / ebytes, *cols, j, k;

	vals = xcalloc((size_t)n, sizeof *vals);
	cols = xcalloc((size_t)n, sizeof *cols);
	for (j = 0; j < n; j++) {
		vals[j] = to_elem(g, lg_arg(g, op, 5 + j), ety);
		cols[j] = j;
	}
	off = LLVMBuildNSWAdd(g->b, LLVMBuildNSWMul(g->b, row, ncols, ""), col, "");
	p = LLVMBuildGEP2(g->b, ety, base, &off, 1, "");
	rowin = LLVMBuildICmp(g->b, LLVMIntSLT, row, nrows, "");
	left = LLVMBuildSub(g->b, ncols, col, "");
	full = LLVMBuildAnd(g->b, rowin, LLVMBuildICmp(g->b, LLVMIntSGE, left, LLVMConstInt(ity, (unsigned long long)n, 0), ""), "");
	if (per > 1) {
		mis = LLVMBuildAnd(g->b, LLVMBuildPtrToInt(g->b, p, lg_i64t(g), ""), lg_c64(g, (uint64_t)cb - 1), "");
		full = LLVMBuildAnd(g->b, full, LLVMBuildICmp(g->b, LLVMIntEQ, mis, lg_c64(g, 0), ""), "");
	}
	fast = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "row.full");
	part = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "row.part");
	clip = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "row.clip");
	join = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "row.done");
	LLVMBuildCondBr(g->b, full, fast, part);

	LLVMPositionBuilderAtEnd(g->b, fast);
	for (j = 0; j < n; j += per) {
		LLVMValueRef v = vals[j], o = lg_c64(g, (uint64_t)j), q, st;

		if (per > 1) {
			v = LLVMGetPoison(LLVMVectorType(ety, (unsigned)per));
			for (k = 0; k < per; k++)
				v = LLVMBuildInsertElement(g->b, v, vals[j + k], lg_c32(g, k), "");
		}
		q = j ? LLVMBuildInBoundsGEP2(g->b, ety, p, &o, 1, "") : p;
		st = LLVMBuildStore(g->b, v, q);
		LLVMSetAlignment(st, (unsigned)cb);
	}
	LLVMBuildBr(g->b, join);

	LLVMPositionBuilderAtEnd(g->b, part);
	LLVMBuildCondBr(g->b, rowin, clip, join);
	LLVMPositionBuilderAtEnd(g->b, clip);
	lg_store_clipped(g, p, left, vals, cols, n, ebytes, 0);
	LLVMBuildBr(g->b, join);
	LLVMPositionBuilderAtEnd(g->b, join);
	free(vals);
	free(cols);
}
