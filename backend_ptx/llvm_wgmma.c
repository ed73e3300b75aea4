/* backend_ptx/llvm_wgmma.c: the LLVM IR for wgmma, Hopper's warpgroup MMA (targets with
 * FEAT_WGMMA): the shared-memory matrix descriptors, and the instructions as inline asm
 * (LLVM 22 has no wgmma intrinsics) whose accumulator operands are tied in and out, so
 * that reads of an accumulator are ordered after the wgmma.fence/wait that returns it. */
#include "llvm_gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The shared-memory matrix descriptor of the operand at operand 0 of op (a shared pointer):
 * the start address >> 4 in bits 0-13 or'ed into ir_matrix_desc_bits of its attribute
 * (the swizzle and, N-major, the leading byte offset). version: 0 for wgmma, bit 46 for
 * tcgen05 (its descriptor's fixed 0b001 in bits 46-48). */
LLVMValueRef
lg_matrix_desc(LlvmGen *g, const IrOp *op, uint64_t version, const char *nm)
{
	uint64_t fixed = ir_matrix_desc_bits(op->imm, version);
	LLVMValueRef a;

	if (!fixed) {
		lg_error(g, op, "swizzle %d", IR_DESC_SWIZZLE(op->imm));
		return LLVMGetPoison(lg_i64t(g));
	}
	a = LLVMBuildPtrToInt(g->b, lg_arg(g, op, 0), lg_i32t(g), "");
	a = LLVMBuildZExt(g->b, a, lg_i64t(g), "");
	a = LLVMBuildLShr(g->b, LLVMBuildAnd(g->b, a, lg_c64(g, 0x3ffff), ""), lg_c64(g, 4), "");
	return LLVMBuildOr(g->b, a, lg_c64(g, fixed), nm);
}

/* ---- wgmma: inline asm with the accumulator lanes tied in and out ---- */

/* The asm operands ("words") of IR values: an f32 accumulator gives one f32 word per lane
 * (constraint f), a register A fragment one i32 word per pair of lanes (constraint r), lane
 * 2i in the low half: the .f16x2/.bf16x2 registers of the ISA's A fragment. */
static int
nwords(IrType t)
{
	return ir_is_afrag(t) ? t.lanes / 2 : t.lanes;
}

static LLVMValueRef
pack_pair(LlvmGen *g, LLVMValueRef lo, LLVMValueRef hi)
{
	return LLVMBuildBitCast(g->b, lg_pair(g, lo, hi), lg_i32t(g), "");
}

/* The words of operands [first, first + n) of op, flattened. */
static int
acc_lanes(LlvmGen *g, const IrOp *op, int first, int n, LLVMValueRef *out)
{
	int i, j, m = 0;

	for (i = first; i < first + n; i++) {
		IrType t = ir_vtype(g->k, op->args[i]);
		LLVMValueRef v, *l;

		if (ir_is_afrag(t)) {
			l = lg_lanes(g, op, op->args[i]);
			for (j = 0; j < t.lanes; j += 2)
				out[m++] = pack_pair(g, l[j], l[j + 1]);
			continue;
		}
		if (lg_is_frag(t)) {
			l = lg_lanes(g, op, op->args[i]);
			for (j = 0; j < t.lanes; j++)
				out[m++] = l[j];
			continue;
		}
		v = lg_arg(g, op, i);
		if (t.lanes == 1) {
			out[m++] = v;
			continue;
		}
		for (j = 0; j < t.lanes; j++)
			out[m++] = LLVMBuildExtractElement(g->b, v, lg_c32(g, j), "");
	}
	return m;
}

/* Rebuilds op's results (one per operand, same types) from the asm's output words. */
static void
bind_acc_results(LlvmGen *g, const IrOp *op, LLVMValueRef res, int nlanes)
{
	int i, j, m = 0;

	for (i = 0; i < op->nres; i++) {
		IrType t = ir_vtype(g->k, op->res[i]);
		LLVMValueRef v;
		char nm[32];

		snprintf(nm, sizeof nm, "v%d", op->res[i]);
		if (ir_is_afrag(t)) {
			LLVMTypeRef pt = LLVMVectorType(lg_type(g, ir_scalar((IrBase)t.base)), 2);
			LLVMValueRef *l = xcalloc((size_t)t.lanes, sizeof *l);

			for (j = 0; j < t.lanes; j += 2, m++) {
				LLVMValueRef w = nlanes == 1 ? res : LLVMBuildExtractValue(g->b, res, (unsigned)m, "");

				w = LLVMBuildBitCast(g->b, w, pt, "");
				l[j] = LLVMBuildExtractElement(g->b, w, lg_c32(g, 0), "");
				l[j + 1] = LLVMBuildExtractElement(g->b, w, lg_c32(g, 1), "");
			}
			lg_bind_lanes(g, op->res[i], l, t.lanes);
			free(l);
			continue;
		}
		if (t.lanes == 1) {
			v = nlanes == 1 ? res : LLVMBuildExtractValue(g->b, res, (unsigned)m, nm);
			m++;
		} else if (lg_is_frag(t)) {
			LLVMValueRef *l = xcalloc((size_t)t.lanes, sizeof *l);

			for (j = 0; j < t.lanes; j++, m++) {
				if (g->named)
					snprintf(nm, sizeof nm, "v%d.%d", op->res[i], j);
				l[j] = LLVMBuildExtractValue(g->b, res, (unsigned)m, g->named ? nm : "");
			}
			lg_bind_lanes(g, op->res[i], l, t.lanes);
			free(l);
			continue;
		} else {
			v = LLVMGetPoison(lg_type(g, t));
			for (j = 0; j < t.lanes; j++, m++) {
				LLVMValueRef e = nlanes == 1 ? res : LLVMBuildExtractValue(g->b, res, (unsigned)m, "");

				v = LLVMBuildInsertElement(g->b, v, e, lg_c32(g, j), j == t.lanes - 1 ? nm : "");
			}
		}
		lg_bind(g, op->res[i], v);
	}
}

/* One volatile asm statement: nout outputs (f32 words "=f", i32 words "=r") tied to the
 * first nout inputs, then the extra inputs with their constraints; clobbers memory.
 * Returns the call. */
static LLVMValueRef
tied_asm(LlvmGen *g, const char *text, LLVMValueRef *ins, int nout, int nextra, const char *extra_cons)
{
	LLVMTypeRef *elems = NULL, *argt, rt;
	Buf cons = {0};
	LLVMValueRef fn, r;
	int i, nin = nout + nextra;

	argt = xcalloc((size_t)nin + 1, sizeof *argt);
	for (i = 0; i < nin; i++)
		argt[i] = LLVMTypeOf(ins[i]);
	for (i = 0; i < nout; i++)
		buf_printf(&cons, "%s=%c", i ? "," : "", argt[i] == lg_i32t(g) ? 'r' : 'f');
	for (i = 0; i < nout; i++)
		buf_printf(&cons, "%s%d", cons.len ? "," : "", i);
	if (extra_cons && *extra_cons)
		buf_printf(&cons, "%s%s", cons.len ? "," : "", extra_cons);
	buf_printf(&cons, "%s~{memory}", cons.len ? "," : "");
	if (nout == 0) {
		rt = LLVMVoidTypeInContext(g->ctx);
	} else if (nout == 1) {
		rt = argt[0];
	} else {
		elems = xcalloc((size_t)nout, sizeof *elems);
		for (i = 0; i < nout; i++)
			elems[i] = argt[i];
		rt = LLVMStructTypeInContext(g->ctx, elems, (unsigned)nout, 0);
	}
	fn = LLVMGetInlineAsm(LLVMFunctionType(rt, argt, (unsigned)nin, 0), text, strlen(text), cons.s,
			      (size_t)cons.len, 1, 0, LLVMInlineAsmDialectATT, 0);
	r = LLVMBuildCall2(g->b, LLVMFunctionType(rt, argt, (unsigned)nin, 0), fn, ins, (unsigned)nin, "");
	buf_free(&cons);
	free(argt);
	free(elems);
	return r;
}

/* An asm statement insn with every word of op's operands tied through to its results (one
 * per operand, same types): wgmma.fence / wgmma.wait_group n (the register A fragments stay
 * live, in the registers the wgmma reads, until the wait) and tcgen05.wait::ld (its
 * operands are tcgen05.ld results). */
void
lg_tied_sync(LlvmGen *g, const IrOp *op, const char *insn)
{
	LLVMValueRef *lanes;
	int n = 0, i, nl;

	for (i = 0; i < op->nargs; i++)
		n += nwords(ir_vtype(g->k, op->args[i]));
	lanes = xcalloc((size_t)n + 1, sizeof *lanes);
	nl = acc_lanes(g, op, 0, op->nargs, lanes);
	if (nl != n || op->nres != op->nargs) {
		lg_error(g, op, "%d accumulator lanes, %d results", nl, op->nres);
		free(lanes);
		return;
	}
	bind_acc_results(g, op, tied_asm(g, insn, lanes, n, 0, NULL), n);
	free(lanes);
}

/* Whether wgmma op takes A from registers (the RS form). */
static int
is_rs(LlvmGen *g, const IrOp *op)
{
	return ir_is_afrag(ir_vtype(g->k, op->args[1]));
}

/* The asm text of one wgmma: accumulator lanes $0..lanes-1, the B descriptor $b, the
 * scale-d predicate p (set by the caller) and A: the descriptor $a (SS form) or the four
 * registers $a..$a+3 (RS form, which has no transpose flag for A). */
static void
wgmma_text(Buf *text, const IrOp *op, int rs, int lanes, int a, int b)
{
	int n = (int)(op->imm & 0xffff), kind = (int)((op->imm >> 16) & 0xf), i;
	const char *ab = ir_mma_kind_name(kind);

	buf_printf(text, "wgmma.mma_async.sync.aligned.m64n%dk%d.f32.%s.%s {", n, ir_mma_kind_k(kind), ab, ab);
	for (i = 0; i < lanes; i++)
		buf_printf(text, "%s$%d", i ? ", " : "", i);
	/* the transpose immediates exist for the 16-bit kinds only (K-major: 0; B N-major: 1) */
	if (rs)
		buf_printf(text, "}, {$%d, $%d, $%d, $%d}, $%d, p, 1, 1, %d;\n", a, a + 1, a + 2, a + 3, b,
			   (op->imm & IR_WGMMA_BT) != 0);
	else if (kind <= IR_MMA_F16)
		buf_printf(text, "}, $%d, $%d, p, 1, 1, 0, %d;\n", a, b, (op->imm & IR_WGMMA_BT) != 0);
	else
		buf_printf(text, "}, $%d, $%d, p, 1, 1;\n", a, b);
}

static int
wgmma_ok(LlvmGen *g, const IrOp *op)
{
	int n = (int)(op->imm & 0xffff), step = IR_WGMMA_STEP(op->imm);
	IrType a = ir_vtype(g->k, op->args[1]);

	if (n < 8 || n > 256 || n % 8 || ir_vtype(g->k, op->args[0]).lanes != n / 2 || op->nres != 1 ||
	    ((op->imm >> 16) & 0xf) >= IR_MMA_NKINDS ||
	    (ir_is_afrag(a) ? 8 * (step + 1) > a.lanes : step != 0)) {
		lg_error(g, op, "wgmma[%lld] with a %d-lane accumulator", (long long)op->imm,
			 ir_vtype(g->k, op->args[0]).lanes);
		return 0;
	}
	return 1;
}

/* An f32 accumulator a wgmma group chains: a fragment, or f32x4 (m64n8). */
static int
is_acc(IrType t)
{
	return t.base == IR_F32 && (lg_is_frag(t) || t.lanes == 4);
}

/* A wgmma group as the IR writes it: wgmma.fence of one accumulator (and, for the RS form,
 * of one register A fragment), wgmmas that chain the accumulator (each takes the previous
 * one's result) and read A from the fence's second result, pure ops that compute their
 * descriptors, and wgmma.commit. Returns the index of the commit in r, or -1 when ops[i]
 * does not start one or a link of the chain (the fence's result, a wgmma's but the last)
 * has another use. */
static int
wgmma_group_end(LlvmGen *g, const IrRegion *r, int i)
{
	const IrOp *f = &r->ops[i];
	IrValue chain, a = f->nargs == 2 ? f->res[1] : 0;
	int j, k, nmma = 0;

	if (f->opc != IR_WGMMA_FENCE || f->nargs < 1 || f->nargs > 2 || f->nres != f->nargs ||
	    !is_acc(ir_vtype(g->k, f->res[0])) || (a && !ir_is_afrag(ir_vtype(g->k, a))))
		return -1;
	chain = f->res[0];
	for (j = i + 1; j < r->nops; j++) {
		const IrOp *op = &r->ops[j];

		if (op->opc == IR_WGMMA_COMMIT)
			return nmma && g->uses[chain] > 0 ? j : -1;
		if (op->opc == IR_WGMMA && op->args[0] == chain && g->uses[chain] == 1 &&
		    (is_rs(g, op) ? op->args[1] == a : 1)) {
			chain = op->res[0];
			nmma++;
			continue;
		}
		if (!(ir_opinfo[op->opc].flags & OPF_PURE) || op->nregions)
			return -1;
		for (k = 0; k < op->nargs; k++)
			if (op->args[k] == chain || (a && op->args[k] == a))
				return -1;
	}
	return -1;
}

/* Whether the first wgmma of the group ops[i + 1 .. end) has the constant scale-d 1: only
 * then does a zero accumulator make it the same wgmma with scale-d 0. */
static int
first_scale_is_one(LlvmGen *g, const IrRegion *r, int i, int end)
{
	LLVMValueRef s;

	for (i++; i < end && r->ops[i].opc != IR_WGMMA; i++)
		;
	if (i == end)
		return 0;
	s = lg_arg(g, &r->ops[i], 3);
	return LLVMIsAConstantInt(s) && LLVMConstIntGetZExtValue(s) == 1;
}

/* The wgmma.wait[0] right after the group's commit (ops[end + 1]) that retires this group
 * alone (its operands: the group's result, its A fragment), or NULL. Such a wait goes into
 * the group's asm statement: as a statement of its own, it ties the lanes through once
 * more, and the copies instruction selection makes for that tie read the accumulator
 * while the group runs, which makes ptxas serialize every wgmma of the kernel (C7514). */
static const IrOp *
fused_wait(const IrRegion *r, int end, IrValue result, IrValue a)
{
	const IrOp *w = end + 1 < r->nops ? &r->ops[end + 1] : NULL;
	int k;

	if (!w || w->opc != IR_WGMMA_WAIT || w->imm != 0 || w->nres != w->nargs)
		return NULL;
	for (k = 0; k < w->nargs; k++)
		if (w->args[k] != result && (!a || w->args[k] != a))
			return NULL;
	return w;
}

/* Lowers a wgmma group (see wgmma_group_end) into one asm statement: the fence, every
 * wgmma and the commit, with the accumulator tied in once and out once and the register A
 * fragment's words passed in once. Per-wgmma asm would tie all lanes through each
 * instruction, and instruction selection would copy them each time. The fence is inside
 * the statement, so A registers computed just before it (a conversion of an accumulator)
 * are written before the fence, as the ISA asks. A group that starts from a zero
 * accumulator (`var s: f32acc[64, N] = 0.0` before each S = Q K^T) runs its first wgmma
 * with scale-d 0 and ties in undefined lanes: the 64 or so moves of zeros a thread would
 * make every time go away. Returns the number of ops lowered, or 0 when r->ops[i] starts
 * no group. */
int
lg_wgmma_group(LlvmGen *g, const IrRegion *r, int i)
{
	int end = wgmma_group_end(g, r, i), j, lanes, nin, nmma = 0, abase = 0, zero = 1;
	const IrOp *f = &r->ops[i], *last = NULL, *wait;
	LLVMValueRef *ins;
	IrValue scale = 0;
	Buf text = {0}, cons = {0};

	if (end < 0)
		return 0;
	lanes = ir_vtype(g->k, f->res[0]).lanes;
	nin = lanes + (f->nargs == 2 ? nwords(ir_vtype(g->k, f->args[1])) : 0);
	for (j = i + 1; j < end; j++)
		if (r->ops[j].opc == IR_WGMMA)
			nmma++;
	ins = xcalloc((size_t)nin + 3 * (size_t)nmma, sizeof *ins);
	acc_lanes(g, f, 0, f->nargs, ins);
	if (f->nargs == 2) {
		/* the fence passes A through unchanged: its result is the operand's lanes */
		IrType at = ir_vtype(g->k, f->args[1]);

		lg_bind_lanes(g, f->res[1], lg_lanes(g, f, f->args[1]), at.lanes);
		abase = lanes;
		for (j = lanes; j < nin; j++)
			buf_printf(&cons, ",r");
	}
	for (j = i + 1; j < end; j++) {
		if (r->ops[j].opc != IR_WGMMA)
			lg_op(g, &r->ops[j]);
		else if (!wgmma_ok(g, &r->ops[j])) {
			buf_free(&cons);
			free(ins);
			return end - i + 1;
		}
	}
	/* after the group's pure ops: the first scale-d may be one of them */
	zero = first_scale_is_one(g, r, i, end);
	for (j = 0; j < lanes && zero; j++)
		zero = LLVMIsNull(ins[j]);
	for (j = 0; j < lanes && zero; j++)
		ins[j] = LLVMGetUndef(LLVMTypeOf(ins[j]));
	buf_puts(&text, "{\n.reg .pred p;\nwgmma.fence.sync.aligned;\n");
	for (j = i + 1; j < end; j++) {
		const IrOp *op = &r->ops[j];
		int rs, a;
		LLVMValueRef s;

		if (op->opc != IR_WGMMA)
			continue;
		rs = is_rs(g, op);
		if (rs) {
			a = lanes + abase + 4 * IR_WGMMA_STEP(op->imm);
		} else {
			ins[nin] = lg_arg(g, op, 1);
			a = lanes + nin++;
			buf_printf(&cons, ",l");
		}
		ins[nin] = lg_arg(g, op, 2);
		buf_printf(&cons, ",l");
		if (op->args[3] != scale || zero) {
			/* a constant scale-d (the usual case) is an immediate; 0 for the first
			 * wgmma from a zero accumulator */
			s = zero ? lg_c32(g, 0) : LLVMBuildZExt(g->b, lg_arg(g, op, 3), lg_i32t(g), "");
			ins[nin + 1] = s;
			buf_printf(&cons, ",%s", LLVMIsAConstantInt(s) ? "n" : "r");
			buf_printf(&text, "setp.ne.b32 p, $%d, 0;\n", lanes + nin + 1);
			scale = zero ? 0 : op->args[3];
			zero = 0;
			wgmma_text(&text, op, rs, lanes, a, lanes + nin);
			nin += 2;
		} else {
			wgmma_text(&text, op, rs, lanes, a, lanes + nin);
			nin += 1;
		}
		last = op;
	}
	wait = last ? fused_wait(r, end, last->res[0], f->nargs == 2 ? f->res[1] : 0) : NULL;
	buf_printf(&text, "wgmma.commit_group.sync.aligned;\n%s}",
		   wait ? "wgmma.wait_group.sync.aligned 0;\n" : "");
	bind_acc_results(g, last, tied_asm(g, text.s, ins, lanes, nin - lanes, cons.s + 1), lanes);
	for (j = 0; wait && j < wait->nres; j++)
		lg_alias(g, wait, wait->res[j], wait->args[j]);
	buf_free(&text);
	buf_free(&cons);
	free(ins);
	return end - i + 1 + (wait != NULL);
}

/* One wgmma on its own (outside a group): the accumulator tied through, A's descriptor or
 * its four registers of the k16 slice, B's descriptor and scale-d. */
static void
wgmma(LlvmGen *g, const IrOp *op)
{
	int lanes = (int)(op->imm & 0xffff) / 2, rs, na, i;
	LLVMValueRef *ins;
	Buf text = {0}, cons = {0};

	if (!wgmma_ok(g, op))
		return;
	rs = is_rs(g, op);
	na = rs ? 4 : 1;
	ins = xcalloc((size_t)lanes + (size_t)na + 2, sizeof *ins);
	acc_lanes(g, op, 0, 1, ins);
	if (rs) {
		LLVMValueRef *l = lg_lanes(g, op, op->args[1]);
		int base = 8 * IR_WGMMA_STEP(op->imm);

		for (i = 0; i < 4; i++) {
			ins[lanes + i] = pack_pair(g, l[base + 2 * i], l[base + 2 * i + 1]);
			buf_puts(&cons, "r,");
		}
	} else {
		ins[lanes] = lg_arg(g, op, 1);
		buf_puts(&cons, "l,");
	}
	ins[lanes + na] = lg_arg(g, op, 2);
	ins[lanes + na + 1] = LLVMBuildZExt(g->b, lg_arg(g, op, 3), lg_i32t(g), "");
	/* a constant scale-d (the usual case) is an immediate, not a register to set up */
	buf_puts(&cons, LLVMIsAConstantInt(ins[lanes + na + 1]) ? "l,n" : "l,r");
	/* operands: $0..$lanes-1 the outputs, then the tied inputs, then A, desc B, scale-d */
	buf_printf(&text, "{\n.reg .pred p;\nsetp.ne.b32 p, $%d, 0;\n", 2 * lanes + na + 1);
	wgmma_text(&text, op, rs, lanes, 2 * lanes, 2 * lanes + na);
	buf_puts(&text, "}");
	bind_acc_results(g, op, tied_asm(g, text.s, ins, lanes, na + 2, cons.s), lanes);
	buf_free(&text);
	buf_free(&cons);
	free(ins);
}

/* wgmma.wait_group n. A wait whose accumulator needs no ties (find_untied_waits in
 * llvm_kernel.c) passes its lanes through untouched. */
static void
wgmma_wait(LlvmGen *g, const IrOp *op)
{
	char text[64];

	snprintf(text, sizeof text, "wgmma.wait_group.sync.aligned %d;", (int)op->imm);
	if (op->nargs == 1 && op->nres == 1 && g->untied[op->res[0]] && lg_is_frag(ir_vtype(g->k, op->args[0]))) {
		tied_asm(g, text, NULL, 0, 0, NULL);
		lg_bind_lanes(g, op->res[0], lg_lanes(g, op, op->args[0]), ir_vtype(g->k, op->args[0]).lanes);
		return;
	}
	lg_tied_sync(g, op, text);
}

/* ---- wgmma.store: an accumulator fragment into a tensor ---- */

/* The first row and column of this thread's fragment elements (i32), as wgmma.store and
 * wgmma.load lay them out: with t = 32 (warpid & 3) + laneid, the linear thread index mod
 * 128, row 16 (t / 32) + (t % 32) / 4 and column 2 (t % 4); lane 4 j + 2 i + e adds 8 i
 * rows and 8 j + e columns. */
static void
frag_thread(LlvmGen *g, LLVMValueRef *row, LLVMValueRef *col)
{
	LLVMValueRef t = LLVMBuildAnd(g->b, lg_linear_tid(g), lg_c32(g, 127), "");

	*row = LLVMBuildAdd(g->b, LLVMBuildShl(g->b, LLVMBuildLShr(g->b, t, lg_c32(g, 5), ""), lg_c32(g, 4), ""),
			    LLVMBuildLShr(g->b, LLVMBuildAnd(g->b, t, lg_c32(g, 31), ""), lg_c32(g, 2), ""), "");
	*col = LLVMBuildShl(g->b, LLVMBuildAnd(g->b, t, lg_c32(g, 3), ""), lg_c32(g, 1), "");
}

/* The thread's two rows of a 64 x N tile at (row0, col0) of a row-major tensor of ncols
 * columns: p[i], the address of its first element of row i (rows 8 apart), and with nrows
 * given, rowin[i], whether that row is inside. Returns the thread's first column. */
static LLVMValueRef
frag_rows(LlvmGen *g, LLVMValueRef base, LLVMTypeRef ety, LLVMValueRef row0, LLVMValueRef col0, LLVMValueRef ncols,
	  LLVMValueRef *p, LLVMValueRef *rowin, LLVMValueRef nrows)
{
	LLVMTypeRef ity = LLVMTypeOf(ncols);
	LLVMValueRef rb, cb;
	int i;

	frag_thread(g, &rb, &cb);
	rb = LLVMBuildNSWAdd(g->b, row0, LLVMBuildZExt(g->b, rb, ity, ""), "");
	cb = LLVMBuildNSWAdd(g->b, col0, LLVMBuildZExt(g->b, cb, ity, ""), "");
	for (i = 0; i < 2; i++) {
		LLVMValueRef r = i ? LLVMBuildNSWAdd(g->b, rb, LLVMConstInt(ity, 8, 0), "") : rb;
		LLVMValueRef off = LLVMBuildNSWAdd(g->b, LLVMBuildNSWMul(g->b, r, ncols, ""), cb, "");

		if (rowin)
			rowin[i] = LLVMBuildICmp(g->b, LLVMIntSLT, r, nrows, "");
		p[i] = LLVMBuildGEP2(g->b, ety, base, &off, 1, "");
	}
	return cb;
}

/* frag_thread's row with paired rows (IR_TILE_PAIRED, ir_frag_row): 16 (t / 32) + 2 ((t %
 * 32) / 4), twice frag_thread's less 16 (t / 32); the thread's second row is the next. */
static LLVMValueRef
paired_row(LlvmGen *g, LLVMValueRef row)
{
	LLVMValueRef t = LLVMBuildAnd(g->b, lg_linear_tid(g), lg_c32(g, 127), "");

	return LLVMBuildSub(g->b, LLVMBuildShl(g->b, row, lg_c32(g, 1), ""),
			    LLVMBuildShl(g->b, LLVMBuildLShr(g->b, t, lg_c32(g, 5), ""), lg_c32(g, 4), ""), "");
}

/* ---- transposed tiles (IR_TILE_TRANSPOSED) ---- */

/* The thread's first row and column of a transposed tile's fragment (rb, cb, in the
 * index type), and in[0], the address of its element (rb, cb) (used only where inside),
 * in[1], the column stride in bytes: what the asm of wgmma_load_transposed and
 * wgmma_store_transposed address every lane from. */
static void
transposed_start(LlvmGen *g, const IrOp *op, int ptr, int rows, LLVMValueRef *rb, LLVMValueRef *cb, LLVMValueRef *in)
{
	IrType pt = ir_vtype(g->k, op->args[ptr]);
	LLVMValueRef nrows = lg_arg(g, op, rows), off;
	LLVMTypeRef ity = LLVMTypeOf(nrows), i64 = lg_i64t(g);
	int eb = ir_type_bytes(ir_scalar((IrBase)pt.elem));

	frag_thread(g, rb, cb);
	if (op->imm & IR_TILE_PAIRED)
		*rb = paired_row(g, *rb);
	*rb = LLVMBuildAdd(g->b, lg_arg(g, op, rows + 2), LLVMBuildZExt(g->b, *rb, ity, ""), "");
	*cb = LLVMBuildAdd(g->b, lg_arg(g, op, rows + 3), LLVMBuildZExt(g->b, *cb, ity, ""), "");
	off = LLVMBuildAdd(g->b, LLVMBuildMul(g->b, LLVMBuildSExt(g->b, *cb, i64, ""), LLVMBuildSExt(g->b, nrows, i64, ""), ""),
			   LLVMBuildSExt(g->b, *rb, i64, ""), "");
	in[0] = LLVMBuildGEP2(g->b, lg_type(g, ir_scalar((IrBase)pt.elem)), lg_arg(g, op, ptr), &off, 1, "");
	in[1] = LLVMBuildMul(g->b, LLVMBuildSExt(g->b, nrows, i64, ""), LLVMConstInt(i64, (unsigned long long)eb, 0), "");
}

/* An inline asm call of text with constraints cons (side effects) on ins[0 .. nin); with
 * nout > 0 its result is a struct of nout f32 outputs, listed first in cons. */
static LLVMValueRef
asm_call(LlvmGen *g, const Buf *text, const Buf *cons, LLVMValueRef *ins, int nin, int nout)
{
	LLVMTypeRef *tys = xcalloc((size_t)(nin + nout) + 1, sizeof *tys), rty, fty;
	LLVMValueRef r;
	int i;

	for (i = 0; i < nout; i++)
		tys[nin + i] = LLVMFloatTypeInContext(g->ctx);
	rty = nout ? LLVMStructTypeInContext(g->ctx, tys + nin, (unsigned)nout, 0) : LLVMVoidTypeInContext(g->ctx);
	for (i = 0; i < nin; i++)
		tys[i] = LLVMTypeOf(ins[i]);
	fty = LLVMFunctionType(rty, tys, (unsigned)nin, 0);
	r = LLVMBuildCall2(g->b, fty, LLVMGetInlineAsm(fty, text->s, (size_t)text->len, cons->s, (size_t)cons->len, 1, 0,
						       LLVMInlineAsmDialectATT, 0), ins, (unsigned)nin, "");
	free(tys);
	return r;
}

/* Whether a paired transposed tile (IR_TILE_PAIRED) takes its straight path: the thread's
 * two rows (rb, rb + 1) and every column (cb .. cb + kmax) inside, its first element addr
 * and the column stride (bytes) aligned to the pair's 2 eb bytes. Then each column's pair
 * is one access; else the predicated one-element path. */
static LLVMValueRef
paired_whole(LlvmGen *g, LLVMValueRef addr, LLVMValueRef stride, LLVMValueRef rb, LLVMValueRef nrows, LLVMValueRef cb,
	     LLVMValueRef ncols, int kmax, int eb)
{
	LLVMTypeRef ity = LLVMTypeOf(rb), i64 = lg_i64t(g);
	LLVMValueRef zero = LLVMConstInt(ity, 0, 0), in, al;

	in = LLVMBuildAnd(g->b, LLVMBuildICmp(g->b, LLVMIntSGE, rb, zero, ""),
			  LLVMBuildICmp(g->b, LLVMIntSLT, LLVMBuildAdd(g->b, rb, LLVMConstInt(ity, 1, 0), ""), nrows, ""), "");
	in = LLVMBuildAnd(g->b, in, LLVMBuildICmp(g->b, LLVMIntSGE, cb, zero, ""), "");
	in = LLVMBuildAnd(g->b, in, LLVMBuildICmp(g->b, LLVMIntSLT,
						   LLVMBuildAdd(g->b, cb, LLVMConstInt(ity, (unsigned long long)kmax, 0), ""),
						   ncols, ""), "");
	al = LLVMBuildOr(g->b, LLVMBuildPtrToInt(g->b, addr, i64, ""), stride, "");
	al = LLVMBuildICmp(g->b, LLVMIntEQ, LLVMBuildAnd(g->b, al, LLVMConstInt(i64, (unsigned long long)(2 * eb - 1), 0), ""),
			   LLVMConstInt(i64, 0, 0), "");
	return LLVMBuildAnd(g->b, in, al, "");
}

/* The per-column part of a transposed tile's store, one element at a time: per column of
 * the thread's, its address (mad from the thread's first element $0 and the column stride
 * $1), then the two rows' stores (rows step apart: 8, or 1 when paired), each predicated
 * on its row and column being inside (r0, r1 and $3, the columns left); values from $4.
 * With pairs, the straight path instead: one 2-element store per column. */
static void
store_columns(Buf *text, int nl, int eb, int w, int step, int pairs)
{
	int j;

	for (j = 0; j < nl / 2; j++) {  /* column k = 8 (j / 2) + j % 2: lanes 4 (j / 2) + j % 2 (+2: row 1) */
		int k = 8 * (j / 2) + j % 2, lane = 4 * (j / 2) + j % 2;

		buf_printf(text, "mad.lo.s64 a, $1, %d, $0;\n", k);
		if (pairs) {
			buf_printf(text, "st.global.v2.b%d [a], {$%d, $%d};\n", 8 * eb, 4 + lane, 4 + lane + 2);
			continue;
		}
		buf_printf(text, "setp.gt.s%d pc, $3, %d;\n", w, k);
		buf_printf(text, "and.pred p, pc, r0;\n@p st.global.b%d [a], $%d;\n", 8 * eb, 4 + lane);
		buf_printf(text, "and.pred p, pc, r1;\n@p st.global.b%d [a+%d], $%d;\n", 8 * eb, step * eb, 4 + lane + 2);
	}
}

/* wgmma.store[transposed] (IR_TILE_TRANSPOSED): element (r, c) of the tile at c * nrows +
 * r, one scalar store each (a warp's store writes 8 consecutive elements in each of 4
 * columns: whole 32-byte sectors for f32), in one asm statement (store_columns; $2 is the
 * rows left). No branch and no per-lane address in LLVM's IR: 64 of those per store cost
 * LLVM's straight-line strength reduction 75 ms on cp_fixup's MMA design (three such
 * stores). With paired rows, a column's two elements are adjacent: where paired_whole
 * holds (input $4 + nl), one 2-element store each (half the store instructions), else the
 * same predicated stores; the branch is inside the asm (labels made unique by ${:uid}):
 * as two LLVM blocks, ptxas kept 40 more registers live in cp_fixup's MMA design. */
static void
wgmma_store_transposed(LlvmGen *g, const IrOp *op, LLVMValueRef *acc, int nl)
{
	IrType pt = ir_vtype(g->k, op->args[0]), it = ir_vtype(g->k, op->args[2]);
	LLVMTypeRef ety = lg_type(g, ir_scalar((IrBase)pt.elem));
	LLVMValueRef rb, cb, *ins = xcalloc((size_t)nl + 5, sizeof *ins);
	int eb = ir_type_bytes(ir_scalar((IrBase)pt.elem)), w = it.base == IR_I64 ? 64 : 32, l;
	int paired = (op->imm & IR_TILE_PAIRED) != 0, step = paired ? 1 : 8;
	Buf text = {0}, cons = {0};

	transposed_start(g, op, 0, 2, &rb, &cb, ins);
	ins[2] = LLVMBuildSub(g->b, lg_arg(g, op, 2), rb, "");  /* rows left from rb */
	ins[3] = LLVMBuildSub(g->b, lg_arg(g, op, 3), cb, "");  /* columns left from cb */
	buf_printf(&cons, "l,l,%s,%s", w == 64 ? "l" : "r", w == 64 ? "l" : "r");
	for (l = 0; l < nl; l++) {
		LLVMValueRef v = acc[l];

		if (pt.elem != IR_F32)
			v = LLVMBuildBitCast(g->b, LLVMBuildFPTrunc(g->b, v, ety, ""), LLVMInt16TypeInContext(g->ctx), "");
		ins[4 + l] = v;
		buf_puts(&cons, eb == 4 ? ",f" : ",h");
	}
	buf_printf(&text, "{\n.reg .pred r0, r1, pc, p%s;\n.reg .b64 a;\n", paired ? ", pf" : "");
	if (paired) {
		ins[4 + nl] = LLVMBuildZExt(g->b, paired_whole(g, ins[0], ins[1], rb, lg_arg(g, op, 2), cb, lg_arg(g, op, 3),
							       8 * (nl / 4 - 1) + 1, eb), lg_i32t(g), "");
		buf_puts(&cons, ",r");
		buf_printf(&text, "setp.ne.b32 pf, $%d, 0;\n@!pf bra $$Lelem${:uid};\n", 4 + nl);
		store_columns(&text, nl, eb, w, step, 1);
		buf_puts(&text, "bra.uni $$Ldone${:uid};\n$$Lelem${:uid}:\n");
	}
	buf_printf(&text, "setp.gt.s%d r0, $2, 0;\nsetp.gt.s%d r1, $2, %d;\n", w, w, step);
	store_columns(&text, nl, eb, w, step, 0);
	if (paired)
		buf_puts(&text, "$$Ldone${:uid}:\n");
	buf_puts(&text, "}");
	buf_puts(&cons, ",~{memory}");
	asm_call(g, &text, &cons, ins, nl + 4 + paired, 0);
	buf_free(&text);
	buf_free(&cons);
	free(ins);
}

/* ---- tiles of shared memory (a ptr.shared operand) ---- */

static void bind_fragment(LlvmGen *g, const IrOp *op, LLVMValueRef *lanes, int nl);

/* The shared address of element (r, c) of a shared tile (i32 values): ir_tile_shared_byte,
 * then ir_swizzle, in LLVM's integers. nrows and ncols are the op's operands 2 and 3 of
 * wgmma.load (at) or 3 and 4 of wgmma.store. */
static LLVMValueRef
shared_elem(LlvmGen *g, const IrOp *op, int at, LLVMValueRef r, LLVMValueRef c)
{
	IrType pt = ir_vtype(g->k, op->args[0]);
	LLVMValueRef nrows = lg_arg(g, op, at), ncols = lg_arg(g, op, at + 1), off, a;
	int eb = ir_type_bytes(ir_scalar((IrBase)pt.elem)), span = IR_TILE_SWIZZLE(op->imm);

	nrows = LLVMBuildTruncOrBitCast(g->b, nrows, lg_i32t(g), "");
	ncols = LLVMBuildTruncOrBitCast(g->b, ncols, lg_i32t(g), "");
	if (op->imm & IR_TILE_TRANSPOSED) {
		LLVMValueRef t = r;

		r = c, c = t;
		t = nrows, nrows = ncols, ncols = t;
	}
	if (!span) {
		off = LLVMBuildMul(g->b, LLVMBuildAdd(g->b, LLVMBuildMul(g->b, r, ncols, ""), c, ""), lg_c32(g, eb), "");
	} else {
		int w = span / eb;
		LLVMValueRef panel = LLVMBuildLShr(g->b, c, lg_c32(g, __builtin_ctz((unsigned)w)), "");

		off = LLVMBuildMul(g->b, LLVMBuildAdd(g->b, LLVMBuildMul(g->b, panel, nrows, ""), r, ""), lg_c32(g, span), "");
		off = LLVMBuildAdd(g->b, off, LLVMBuildMul(g->b, LLVMBuildAnd(g->b, c, lg_c32(g, w - 1), ""),
							   lg_c32(g, eb), ""), "");
	}
	/* The swizzle xors address bits 7.. into bits 4..; the tile starts at a multiple of 8
	 * rows of span bytes (the buffer's alignment, rows(start, n) at multiples of 8), so
	 * the start's bits 4 .. 9 are zero and the swizzle of the offset alone is the same:
	 * the offset depends on the thread only, and LLVM takes it out of the loop around a
	 * staged buffer's changing stage. */
	if (span)
		off = LLVMBuildXor(g->b, off, LLVMBuildShl(g->b, LLVMBuildAnd(g->b, LLVMBuildLShr(g->b, off, lg_c32(g, 7), ""),
									 lg_c32(g, span / 16 - 1), ""), lg_c32(g, 4), ""), "");
	a = LLVMBuildAdd(g->b, LLVMBuildPtrToInt(g->b, lg_arg(g, op, 0), lg_i32t(g), ""), off, "");
	return LLVMBuildIntToPtr(g->b, a, LLVMPointerTypeInContext(g->ctx, 3), "");
}

/* The thread's row (i = 0, 1) and column (j-th group of 8, + e) of a fragment at (row0,
 * col0) (operands at and at + 1), as i32: wgmma.store's layout (with paired rows the
 * thread's second row is the next one). */
static void
shared_rc(LlvmGen *g, const IrOp *op, int at, int i, int j, int e, LLVMValueRef *r, LLVMValueRef *c)
{
	LLVMValueRef rb, cb;
	int paired = (op->imm & IR_TILE_PAIRED) != 0;

	frag_thread(g, &rb, &cb);
	if (paired)
		rb = paired_row(g, rb);
	*r = LLVMBuildAdd(g->b, LLVMBuildTruncOrBitCast(g->b, lg_arg(g, op, at), lg_i32t(g), ""),
			  LLVMBuildAdd(g->b, rb, lg_c32(g, paired ? i : 8 * i), ""), "");
	*c = LLVMBuildAdd(g->b, LLVMBuildTruncOrBitCast(g->b, lg_arg(g, op, at + 1), lg_i32t(g), ""),
			  LLVMBuildAdd(g->b, cb, lg_c32(g, 8 * j + e), ""), "");
}

/* A shared tile's element addresses as one part per thread plus a constant per element,
 * where that is exact: untransposed, the first column and the dimensions constants, and
 * swizzled, the first row and column multiples of 8 (a first row known only at run time
 * is added to the thread's rows rb, below; row0 is then 0). Element (i, j, e) of the thread
 * then lies at
 *   unswizzled: tile + (rb ncols + cb) eb + ((row0 + 8 i) ncols + col0 + 8 j + e) eb
 *   swizzled:   tile + rb span + (panel nrows + row0 + 8 i) span + ((cb eb ^ X) ^ (8 jm + e) eb)
 * with jj = col0 / 8 + j, panel = jj / (w / 8), jm = jj % (w / 8), w = span / eb and X the
 * swizzle of the thread's rows, ((rb span >> 7) & (span / 16 - 1)) << 4: the constant rows
 * are whole swizzle atoms (8 rows), so they leave X alone, and the column bytes (cb eb and
 * (8 jm + e) eb in disjoint bits, below span) are xored by X as ir_swizzle does. Each access
 * is then a constant offset, or one xor with a constant, from a few values per thread,
 * where shared_elem's per-element arithmetic left LLVM's passes (and code generation's
 * strength reduction) a thousand instructions to fold in ssd's kernels. */
typedef struct TileAddr {
	int split;              /* the form above applies */
	int bcast;              /* every row is row0 (a broadcast load) */
	LLVMValueRef tile;      /* i32: the tile's address */
	LLVMValueRef thr;       /* i32: the thread's offset (its rows; unswizzled, its column too) */
	LLVMValueRef tcol;      /* i32: the thread's column part (swizzled: cb eb ^ X) */
	int64_t r0, c0, nrows, ncols;
	int eb, span;
} TileAddr;

static int
const_arg(LlvmGen *g, const IrOp *op, int at, int64_t *v)
{
	LLVMValueRef x = lg_arg(g, op, at);

	if (!LLVMIsAConstantInt(x))
		return 0;
	*v = LLVMConstIntGetSExtValue(x);
	return 1;
}

/* How many low bits of the i32 IR value v are known zero (at most 20): constants, and
 * products, shifts and sums of them (`wg * 64`). */
static int
low_zeros(const LlvmGen *g, IrValue v, int depth)
{
	const IrOp *d = g->def[v];
	int a, b;

	if (!d || depth > 6)
		return 0;
	if (d->opc == IR_CONST)
		return d->imm ? __builtin_ctzll((unsigned long long)d->imm) : 20;
	if (d->opc != IR_MUL && d->opc != IR_SHL && d->opc != IR_ADD && d->opc != IR_SUB)
		return 0;
	a = low_zeros(g, d->args[0], depth + 1);
	if (d->opc == IR_SHL) {
		const IrOp *c = g->def[d->args[1]];

		b = c && c->opc == IR_CONST && c->imm >= 0 && c->imm < 20 ? (int)c->imm : -1;
		return b < 0 ? 0 : a + b > 20 ? 20 : a + b;
	}
	b = low_zeros(g, d->args[1], depth + 1);
	if (d->opc == IR_MUL)
		return a + b > 20 ? 20 : a + b;
	return a < b ? a : b;
}

/* dims: the operand of nrows (ncols follows); rc: that of row0 (col0 follows). */
static void
tile_addr_init(LlvmGen *g, const IrOp *op, int dims, int rc, int bcast, TileAddr *ta)
{
	IrType pt = ir_vtype(g->k, op->args[0]);
	LLVMValueRef rb, cb, rows;
	int run_row;

	memset(ta, 0, sizeof *ta);
	ta->eb = ir_type_bytes(ir_scalar((IrBase)pt.elem));
	ta->span = IR_TILE_SWIZZLE(op->imm);
	ta->bcast = bcast;
	run_row = !const_arg(g, op, rc, &ta->r0);
	if ((op->imm & IR_TILE_TRANSPOSED) || !const_arg(g, op, rc + 1, &ta->c0) ||
	    !const_arg(g, op, dims, &ta->nrows) || !const_arg(g, op, dims + 1, &ta->ncols) ||
	    (run_row && ta->span && low_zeros(g, op->args[rc], 0) < 3))
		return;
	if (ta->span && (ta->r0 % 8 || ta->c0 % 8 || ta->nrows % 8 || ta->span / ta->eb < 8))
		return;
	ta->split = 1;
	frag_thread(g, &rb, &cb);
	if (bcast)
		rb = lg_c32(g, 0);
	if (run_row) {
		ta->r0 = 0;
		rb = LLVMBuildAdd(g->b, rb, LLVMBuildTruncOrBitCast(g->b, lg_arg(g, op, rc), lg_i32t(g), ""), "");
	}
	ta->tile = LLVMBuildPtrToInt(g->b, lg_arg(g, op, 0), lg_i32t(g), "");
	if (!ta->span) {
		rows = LLVMBuildAdd(g->b, LLVMBuildMul(g->b, rb, lg_c32(g, ta->ncols), ""), cb, "");
		ta->thr = LLVMBuildMul(g->b, rows, lg_c32(g, ta->eb), "");
		return;
	}
	rows = LLVMBuildMul(g->b, rb, lg_c32(g, ta->span), "");
	ta->thr = rows;
	ta->tcol = LLVMBuildXor(g->b, LLVMBuildMul(g->b, cb, lg_c32(g, ta->eb), ""),
				LLVMBuildShl(g->b, LLVMBuildAnd(g->b, LLVMBuildLShr(g->b, rows, lg_c32(g, 7), ""),
								lg_c32(g, ta->span / 16 - 1), ""), lg_c32(g, 4), ""), "");
}

/* The shared address of the thread's element (i, j, e) under TileAddr's split form. */
static LLVMValueRef
tile_addr(LlvmGen *g, const TileAddr *ta, int i, int j, int e)
{
	int64_t r = ta->r0 + (ta->bcast ? 0 : 8 * i), a;
	LLVMValueRef x;

	/* the thread's offset first, then the tile: the offset's arithmetic stays out of a loop
	 * around a staged buffer, whose stage moves the tile */
	if (!ta->span) {
		a = (r * ta->ncols + ta->c0 + 8 * j + e) * ta->eb;
		x = LLVMBuildAdd(g->b, ta->thr, lg_c32(g, a), "");
	} else {
		int64_t w8 = ta->span / ta->eb / 8, jj = ta->c0 / 8 + j;

		a = (jj / w8 * ta->nrows + r) * ta->span;
		x = LLVMBuildXor(g->b, ta->tcol, lg_c32(g, (8 * (jj % w8) + e) * ta->eb), "");
		x = LLVMBuildAdd(g->b, LLVMBuildAdd(g->b, ta->thr, x, ""), lg_c32(g, a), "");
	}
	x = LLVMBuildAdd(g->b, ta->tile, x, "");
	return LLVMBuildIntToPtr(g->b, x, LLVMPointerTypeInContext(g->ctx, 3), "");
}

/* The shared address of the thread's element (i, j, e): TileAddr's split form where it
 * applies, else each element's own row and column (shared_rc, shared_elem; dims and rc as
 * for tile_addr_init). */
static LLVMValueRef
tile_elem(LlvmGen *g, const IrOp *op, const TileAddr *ta, int dims, int rc, int i, int j, int e)
{
	LLVMValueRef r, c;

	if (ta->split)
		return tile_addr(g, ta, i, j, e);
	shared_rc(g, op, rc, ta->bcast ? 0 : i, j, e, &r, &c);
	if (ta->bcast)
		r = LLVMBuildTruncOrBitCast(g->b, lg_arg(g, op, rc), lg_i32t(g), "");
	return shared_elem(g, op, dims, r, c);
}

/* Whether a shared tile's lanes go in pairs, one 8- or 4-byte access each: untransposed,
 * columns 2 (t % 4) + 8 j and the next, with a first column (operand at) known to be even;
 * transposed with paired rows, rows r and r + 1 of one column (stored side by side), with a
 * first row (operand at - 1) known to be even and, unswizzled, an even row length of the
 * stored matrix (the tile's rows, operand at - 3). A pair then never straddles a 16-byte
 * chunk and the swizzle keeps it together; else one access per element. */
static int
shared_pairs(LlvmGen *g, const IrOp *op, int at)
{
	int64_t c0, r0, len;

	if (!(op->imm & IR_TILE_TRANSPOSED))
		return const_arg(g, op, at, &c0) && c0 % 2 == 0;
	return (op->imm & IR_TILE_PAIRED) && const_arg(g, op, at - 1, &r0) && r0 % 2 == 0 &&
	       (IR_TILE_SWIZZLE(op->imm) || (const_arg(g, op, at - 3, &len) && len % 2 == 0));
}

/* The lanes of a pair access (shared_pairs) for lane l0 = 4 j + e (i = 0, column 8 j + e
 * untransposed: lanes l0 and l0 + 1; transposed: rows i = 0, 1, lanes l0 and l0 + 2), and the
 * loop bounds that visit each pair once: (i, e) over (2, 1) untransposed, (1, 2) transposed. */
static int
pair_step(const IrOp *op)
{
	return op->imm & IR_TILE_TRANSPOSED ? 2 : 1;
}

/* wgmma.store into shared memory: every element inside (sema checks constant
 * coordinates), no predicate; in pairs where shared_pairs says so. */
static void
shared_tile_store(LlvmGen *g, const IrOp *op, LLVMValueRef *acc, int nl)
{
	IrType pt = ir_vtype(g->k, op->args[0]);
	LLVMTypeRef ety = lg_type(g, ir_scalar((IrBase)pt.elem));
	int eb = ir_type_bytes(ir_scalar((IrBase)pt.elem)), one = !shared_pairs(g, op, 5), ps = pair_step(op), i, j, e;
	TileAddr ta;

	tile_addr_init(g, op, 2, 4, 0, &ta);
	for (i = 0; i < (one || ps == 1 ? 2 : 1); i++)
		for (j = 0; j < nl / 4; j++)
			for (e = 0; e < (one || ps == 2 ? 2 : 1); e++) {
				LLVMValueRef v, st;
				int l = 4 * j + 2 * i + e;

				if (one) {
					v = eb == 4 ? acc[l] : LLVMBuildFPTrunc(g->b, acc[l], ety, "");
				} else {
					v = lg_pair(g, acc[l], acc[l + ps]);
					if (eb == 2)
						v = LLVMBuildFPTrunc(g->b, v, LLVMVectorType(ety, 2), "");
				}
				st = LLVMBuildStore(g->b, v, tile_elem(g, op, &ta, 2, 4, i, j, e));
				LLVMSetAlignment(st, (unsigned)(one ? eb : 2 * eb));
			}
}

/* wgmma.load from shared memory: as shared_tile_store, each element (pair) one load,
 * converted to f32; a broadcast reads row row0 in every row. (one below: one element at a
 * time, transposed or not.) */
static void
shared_tile_load(LlvmGen *g, const IrOp *op)
{
	IrType pt = ir_vtype(g->k, op->args[0]), rt = ir_vtype(g->k, op->res[0]);
	LLVMTypeRef ety = lg_type(g, ir_scalar((IrBase)pt.elem)), fty = LLVMFloatTypeInContext(g->ctx);
	int eb = ir_type_bytes(ir_scalar((IrBase)pt.elem)), one = !shared_pairs(g, op, 4), ps = pair_step(op);
	int bcast = (int)(op->imm >> 16 & 1), nl = rt.lanes, i, j, e;
	LLVMValueRef *lanes = xcalloc((size_t)nl, sizeof *lanes);
	TileAddr ta;

	tile_addr_init(g, op, 1, 3, bcast, &ta);
	for (i = 0; i < (one || ps == 1 ? 2 : 1); i++)
		for (j = 0; j < nl / 4; j++)
			for (e = 0; e < (one || ps == 2 ? 2 : 1); e++) {
				LLVMValueRef v, ld;
				int l = 4 * j + 2 * i + e;

				ld = LLVMBuildLoad2(g->b, one ? ety : LLVMVectorType(ety, 2), tile_elem(g, op, &ta, 1, 3, i, j, e), "");
				LLVMSetAlignment(ld, (unsigned)(one ? eb : 2 * eb));
				if (one) {
					lanes[l] = eb == 4 ? ld : LLVMBuildFPExt(g->b, ld, fty, "");
					continue;
				}
				v = eb == 4 ? ld : LLVMBuildFPExt(g->b, ld, LLVMVectorType(fty, 2), "");
				lanes[l] = LLVMBuildExtractElement(g->b, v, lg_c32(g, 0), "");
				lanes[l + ps] = LLVMBuildExtractElement(g->b, v, lg_c32(g, 1), "");
			}
	bind_fragment(g, op, lanes, nl);
	free(lanes);
}

/* wgmma_store's straight path: word j (lanes 2 j, 2 j + 1) is row j % 2, columns 8 (j /
 * 2) and 8 (j / 2) + 1, one 2-wide store at a constant offset from its row's address. */
static void
store_pairs(LlvmGen *g, LLVMValueRef *p, LLVMValueRef *words, int npair, LLVMTypeRef ety, int ebytes)
{
	int i, j;

	for (i = 0; i < 2; i++)
		for (j = 0; j < npair / 2; j++) {
			LLVMValueRef off = LLVMConstInt(lg_i64t(g), (unsigned long long)(8 * j), 0);
			LLVMValueRef q = j ? LLVMBuildInBoundsGEP2(g->b, ety, p[i], &off, 1, "") : p[i];
			LLVMValueRef st = LLVMBuildStore(g->b, words[2 * j + i], q);

			LLVMSetAlignment(st, (unsigned)(2 * ebytes));
		}
}

/* Whether the whole block of `rows` rows and n columns at (row0, col0) lies inside a
 * row-major tensor of nrows x ncols with every pair of lanes at an even element (ncols and
 * col0 even): the fast paths of wgmma.store and wgmma.load, one 2-wide access per pair.
 * With nonneg, row0 and col0 must also be >= 0 (a fragment reads 0 there; a store is never
 * given a negative corner). An i1; folded to a constant where its operands are. */
static LLVMValueRef
tile_whole(LlvmGen *g, LLVMValueRef nrows, LLVMValueRef ncols, LLVMValueRef row0, LLVMValueRef col0, int rows,
	   int n, int nonneg)
{
	LLVMTypeRef ity = LLVMTypeOf(ncols);
	LLVMValueRef zero = LLVMConstInt(ity, 0, 0), w;

	w = LLVMBuildICmp(g->b, LLVMIntSLE, LLVMBuildNSWAdd(g->b, row0, LLVMConstInt(ity, (unsigned long long)rows, 0), ""),
			  nrows, "");
	w = LLVMBuildAnd(g->b, w, LLVMBuildICmp(g->b, LLVMIntSLE,
						LLVMBuildNSWAdd(g->b, col0, LLVMConstInt(ity, (unsigned long long)n, 0), ""),
						ncols, ""), "");
	w = LLVMBuildAnd(g->b, w, LLVMBuildICmp(g->b, LLVMIntEQ,
						LLVMBuildAnd(g->b, LLVMBuildOr(g->b, ncols, col0, ""), LLVMConstInt(ity, 1, 0), ""),
						zero, ""), "");
	if (nonneg)
		w = LLVMBuildAnd(g->b, w, LLVMBuildAnd(g->b, LLVMBuildICmp(g->b, LLVMIntSGE, row0, zero, ""),
							LLVMBuildICmp(g->b, LLVMIntSGE, col0, zero, ""), ""), "");
	return w;
}

/* wgmma.store ptr, acc, nrows, ncols, row0, col0 (ir/ops.def). Each pair of lanes
 * (4 j + 2 i, +1) is converted once, up front, into one word: a b32 of two bf16/f16, or a
 * <2 x float>. Then two straight runs of code: where the whole 64 x N block lies inside
 * the tensor and every row starts at an even element (N and col0 even), each word is one
 * plain 2-wide store; otherwise, per row inside the tensor, one asm statement of
 * predicated scalar stores (lg_store_clipped). */
static void
wgmma_store(LlvmGen *g, const IrOp *op)
{
	IrType pt = ir_vtype(g->k, op->args[0]), at = ir_vtype(g->k, op->args[1]);
	LLVMTypeRef ety = lg_type(g, ir_scalar((IrBase)pt.elem));
	LLVMValueRef base = lg_arg(g, op, 0), *acc;
	LLVMValueRef nrows = lg_arg(g, op, 2), ncols = lg_arg(g, op, 3), row0 = lg_arg(g, op, 4), col0 = lg_arg(g, op, 5);
	LLVMValueRef cb, p[2], rowin[2], full, left, *words, *sw;
	LLVMBasicBlockRef fast, slow, join, rows[2], next[2];
	int n = at.lanes * 2, npair = at.lanes / 2, ebytes = ir_type_bytes(ir_scalar((IrBase)pt.elem)), *sc, i, j, e;

	if (lg_is_frag(at)) {
		acc = lg_lanes(g, op, op->args[1]);
	} else {        /* m64n8: an f32x4 vector */
		LLVMValueRef v = lg_arg(g, op, 1);

		acc = arena_alloc(g->arena, (size_t)at.lanes * sizeof *acc);
		for (i = 0; i < at.lanes; i++)
			acc[i] = LLVMBuildExtractElement(g->b, v, lg_c32(g, i), "");
	}
	if (pt.space == IR_SHARED) {
		shared_tile_store(g, op, acc, at.lanes);
		return;
	}
	if (op->imm & IR_TILE_TRANSPOSED) {
		wgmma_store_transposed(g, op, acc, at.lanes);
		return;
	}
	cb = frag_rows(g, base, ety, row0, col0, ncols, p, rowin, nrows);
	words = xcalloc((size_t)npair, sizeof *words);
	for (j = 0; j < npair; j++) {
		LLVMValueRef v = lg_pair(g, acc[2 * j], acc[2 * j + 1]);

		if (ebytes == 2)
			v = LLVMBuildBitCast(g->b, LLVMBuildFPTrunc(g->b, v, LLVMVectorType(ety, 2), ""),
					     lg_i32t(g), "");
		words[j] = v;
	}
	full = tile_whole(g, nrows, ncols, row0, col0, 64, n, 0);
	/* a block known to be inside (constant corner and dimensions: folded to true) takes
	 * the straight path alone, without the dead predicated one */
	if (LLVMIsAConstantInt(full) && LLVMConstIntGetZExtValue(full)) {
		store_pairs(g, p, words, npair, ety, ebytes);
		free(words);
		return;
	}
	fast = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "store.full");
	slow = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "store.part");
	join = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "store.done");
	LLVMBuildCondBr(g->b, full, fast, slow);

	LLVMPositionBuilderAtEnd(g->b, fast);
	store_pairs(g, p, words, npair, ety, ebytes);
	LLVMBuildBr(g->b, join);

	LLVMPositionBuilderAtEnd(g->b, slow);
	left = LLVMBuildSub(g->b, ncols, cb, "");
	sw = xcalloc((size_t)at.lanes, sizeof *sw);
	sc = xcalloc((size_t)at.lanes, sizeof *sc);
	for (i = 0; i < 2; i++) {
		int nw = 0;

		rows[i] = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "store.row");
		next[i] = i ? join : LLVMAppendBasicBlockInContext(g->ctx, g->fn, "store.row.next");
		LLVMBuildCondBr(g->b, rowin[i], rows[i], next[i]);
		LLVMPositionBuilderAtEnd(g->b, rows[i]);
		/* a 16-bit word: columns 8 j, 8 j + 1; an f32 element: column 8 (w / 2) + w % 2 */
		for (j = 0; j < npair / 2; j++) {
			if (ebytes == 2) {
				sc[nw] = 8 * j;
				sw[nw++] = words[2 * j + i];
				continue;
			}
			for (e = 0; e < 2; e++) {
				sc[nw] = 8 * j + e;
				sw[nw++] = acc[4 * j + 2 * i + e];
			}
		}
		lg_store_clipped(g, p[i], left, sw, sc, nw, ebytes, ebytes == 2);
		LLVMBuildBr(g->b, next[i]);
		LLVMPositionBuilderAtEnd(g->b, next[i]);
	}
	free(sw);
	free(sc);
	free(words);
}

