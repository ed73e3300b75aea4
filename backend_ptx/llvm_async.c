/* backend_ptx/llvm_async.c: the LLVM IR for the Hopper async ops (mbarriers, TMA, cluster,
 * elect, setmaxnreg, wgmma). LLVM 22's NVVM intrinsics where they exist; wgmma, which has
 * none, as inline asm whose accumulator operands are tied in and out, so that reads of an
 * accumulator are ordered after the wgmma.fence/wait that returns it.
 *
 * Addresses: shared memory is 32-bit (-nvptx-short-ptr); mbarriers and TMA destinations use
 * those addresses directly. A shared::cta address is also a valid shared::cluster address
 * of the executing CTA, so the TMA destination (a shared::cluster pointer in the intrinsic)
 * is the same 32-bit value rather than a round trip through generic addresses. Tensor maps
 * are kernel parameters passed by value as grid constants; the ops take their address. */
#include "llvm_gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* IR address space 7 is shared::cluster, as in NVPTX. */
#define AS_CLUSTER 7

static LLVMValueRef
aval(LlvmGen *g, const IrOp *op, int i)
{
	return lg_val(g, op, op->args[i]);
}

static LLVMTypeRef
i32t(LlvmGen *g)
{
	return LLVMInt32TypeInContext(g->ctx);
}

static LLVMTypeRef
i64t(LlvmGen *g)
{
	return LLVMInt64TypeInContext(g->ctx);
}

static LLVMValueRef
c32(LlvmGen *g, int64_t v)
{
	return LLVMConstInt(i32t(g), (unsigned long long)v, 0);
}

static LLVMValueRef
c64(LlvmGen *g, uint64_t v)
{
	return LLVMConstInt(i64t(g), v, 0);
}

static LLVMValueRef
c1(LlvmGen *g, int v)
{
	return LLVMConstInt(LLVMInt1TypeInContext(g->ctx), (unsigned long long)v, 0);
}

static LLVMValueRef
call(LlvmGen *g, const char *name, LLVMValueRef *args, int nargs, const char *nm)
{
	return lg_intrinsic(g, name, NULL, 0, args, nargs, nm);
}

/* An i32 operand (i32 or u32 in the IR). */
static LLVMValueRef
ival(LlvmGen *g, const IrOp *op, int i)
{
	return aval(g, op, i);
}

/* byte offset (i32) into the dynamic shared array */
static LLVMValueRef
smem_at(LlvmGen *g, LLVMValueRef off, const char *nm)
{
	LLVMValueRef base = lg_smem_base(g);

	return LLVMBuildInBoundsGEP2(g->b, LLVMInt8TypeInContext(g->ctx), base, &off, 1, nm);
}

/* mbar[b] idx: barrier b's offset + 8 * idx. */
static LLVMValueRef
mbar_addr(LlvmGen *g, const IrOp *op, const char *nm)
{
	const IrBarrier *bar;
	LLVMValueRef off;

	if (op->imm < 0 || op->imm >= g->k->nbarriers) {
		lg_error(g, op, "barrier %lld of %d", (long long)op->imm, g->k->nbarriers);
		return LLVMGetPoison(lg_type(g, ir_ptr(IR_SHARED, IR_I64)));
	}
	bar = &g->k->barriers[op->imm];
	if (bar->offset < 0) {
		lg_error(g, op, "mbarrier '%s' has no offset (smem-layout has not run)", bar->name);
		return LLVMGetPoison(lg_type(g, ir_ptr(IR_SHARED, IR_I64)));
	}
	off = LLVMBuildNUWMul(g->b, ival(g, op, 0), c32(g, 8), "");
	off = LLVMBuildNUWAdd(g->b, off, c32(g, bar->offset), "");
	return smem_at(g, off, nm);
}