/* Binds the result of wgmma.load to its nl lanes: a fragment, or (m64n8) an f32x4. */
static void
bind_fragment(LlvmGen *g, const IrOp *op, LLVMValueRef *lanes, int nl)
{
	IrType rt = ir_vtype(g->k, op->res[0]);
	LLVMValueRef v;
	int l;

	if (lg_is_frag(rt)) {
		lg_bind_lanes(g, op->res[0], lanes, nl);
		return;
	}
	v = LLVMGetPoison(lg_type(g, rt));
	for (l = 0; l < nl; l++)
		v = LLVMBuildInsertElement(g->b, v, lanes[l], lg_c32(g, l), "");
	lg_bind(g, op->res[0], v);
}

/* The per-column part of a transposed tile's load (outputs $0 .. $nl-1; inputs from $nl:
 * the thread's first element's address and the column stride in bytes, its row rb,
 * nrows, its column cb, ncols): per column of the thread's, its address and the two rows'
 * loads (rows step apart: 8, or 1 when paired), each predicated on its row and column
 * being inside (r0, r1, and pc: unsigned compares, below 0 is outside too), 0 where not,
 * converted to f32. With pairs, the straight path instead: one 2-element load a column. */
static void
load_columns(Buf *text, int nl, int eb, int w, const char *cvt, int step, int pairs)
{
	int j, i;

	for (j = 0; j < nl / 2; j++) {  /* column k = 8 (j / 2) + j % 2: lanes 4 (j / 2) + j % 2 (+2: row 1) */
		int k = 8 * (j / 2) + j % 2, lane = 4 * (j / 2) + j % 2;

		buf_printf(text, "mad.lo.s64 a, $%d, %d, $%d;\n", nl + 1, k, nl);
		if (pairs && eb == 4) {
			buf_printf(text, "ld.global.v2.f32 {$%d, $%d}, [a];\n", lane, lane + 2);
			continue;
		}
		if (pairs) {
			buf_printf(text, "ld.global.v2.b16 {h, h1}, [a];\n%s $%d, h;\n%s $%d, h1;\n", cvt, lane, cvt, lane + 2);
			continue;
		}
		buf_printf(text, "add.s%d t, $%d, %d;\nsetp.lt.u%d pc, t, $%d;\n", w, nl + 4, k, w, nl + 5);
		for (i = 0; i < 2; i++) {
			int d = lane + 2 * i;

			buf_printf(text, "mov.b32 $%d, 0;\nand.pred p, pc, r%d;\n", d, i);
			if (eb == 4)
				buf_printf(text, "@p ld.global.f32 $%d, [a+%d];\n", d, step * eb * i);
			else
				buf_printf(text, "@p ld.global.b16 h, [a+%d];\n@p %s $%d, h;\n", step * eb * i, cvt, d);
		}
	}
}

/* wgmma.load of a transposed tile (IR_TILE_TRANSPOSED): element (r, c) at c * nrows + r,
 * in one asm statement (load_columns), as wgmma_store_transposed writes them. Plain
 * ld.global: the tensor may be inout. With paired rows, where paired_whole holds (input
 * $nl + 6), one 2-element load per column (half the load instructions), else the
 * predicated loads, the branch inside the asm as wgmma_store_transposed's. */
static void
wgmma_load_transposed(LlvmGen *g, const IrOp *op)
{
	IrType pt = ir_vtype(g->k, op->args[0]), it = ir_vtype(g->k, op->args[1]), rt = ir_vtype(g->k, op->res[0]);
	LLVMValueRef ins[7], call, *lanes;
	int eb = ir_type_bytes(ir_scalar((IrBase)pt.elem)), w = it.base == IR_I64 ? 64 : 32, nl = rt.lanes, l;
	int paired = (op->imm & IR_TILE_PAIRED) != 0, step = paired ? 1 : 8;
	const char *cvt = pt.elem == IR_BF16 ? "cvt.f32.bf16" : "cvt.f32.f16", *ic = w == 64 ? "l" : "r";
	Buf text = {0}, cons = {0};

	transposed_start(g, op, 0, 1, &ins[2], &ins[4], ins);
	ins[3] = lg_arg(g, op, 1);      /* nrows */
	ins[5] = lg_arg(g, op, 2);      /* ncols */
	for (l = 0; l < nl; l++)
		buf_puts(&cons, l ? ",=f" : "=f");
	buf_printf(&cons, ",l,l,%s,%s,%s,%s", ic, ic, ic, ic);
	buf_printf(&text, "{\n.reg .pred r0, r1, pc, p%s;\n.reg .b64 a;\n.reg .b%d t;\n.reg .b16 h%s;\n",
		   paired ? ", pf" : "", w, paired ? ", h1" : "");
	if (paired) {
		ins[6] = LLVMBuildZExt(g->b, paired_whole(g, ins[0], ins[1], ins[2], ins[3], ins[4], ins[5],
							  8 * (nl / 4 - 1) + 1, eb), lg_i32t(g), "");
		buf_puts(&cons, ",r");
		buf_printf(&text, "setp.ne.b32 pf, $%d, 0;\n@!pf bra $$Lelem${:uid};\n", nl + 6);
		load_columns(&text, nl, eb, w, cvt, step, 1);
		buf_puts(&text, "bra.uni $$Ldone${:uid};\n$$Lelem${:uid}:\n");
	}
	buf_printf(&text, "setp.lt.u%d r0, $%d, $%d;\nadd.s%d t, $%d, %d;\nsetp.lt.u%d r1, t, $%d;\n", w, nl + 2, nl + 3,
		   w, nl + 2, step, w, nl + 3);
	load_columns(&text, nl, eb, w, cvt, step, 0);
	if (paired)
		buf_puts(&text, "$$Ldone${:uid}:\n");
	buf_puts(&text, "}");
	call = asm_call(g, &text, &cons, ins, 6 + paired, nl);
	lanes = xcalloc((size_t)nl, sizeof *lanes);
	for (l = 0; l < nl; l++)
		lanes[l] = LLVMBuildExtractValue(g->b, call, (unsigned)l, "");
	bind_fragment(g, op, lanes, nl);
	buf_free(&text);
	buf_free(&cons);
	free(lanes);
}