/* smem.stage[buf] s: the buffer's offset + s * its stage stride. */
static LLVMValueRef
stage_addr(LlvmGen *g, const IrOp *op, const char *nm)
{
	const IrBuffer *b;
	LLVMValueRef off;

	if (op->imm < 0 || op->imm >= g->k->nbufs) {
		lg_error(g, op, "buffer %lld of %d", (long long)op->imm, g->k->nbufs);
		return LLVMGetPoison(lg_type(g, ir_ptr(IR_SHARED, IR_I8)));
	}
	b = &g->k->bufs[op->imm];
	if (b->offset < 0 || (b->stages > 1 && b->stage_stride <= 0)) {
		lg_error(g, op, "shared buffer '%s' has no offset or stage stride (smem-layout has not run)", b->name);
		return LLVMGetPoison(lg_type(g, ir_ptr(IR_SHARED, IR_I8)));
	}
	off = LLVMBuildNUWMul(g->b, ival(g, op, 0), c32(g, b->stage_stride), "");
	off = LLVMBuildNUWAdd(g->b, off, c32(g, b->offset), "");
	return smem_at(g, off, nm);
}

/* The same 32-bit shared address as a shared::cluster pointer (see the top). */
static LLVMValueRef
as_cluster(LlvmGen *g, LLVMValueRef p)
{
	LLVMValueRef a = LLVMBuildPtrToInt(g->b, p, i32t(g), "");

	return LLVMBuildIntToPtr(g->b, a, LLVMPointerTypeInContext(g->ctx, AS_CLUSTER), "");
}

/* try_wait.parity in a loop. The intrinsic may read and write memory, so LLVM keeps it in
 * the loop and keeps the accesses it guards after it. */
static void
mbar_wait(LlvmGen *g, const IrOp *op)
{
	LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "mbar.wait");
	LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "mbar.done");
	LLVMValueRef args[2], ok;

	args[0] = aval(g, op, 0);
	args[1] = ival(g, op, 1);
	LLVMBuildBr(g->b, loop);
	LLVMPositionBuilderAtEnd(g->b, loop);
	ok = call(g, "llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta", args, 2, "");
	LLVMBuildCondBr(g->b, ok, done, loop);
	LLVMPositionBuilderAtEnd(g->b, done);
}

/* cp.async.bulk.tensor g2s (tile; multicast when mc) and s2g. IR coordinates are row-major,
 * PTX's innermost first. */
static void
tma(LlvmGen *g, const IrOp *op)
{
	LLVMValueRef args[16];
	char name[64];
	int rank = (int)op->imm, n = 0, i, first;

	if (rank < 1 || rank > 5) {
		lg_error(g, op, "rank %d", rank);
		return;
	}
	if (op->opc == IR_TMA_STORE) {
		first = 2;
		args[n++] = aval(g, op, 1);             /* src */
		args[n++] = aval(g, op, 0);             /* map */
		for (i = op->nargs - 1; i >= first; i--)
			args[n++] = ival(g, op, i);
		args[n++] = c64(g, 0);                  /* cache hint (unused) */
		args[n++] = c1(g, 0);
		snprintf(name, sizeof name, "llvm.nvvm.cp.async.bulk.tensor.s2g.tile.%dd", rank);
		call(g, name, args, n, "");
		return;
	}
	first = op->opc == IR_TMA_LOAD_MC ? 4 : 3;
	args[n++] = as_cluster(g, aval(g, op, 0));      /* dst */
	args[n++] = aval(g, op, 2);                     /* mbarrier */
	args[n++] = aval(g, op, 1);                     /* map */
	for (i = op->nargs - 1; i >= first; i--)
		args[n++] = ival(g, op, i);
	args[n++] = op->opc == IR_TMA_LOAD_MC
		    ? LLVMBuildTrunc(g->b, ival(g, op, 3), LLVMInt16TypeInContext(g->ctx), "")
		    : LLVMConstInt(LLVMInt16TypeInContext(g->ctx), 0, 0);
	args[n++] = c64(g, 0);
	args[n++] = c1(g, op->opc == IR_TMA_LOAD_MC);   /* use the CTA mask */
	args[n++] = c1(g, 0);                           /* use the cache hint */
	args[n++] = c32(g, 0);                          /* cta_group: none */
	snprintf(name, sizeof name, "llvm.nvvm.cp.async.bulk.tensor.g2s.tile.%dd", rank);
	call(g, name, args, n, "");
}

/* wgmma.desc[swizzle]: the shared-memory matrix descriptor of a K-major operand (PTX ISA,
 * "Matrix Descriptor Format", sm_90): start address >> 4 in bits 0-13, leading byte offset
 * >> 4 in 16-29 (1: unused for swizzled K-major), stride byte offset >> 4 in 32-45 (the 8-row
 * core-matrix group: 8 rows of the swizzle span), base offset 0 (operands start on the
 * swizzle pattern's alignment) and the layout in 62-63 (128B 1, 64B 2, 32B 3). */