/* Whether [start, start + span) is known, at compile time, to lie in [0, size): the
 * tile's rows (span 64) or columns (span N) are then all inside. */
static int
frag_inside(LLVMValueRef start, LLVMValueRef size, int span)
{
	long long s, n;

	if (!LLVMIsAConstantInt(start) || !LLVMIsAConstantInt(size))
		return 0;
	s = LLVMConstIntGetSExtValue(start);
	n = LLVMConstIntGetSExtValue(size);
	return s >= 0 && s + span <= n;
}

/* wgmma_load of a tile known to lie inside its tensor (constant corner and dimensions:
 * a state of [.., 64, N]): two row addresses, each lane a constant offset from its row's,
 * no bounds tests. The general path's per-column index arithmetic (an add, an extension,
 * an address a lane) costs LLVM's passes more than the loads: ssd's fragments of its
 * initial and handed-over states were 128 lanes of it. */
static void
frag_load_inside(LlvmGen *g, const IrOp *op, LLVMValueRef base, LLVMValueRef row0, LLVMValueRef col0,
		 LLVMValueRef ncols, LLVMTypeRef ety, int nl)
{
	LLVMTypeRef fty = LLVMFloatTypeInContext(g->ctx), i64 = lg_i64t(g);
	IrType pt = ir_vtype(g->k, op->args[0]);
	LLVMValueRef prow[2], *lanes;
	int l;

	frag_rows(g, base, ety, row0, col0, ncols, prow, NULL, NULL);
	lanes = xcalloc((size_t)nl, sizeof *lanes);
	for (l = 0; l < nl; l++) {      /* lane l: row l / 2 % 2, column 8 (l / 4) + l % 2 */
		LLVMValueRef off = LLVMConstInt(i64, (unsigned long long)(8 * (l / 4) + l % 2), 0);
		LLVMValueRef v = LLVMBuildLoad2(g->b, ety, LLVMBuildInBoundsGEP2(g->b, ety, prow[l / 2 % 2], &off, 1, ""), "");

		lanes[l] = pt.elem != IR_F32 ? LLVMBuildFPExt(g->b, v, fty, "") : v;
	}
	bind_fragment(g, op, lanes, nl);
	free(lanes);
}

/* tile_whole's block: each pair of lanes (4 j + 2 i, + 1: columns 8 j and 8 j + 1 of the
 * thread's row i) one 2-wide load, no bounds tests; into lanes[0 .. nl). */
static void
frag_load_pairs(LlvmGen *g, LLVMValueRef base, LLVMValueRef row0, LLVMValueRef col0, LLVMValueRef ncols,
		LLVMTypeRef ety, int ebytes, int bcast, LLVMValueRef *lanes, int nl)
{
	LLVMTypeRef fty = LLVMFloatTypeInContext(g->ctx), vty = LLVMVectorType(ety, 2), i64 = lg_i64t(g);
	LLVMValueRef p[2], rb, cb;
	int i, j, e;

	if (bcast) {    /* one row for all: row0's */
		frag_thread(g, &rb, &cb);
		cb = LLVMBuildNSWAdd(g->b, col0, LLVMBuildZExt(g->b, cb, LLVMTypeOf(ncols), ""), "");
		p[0] = p[1] = LLVMBuildGEP2(g->b, ety, base, (LLVMValueRef[]){
			LLVMBuildNSWAdd(g->b, LLVMBuildNSWMul(g->b, row0, ncols, ""), cb, "")}, 1, "");
	} else {
		frag_rows(g, base, ety, row0, col0, ncols, p, NULL, NULL);
	}
	for (j = 0; j < nl / 4; j++)
		for (i = 0; i < 2; i++) {
			LLVMValueRef off = LLVMConstInt(i64, (unsigned long long)(8 * j), 0);
			LLVMValueRef v = LLVMBuildLoad2(g->b, vty, LLVMBuildInBoundsGEP2(g->b, ety, p[i], &off, 1, ""), "");

			LLVMSetAlignment(v, (unsigned)(2 * ebytes));
			for (e = 0; e < 2; e++) {
				LLVMValueRef x = LLVMBuildExtractElement(g->b, v, lg_c32(g, e), "");

				lanes[4 * j + 2 * i + e] = ebytes == 4 ? x : LLVMBuildFPExt(g->b, x, fty, "");
			}
		}
}