static LLVMValueRef
wgmma_desc(LlvmGen *g, const IrOp *op, const char *nm)
{
	int sw = (int)op->imm;
	uint64_t layout = sw == 128 ? 1 : sw == 64 ? 2 : 3, sbo = (uint64_t)sw * 8;
	uint64_t fixed = (UINT64_C(1) << 16) | ((sbo >> 4) << 32) | (layout << 62);
	LLVMValueRef a;

	if (sw != 32 && sw != 64 && sw != 128) {
		lg_error(g, op, "swizzle %d", sw);
		return LLVMGetPoison(i64t(g));
	}
	a = LLVMBuildPtrToInt(g->b, aval(g, op, 0), i32t(g), "");
	a = LLVMBuildZExt(g->b, a, i64t(g), "");
	a = LLVMBuildLShr(g->b, LLVMBuildAnd(g->b, a, c64(g, 0x3ffff), ""), c64(g, 4), "");
	return LLVMBuildOr(g->b, a, c64(g, fixed), nm);
}

/* ---- wgmma: inline asm with the accumulator lanes tied in and out ---- */

/* The f32 lanes of the accumulator operands [first, first + n) of op, flattened. */
static int
acc_lanes(LlvmGen *g, const IrOp *op, int first, int n, LLVMValueRef *out)
{
	int i, j, m = 0;

	for (i = first; i < first + n; i++) {
		IrType t = ir_vtype(g->k, op->args[i]);
		LLVMValueRef v, *l;

		if (lg_is_frag(t)) {
			l = lg_lanes(g, op, op->args[i]);
			for (j = 0; j < t.lanes; j++)
				out[m++] = l[j];
			continue;
		}
		v = aval(g, op, i);
		if (t.lanes == 1) {
			out[m++] = v;
			continue;
		}
		for (j = 0; j < t.lanes; j++)
			out[m++] = LLVMBuildExtractElement(g->b, v, c32(g, j), "");
	}
	return m;
}

/* Rebuilds op's results (one per accumulator operand, same types) from the asm's outputs. */
static void
bind_acc_results(LlvmGen *g, const IrOp *op, LLVMValueRef res, int nlanes)
{
	int i, j, m = 0;

	for (i = 0; i < op->nres; i++) {
		IrType t = ir_vtype(g->k, op->res[i]);
		LLVMValueRef v;
		char nm[32];

		snprintf(nm, sizeof nm, "v%d", op->res[i]);
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

				v = LLVMBuildInsertElement(g->b, v, e, c32(g, j), j == t.lanes - 1 ? nm : "");
			}
		}
		lg_bind(g, op->res[i], v);
	}
}

/* One volatile asm statement: nout f32 outputs tied to the first nout inputs, then the
 * extra inputs with their constraints; clobbers memory. Returns the call. */