/* wgmma.load's lanes, one scalar load each, in the block the builder is at: a lane
 * outside [0, nrows) x [0, ncols) loads row 0 and/or column 0 instead (so every address
 * is inside the tensor) and selects 0. The row terms once per row (2), the column terms
 * once per column (N / 4), each clamped to 0 outside; a lane then costs an address, a
 * load, a conversion, an and and a select. */
static void
frag_load_lanes(LlvmGen *g, LLVMValueRef base, LLVMValueRef nrows, LLVMValueRef ncols, LLVMValueRef row0,
		LLVMValueRef col0, LLVMTypeRef ety, int f32, int bcast, LLVMValueRef *lanes, int nl)
{
	LLVMTypeRef ity = LLVMTypeOf(ncols), fty = LLVMFloatTypeInContext(g->ctx);
	LLVMValueRef rb, cb, rin[2], prow[2], *cin, *coff, zero = LLVMConstInt(ity, 0, 0);
	int l, i, j;

	frag_thread(g, &rb, &cb);
	rb = bcast ? row0 : LLVMBuildAdd(g->b, row0, LLVMBuildZExt(g->b, rb, ity, ""), "");
	cb = LLVMBuildAdd(g->b, col0, LLVMBuildZExt(g->b, cb, ity, ""), "");
	for (i = 0; i < 2; i++) {
		LLVMValueRef r = bcast || !i ? rb : LLVMBuildAdd(g->b, rb, LLVMConstInt(ity, 8, 0), "");

		rin[i] = LLVMBuildICmp(g->b, LLVMIntULT, r, nrows, "");
		r = LLVMBuildMul(g->b, LLVMBuildSelect(g->b, rin[i], r, zero, ""), ncols, "");
		prow[i] = LLVMBuildGEP2(g->b, ety, base, &r, 1, "");
	}
	cin = xcalloc((size_t)nl / 2, sizeof *cin);
	coff = xcalloc((size_t)nl / 2, sizeof *coff);
	for (j = 0; j < nl / 2; j++) {      /* column 8 (j / 2) + j % 2 of the thread's */
		LLVMValueRef c = LLVMBuildAdd(g->b, cb, LLVMConstInt(ity, (unsigned long long)(8 * (j / 2) + j % 2), 0), "");

		cin[j] = LLVMBuildICmp(g->b, LLVMIntULT, c, ncols, "");
		coff[j] = LLVMBuildSelect(g->b, cin[j], c, zero, "");
	}
	for (l = 0; l < nl; l++) {
		LLVMValueRef v;

		i = l / 2 % 2;
		j = l / 4 * 2 + l % 2;
		v = LLVMBuildLoad2(g->b, ety, LLVMBuildGEP2(g->b, ety, prow[i], &coff[j], 1, ""), "");
		if (!f32)
			v = LLVMBuildFPExt(g->b, v, fty, "");
		lanes[l] = LLVMBuildSelect(g->b, LLVMBuildAnd(g->b, rin[i], cin[j], ""), v, LLVMConstReal(fty, 0.0), "");
	}
	free(cin);
	free(coff);
}

/* Fragments of at most this many lanes (N <= 192) take frag_load_pairs where the block is
 * whole: a 256-wide one beside a 256-wide accumulator fills a consumer's registers, and the
 * values the two paths merge spilled there (gemm_stk's partial sums: 548 bytes). */
#define FRAG_PAIRED_LANES 96

/* wgmma.load[N | broadcast << 16 | transposed << 17] ptr, nrows, ncols, row0, col0 (a
 * transposed tile reads element (r, c) at c * nrows + r): the fragment lanes of
 * thread t = linear tid & 127 (wgmma.store's layout), each the element at its row and
 * column converted to f32, or 0 outside [0, nrows) x [0, ncols). As wgmma.store, two
 * straight runs of code: where the whole block lies inside with even pairs (tile_whole;
 * up to FRAG_PAIRED_LANES), a 2-wide load per pair of lanes (an epilogue's residual and
 * bias: half the loads, no selects); otherwise frag_load_lanes. An empty tensor (nrows or
 * ncols 0) loads nothing. */
static void
wgmma_load(LlvmGen *g, const IrOp *op)
{
	IrType pt = ir_vtype(g->k, op->args[0]), rt = ir_vtype(g->k, op->res[0]);
	LLVMTypeRef fty = LLVMFloatTypeInContext(g->ctx), ety = lg_type(g, ir_scalar((IrBase)pt.elem));
	LLVMValueRef base = lg_arg(g, op, 0), nrows = lg_arg(g, op, 1), ncols = lg_arg(g, op, 2);
	LLVMValueRef row0 = lg_arg(g, op, 3), col0 = lg_arg(g, op, 4), zero = LLVMConstInt(LLVMTypeOf(ncols), 0, 0);
	LLVMValueRef any, *lanes, *phis, *whole = NULL;
	LLVMBasicBlockRef from, body, join, fast = NULL;
	int bcast = (int)(op->imm >> 16 & 1), nl = rt.lanes, l, n = 0;
	int ebytes = ir_type_bytes(ir_scalar((IrBase)pt.elem));

	if (pt.space == IR_SHARED) {
		shared_tile_load(g, op);
		return;
	}
	if (op->imm & IR_TILE_TRANSPOSED) {
		wgmma_load_transposed(g, op);
		return;
	}
	if (!bcast && frag_inside(row0, nrows, 64) && frag_inside(col0, ncols, 8 * (nl / 4))) {
		frag_load_inside(g, op, base, row0, col0, ncols, ety, nl);
		return;
	}
	body = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "frag.load");
	join = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "frag.done");
	if (nl <= FRAG_PAIRED_LANES) {
		LLVMBasicBlockRef part = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "frag.part");

		fast = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "frag.whole");
		LLVMBuildCondBr(g->b, tile_whole(g, nrows, ncols, row0, col0, bcast ? 1 : 64, 8 * (nl / 4), 1),
				fast, part);
		LLVMPositionBuilderAtEnd(g->b, fast);
		whole = xcalloc((size_t)nl, sizeof *whole);
		frag_load_pairs(g, base, row0, col0, ncols, ety, ebytes, bcast, whole, nl);
		fast = LLVMGetInsertBlock(g->b);
		LLVMBuildBr(g->b, join);
		LLVMPositionBuilderAtEnd(g->b, part);
	}
	from = LLVMGetInsertBlock(g->b);
	any = LLVMBuildAnd(g->b, LLVMBuildICmp(g->b, LLVMIntSGT, nrows, zero, ""),
			   LLVMBuildICmp(g->b, LLVMIntSGT, ncols, zero, ""), "");
	LLVMBuildCondBr(g->b, any, body, join);
	LLVMPositionBuilderAtEnd(g->b, body);
	lanes = xcalloc((size_t)nl, sizeof *lanes);
	frag_load_lanes(g, base, nrows, ncols, row0, col0, ety, pt.elem == IR_F32, bcast, lanes, nl);
	LLVMBuildBr(g->b, join);
	LLVMPositionBuilderAtEnd(g->b, join);
	phis = xcalloc((size_t)nl, sizeof *phis);
	for (l = 0; l < nl; l++) {
		LLVMValueRef in[3] = {LLVMConstReal(fty, 0.0), lanes[l], whole ? whole[l] : NULL};
		LLVMBasicBlockRef bb[3] = {from, body, fast};

		n = whole ? 3 : 2;
		phis[l] = LLVMBuildPhi(g->b, fty, "");
		LLVMAddIncoming(phis[l], in, bb, (unsigned)n);
	}
	bind_fragment(g, op, phis, nl);
	free(lanes);
	free(whole);
	free(phis);
}

/* ---- dispatch ---- */

void
lg_wgmma_op(LlvmGen *g, const IrOp *op)
{
	LLVMValueRef r = NULL;
	char nm[32];

	lg_result_name(op, nm, sizeof nm);
	switch (op->opc) {
	case IR_WGMMA_DESC: r = lg_matrix_desc(g, op, 0, nm); break;
	case IR_WGMMA: wgmma(g, op); return;
	case IR_WGMMA_FENCE: lg_tied_sync(g, op, "wgmma.fence.sync.aligned;"); return;
	case IR_WGMMA_COMMIT: tied_asm(g, "wgmma.commit_group.sync.aligned;", NULL, 0, 0, NULL); break;
	case IR_WGMMA_WAIT: wgmma_wait(g, op); return;
	case IR_WGMMA_STORE: wgmma_store(g, op); return;
	case IR_WGMMA_LOAD: wgmma_load(g, op); return;
	default:
		lg_error(g, op, "'%s' cannot be lowered here", ir_opinfo[op->opc].name);
		return;
	}
	if (op->nres)
		lg_bind(g, op->res[0], r ? r : LLVMGetPoison(lg_type(g, ir_vtype(g->k, op->res[0]))));
}