static LLVMValueRef
tied_asm(LlvmGen *g, const char *text, LLVMValueRef *ins, int nout, int nextra, const char *extra_cons)
{
	LLVMTypeRef *elems = NULL, *argt, rt;
	Buf cons = {0};
	LLVMValueRef fn, r;
	int i, nin = nout + nextra;

	argt = xcalloc((size_t)nin + 1, sizeof *argt);
	for (i = 0; i < nout; i++)
		buf_printf(&cons, "%s=f", i ? "," : "");
	for (i = 0; i < nout; i++)
		buf_printf(&cons, "%s%d", cons.len ? "," : "", i);
	if (extra_cons && *extra_cons)
		buf_printf(&cons, "%s%s", cons.len ? "," : "", extra_cons);
	buf_printf(&cons, "%s~{memory}", cons.len ? "," : "");
	for (i = 0; i < nin; i++)
		argt[i] = LLVMTypeOf(ins[i]);
	if (nout == 0) {
		rt = LLVMVoidTypeInContext(g->ctx);
	} else if (nout == 1) {
		rt = LLVMFloatTypeInContext(g->ctx);
	} else {
		elems = xcalloc((size_t)nout, sizeof *elems);
		for (i = 0; i < nout; i++)
			elems[i] = LLVMFloatTypeInContext(g->ctx);
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

/* wgmma.fence / wgmma.wait_group n with every lane of the accumulators tied through. */
static void
wgmma_sync(LlvmGen *g, const IrOp *op, const char *insn)
{
	LLVMValueRef *lanes;
	int n = 0, i, nl;

	for (i = 0; i < op->nargs; i++)
		n += ir_vtype(g->k, op->args[i]).lanes;
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

/* The asm text of one wgmma: accumulator lanes $0..lanes-1, descriptors $a and $b, and the
 * scale-d predicate p (set by the caller). */
static void
wgmma_text(Buf *text, const IrOp *op, int lanes, int a, int b)
{
	int n = (int)(op->imm & 0xffff), f16 = (int)(op->imm >> 16) == 1, i;
	const char *ab = f16 ? "f16" : "bf16";

	buf_printf(text, "wgmma.mma_async.sync.aligned.m64n%dk16.f32.%s.%s {", n, ab, ab);
	for (i = 0; i < lanes; i++)
		buf_printf(text, "%s$%d", i ? ", " : "", i);
	buf_printf(text, "}, $%d, $%d, p, 1, 1, 0, 0;\n", a, b);
}

static int
wgmma_ok(LlvmGen *g, const IrOp *op)
{
	int n = (int)(op->imm & 0xffff);

	if (n < 8 || n > 256 || n % 8 || ir_vtype(g->k, op->args[0]).lanes != n / 2 || op->nres != 1) {
		lg_error(g, op, "wgmma[%lld] with a %d-lane accumulator", (long long)op->imm,
			 ir_vtype(g->k, op->args[0]).lanes);
		return 0;
	}
	return 1;
}

/* A wgmma group as the IR writes it: wgmma.fence of one accumulator, wgmmas that chain it
 * (each takes the previous one's result), pure ops that compute their descriptors, and
 * wgmma.commit. Returns the index of the commit in r, or -1 when ops[i] does not start one
 * or a link of the chain (the fence's result, a wgmma's but the last) has another use. */
static int
wgmma_group_end(LlvmGen *g, const IrRegion *r, int i)
{
	const IrOp *f = &r->ops[i];
	IrValue chain;
	int j, k, nmma = 0;

	if (f->opc != IR_WGMMA_FENCE || f->nargs != 1 || f->nres != 1 || !lg_is_frag(ir_vtype(g->k, f->res[0])))
		return -1;
	chain = f->res[0];
	for (j = i + 1; j < r->nops; j++) {
		const IrOp *op = &r->ops[j];

		if (op->opc == IR_WGMMA_COMMIT)
			return nmma && g->uses[chain] > 0 ? j : -1;
		if (op->opc == IR_WGMMA && op->args[0] == chain && g->uses[chain] == 1) {
			chain = op->res[0];
			nmma++;
			continue;
		}
		if (!(ir_opinfo[op->opc].flags & OPF_PURE) || op->nregions)
			return -1;
		for (k = 0; k < op->nargs; k++)
			if (op->args[k] == chain)
				return -1;
	}
	return -1;
}

/* Lowers a wgmma group (see wgmma_group_end) into one asm statement: the fence, every
 * wgmma and the commit, with the accumulator tied in once and out once. Per-wgmma asm would
 * tie all lanes through each instruction, and instruction selection would copy them each
 * time. Returns the number of ops lowered, or 0 when r->ops[i] starts no group. */
int
lg_wgmma_group(LlvmGen *g, const IrRegion *r, int i)
{
	int end = wgmma_group_end(g, r, i), j, lanes, nin, nmma = 0;
	const IrOp *f = &r->ops[i], *last = NULL;
	LLVMValueRef *ins;
	IrValue scale = 0;
	Buf text = {0}, cons = {0};

	if (end < 0)
		return 0;
	for (j = i + 1; j < end; j++) {
		if (r->ops[j].opc != IR_WGMMA)
			lg_op(g, &r->ops[j]);
		else if (!wgmma_ok(g, &r->ops[j]))
			return end - i + 1;
		else
			nmma++;
	}
	lanes = ir_vtype(g->k, f->res[0]).lanes;
	ins = xcalloc((size_t)lanes + 3 * (size_t)nmma, sizeof *ins);
	acc_lanes(g, f, 0, 1, ins);
	nin = lanes;
	buf_puts(&text, "{\n.reg .pred p;\nwgmma.fence.sync.aligned;\n");
	for (j = i + 1; j < end; j++) {
		const IrOp *op = &r->ops[j];
		LLVMValueRef s;

		if (op->opc != IR_WGMMA)
			continue;
		ins[nin] = aval(g, op, 1);
		ins[nin + 1] = aval(g, op, 2);
		buf_printf(&cons, ",l,l");
		if (op->args[3] != scale) {
			/* a constant scale-d (the usual case) is an immediate */
			s = LLVMBuildZExt(g->b, aval(g, op, 3), i32t(g), "");
			ins[nin + 2] = s;
			buf_printf(&cons, ",%s", LLVMIsAConstantInt(s) ? "n" : "r");
			buf_printf(&text, "setp.ne.b32 p, $%d, 0;\n", lanes + nin + 2);
			scale = op->args[3];
			wgmma_text(&text, op, lanes, lanes + nin, lanes + nin + 1);
			nin += 3;
		} else {
			wgmma_text(&text, op, lanes, lanes + nin, lanes + nin + 1);
			nin += 2;
		}
		last = op;
	}
	buf_puts(&text, "wgmma.commit_group.sync.aligned;\n}");
	bind_acc_results(g, last, tied_asm(g, text.s, ins, lanes, nin - lanes, cons.s + 1), lanes);
	buf_free(&text);
	buf_free(&cons);
	free(ins);
	return end - i + 1;
}

static void
wgmma(LlvmGen *g, const IrOp *op)
{
	int lanes = (int)(op->imm & 0xffff) / 2;
	const char *scale_cons;
	LLVMValueRef *ins;
	Buf text = {0};

	if (!wgmma_ok(g, op))
		return;
	ins = xcalloc((size_t)lanes + 3, sizeof *ins);
	acc_lanes(g, op, 0, 1, ins);
	ins[lanes] = aval(g, op, 1);
	ins[lanes + 1] = aval(g, op, 2);
	ins[lanes + 2] = LLVMBuildZExt(g->b, aval(g, op, 3), i32t(g), "");
	/* a constant scale-d (the usual case) is an immediate, not a register to set up */
	scale_cons = LLVMIsAConstantInt(ins[lanes + 2]) ? "l,l,n" : "l,l,r";
	/* operands: $0..$lanes-1 the outputs, then the tied inputs, then desc A, desc B, scale-d */
	buf_printf(&text, "{\n.reg .pred p;\nsetp.ne.b32 p, $%d, 0;\n", 2 * lanes + 2);
	wgmma_text(&text, op, lanes, 2 * lanes, 2 * lanes + 1);
	buf_puts(&text, "}");
	bind_acc_results(g, op, tied_asm(g, text.s, ins, lanes, 3, scale_cons), lanes);
	buf_free(&text);
	free(ins);
}

/* ---- dispatch ---- */

void
lg_async_op(LlvmGen *g, const IrOp *op)
{
	LLVMValueRef r = NULL, args[2];
	char nm[32];

	nm[0] = 0;
	if (op->nres)
		snprintf(nm, sizeof nm, "v%d", op->res[0]);
	if (ir_opinfo[op->opc].flags & OPF_HIGH) {
		lg_error(g, op, "internal: a high-level region op reached the backend (pass lower-async "
			 "lowers it)");
		return;
	}
	if (!(ir_op_targets(op->opc) & (1u << g->target))) {
		lg_error(g, op, "does not exist on %s (the verifier gates it)", ir_target_name(g->target));
		return;
	}
	switch (op->opc) {
	case IR_MBAR: r = mbar_addr(g, op, nm); break;
	case IR_SMEM_STAGE: r = stage_addr(g, op, nm); break;
	case IR_MBAR_INIT:
		args[0] = aval(g, op, 0);
		args[1] = c32(g, op->imm);
		call(g, "llvm.nvvm.mbarrier.init.shared", args, 2, "");
		break;
	case IR_MBAR_ARRIVE:
		args[0] = aval(g, op, 0);
		call(g, "llvm.nvvm.mbarrier.arrive.shared", args, 1, "");
		break;
	case IR_MBAR_ARRIVE_TX:
		args[0] = aval(g, op, 0);
		args[1] = ival(g, op, 1);
		call(g, "llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta", args, 2, "");
		break;
	case IR_MBAR_EXPECT_TX:
		args[0] = aval(g, op, 0);
		args[1] = ival(g, op, 1);
		call(g, "llvm.nvvm.mbarrier.expect.tx.scope.cta.space.cta", args, 2, "");
		break;
	case IR_MBAR_WAIT: mbar_wait(g, op); break;
	case IR_MBAR_ARRIVE_REMOTE:
		args[0] = aval(g, op, 0);
		args[1] = ival(g, op, 1);
		args[0] = call(g, "llvm.nvvm.mapa.shared.cluster", args, 2, "");
		args[1] = c32(g, 1);
		call(g, "llvm.nvvm.mbarrier.arrive.scope.cluster.space.cluster", args, 2, "");
		break;
	case IR_FENCE_MBAR_INIT: call(g, "llvm.nvvm.fence.mbarrier_init.release.cluster", NULL, 0, ""); break;
	case IR_FENCE_PROXY_ASYNC: call(g, "llvm.nvvm.fence.proxy.async.shared_cta", NULL, 0, ""); break;
	case IR_TMA_LOAD: case IR_TMA_LOAD_MC: case IR_TMA_STORE: tma(g, op); break;
	case IR_TMA_COMMIT: call(g, "llvm.nvvm.cp.async.bulk.commit.group", NULL, 0, ""); break;
	case IR_TMA_WAIT:
		args[0] = c32(g, op->imm);
		call(g, "llvm.nvvm.cp.async.bulk.wait.group.read", args, 1, "");
		break;
	case IR_ELECT_SYNC:
		args[0] = c32(g, -1);
		r = LLVMBuildExtractValue(g->b, call(g, "llvm.nvvm.elect.sync", args, 1, ""), 1, nm);
		break;
	case IR_SETMAXNREG:
		args[0] = c32(g, op->imm < 0 ? -op->imm : op->imm);
		call(g, op->imm < 0 ? "llvm.nvvm.setmaxnreg.dec.sync.aligned.u32"
				    : "llvm.nvvm.setmaxnreg.inc.sync.aligned.u32", args, 1, "");
		break;
	case IR_CLUSTER_RANK: r = call(g, "llvm.nvvm.read.ptx.sreg.cluster.ctarank", NULL, 0, nm); break;
	case IR_CLUSTER_SYNC:
		call(g, "llvm.nvvm.barrier.cluster.arrive.aligned", NULL, 0, "");
		call(g, "llvm.nvvm.barrier.cluster.wait.aligned", NULL, 0, "");
		break;
	case IR_MAPA:
		args[0] = aval(g, op, 0);
		args[1] = ival(g, op, 1);
		r = call(g, "llvm.nvvm.mapa.shared.cluster", args, 2, nm);
		break;
	case IR_WGMMA_DESC: r = wgmma_desc(g, op, nm); break;
	case IR_WGMMA: wgmma(g, op); return;
	case IR_WGMMA_FENCE: wgmma_sync(g, op, "wgmma.fence.sync.aligned;"); return;
	case IR_WGMMA_COMMIT: tied_asm(g, "wgmma.commit_group.sync.aligned;", NULL, 0, 0, NULL); break;
	case IR_WGMMA_WAIT: {
		char text[64];

		snprintf(text, sizeof text, "wgmma.wait_group.sync.aligned %d;", (int)op->imm);
		if (op->nargs == 1 && op->nres == 1 && g->untied[op->res[0]] && lg_is_frag(ir_vtype(g->k, op->args[0]))) {
			tied_asm(g, text, NULL, 0, 0, NULL);
			lg_bind_lanes(g, op->res[0], lg_lanes(g, op, op->args[0]), ir_vtype(g->k, op->args[0]).lanes);
			return;
		}
		wgmma_sync(g, op, text);
		return;
	}
	default:
		lg_error(g, op, "'%s' cannot be lowered here", ir_opinfo[op->opc].name);
		return;
	}
	if (op->nres)
		lg_bind(g, op->res[0], r ? r : LLVMGetPoison(lg_type(g, ir_vtype(g->k, op->res[0]))));
}
