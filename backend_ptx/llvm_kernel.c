/* backend_ptx/llvm_kernel.c: IR -> LLVM IR -> PTX through LLVM 22's C API.
 *
 * The kernel becomes one `ptx_kernel` function; structured regions become basic blocks with
 * phi nodes; -O2 runs a short LLVM pipeline (OPT_PIPELINE, with the NVPTX target's passes), -O0
 * runs none; the NVPTX target prints the PTX. Per-op generation is in llvm_ops.c (which hands
 * the async ops to llvm_async.c, and it the wgmma ops to llvm_wgmma.c); the value and type
 * helpers they all share are in llvm_values.c.
 *
 * Target facts (LLVM CPU, PTX ISA version) come from the target's row of ir/targets.def.
 * The PTX ISA version is set there rather than left to LLVM: LLVM 22's default differs per
 * CPU (8.0 for the Hopper CPU; for the newest Blackwell CPU it is also the least that CPU
 * accepts), it supports up to 9.0, and CUDA 13.0's ptxas accepts 8.8 and 9.0 for every
 * current target, so one version (8.8) works everywhere without needing the newest ptxas. */
#include "llvm_gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Support.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

#define PTX_TRIPLE "nvptx64-nvidia-cuda"

/* ---- structured regions -> basic blocks ---- */

static const IrOp *gen_region(LlvmGen *g, const IrRegion *r);
static void line_at(LlvmGen *g, SrcLoc l);

static LLVMBasicBlockRef
new_block(LlvmGen *g, const char *name)
{
	return LLVMAppendBasicBlockInContext(g->ctx, g->fn, name);
}

/* Continues in bb, moved to the end of the function so that blocks appear in program order
 * (they are created before the code that branches to them is finished). */
static void
enter(LlvmGen *g, LLVMBasicBlockRef bb)
{
	LLVMMoveBasicBlockAfter(bb, LLVMGetLastBasicBlock(g->fn));
	LLVMPositionBuilderAtEnd(g->b, bb);
}

/* The values a region's terminator passes on (none when the region has no terminator). */
static int
term_args(const IrOp *term, int skip, const IrValue **args)
{
	if (!term || term->nargs <= skip) {
		*args = NULL;
		return 0;
	}
	*args = term->args + skip;
	return term->nargs - skip;
}

/* ---- phis ---- */

/* A fragment of 16-bit floats is carried in pairs of lanes: one <2 x T> phi per two lanes.
 * Lane by lane, each iteration of a loop that carries P for wgmma's A operand would round
 * its lanes one at a time and pack them again (a cvt and a PRMT per lane); in pairs the
 * rounding is one cvt.rn.bf16x2.f32 per two lanes and the operand is the phi itself. */
static int
paired(IrType t)
{
	return lg_is_frag(t) && (t.base == IR_F16 || t.base == IR_BF16) && t.lanes % 2 == 0;
}

/* A phi at the top of the current block, above the code that unpacks paired phis. */
static LLVMValueRef
phi_at_top(LlvmGen *g, LLVMTypeRef t, const char *nm)
{
	LLVMBasicBlockRef bb = LLVMGetInsertBlock(g->b);
	LLVMValueRef i = LLVMGetFirstInstruction(bb), phi;

	while (i && LLVMGetInstructionOpcode(i) == LLVMPHI)
		i = LLVMGetNextInstruction(i);
	if (!i)
		return LLVMBuildPhi(g->b, t, nm);
	LLVMPositionBuilderBefore(g->b, i);
	phi = LLVMBuildPhi(g->b, t, nm);
	LLVMPositionBuilderAtEnd(g->b, bb);
	return phi;
}

/* Phis for v at the top of the current block: one, one per lane of a fragment, or one per
 * pair of lanes (paired), whose lanes are extracted below the phis. */
static void
phi_make(LlvmGen *g, IrValue v)
{
	IrType t = ir_vtype(g->k, v);
	LLVMTypeRef et = lg_type(g, ir_scalar((IrBase)t.base));
	LLVMValueRef phi;
	char nm[32];
	int i;

	snprintf(nm, sizeof nm, "v%d", v);
	if (!lg_is_frag(t)) {
		g->vals[v] = phi_at_top(g, lg_type(g, t), nm);
		g->lanes[v] = NULL;
		return;
	}
	g->vals[v] = NULL;
	g->lanes[v] = arena_alloc(g->arena, (size_t)t.lanes * sizeof *g->lanes[v]);
	for (i = 0; i < t.lanes; i += paired(t) ? 2 : 1) {
		if (g->named)
			snprintf(nm, sizeof nm, "v%d.%d", v, i);
		if (!paired(t)) {
			g->lanes[v][i] = phi_at_top(g, et, g->named ? nm : "");
			continue;
		}
		phi = phi_at_top(g, LLVMVectorType(et, 2), g->named ? nm : "");
		g->lanes[v][i] = LLVMBuildExtractElement(g->b, phi, lg_c32(g, 0), "");
		g->lanes[v][i + 1] = LLVMBuildExtractElement(g->b, phi, lg_c32(g, 1), "");
	}
}

/* The incoming value of pair j of a paired phi, built at the end of bb (before its branch
 * where it has one). */
static LLVMValueRef
pair_in(LlvmGen *g, LLVMValueRef *lanes, int j, LLVMTypeRef et, LLVMBasicBlockRef bb)
{
	LLVMBasicBlockRef cur = LLVMGetInsertBlock(g->b);
	LLVMValueRef term = LLVMGetBasicBlockTerminator(bb), x = LLVMGetPoison(LLVMVectorType(et, 2));

	if (term)
		LLVMPositionBuilderBefore(g->b, term);
	else
		LLVMPositionBuilderAtEnd(g->b, bb);
	if (lanes)
		x = lg_pair(g, lanes[2 * j], lanes[2 * j + 1]);
	LLVMPositionBuilderAtEnd(g->b, cur);
	return x;
}

/* Adds the incoming value in (0: poison, for a region that yields too few) from block bb
 * to the phis of v. A paired phi is the vector its first lane was extracted from. */
static void
phi_incoming(LlvmGen *g, const IrOp *op, IrValue v, IrValue in, LLVMBasicBlockRef bb)
{
	IrType t = ir_vtype(g->k, v);
	LLVMTypeRef et = lg_type(g, ir_scalar((IrBase)t.base));
	LLVMValueRef x, *l = NULL;
	int i;

	if (!lg_is_frag(t)) {
		x = in ? lg_val(g, op, in) : LLVMGetPoison(lg_type(g, t));
		LLVMAddIncoming(g->vals[v], &x, &bb, 1);
		return;
	}
	if (in)
		l = lg_lanes(g, op, in);
	for (i = 0; i < t.lanes; i += paired(t) ? 2 : 1) {
		if (paired(t)) {
			x = pair_in(g, l, i / 2, et, bb);
			LLVMAddIncoming(LLVMGetOperand(g->lanes[v][i], 0), &x, &bb, 1);
			continue;
		}
		x = l ? l[i] : LLVMGetPoison(et);
		LLVMAddIncoming(g->lanes[v][i], &x, &bb, 1);
	}
}

static void
gen_if(LlvmGen *g, const IrOp *op)
{
	LLVMBasicBlockRef then_bb = new_block(g, "then"), else_bb = new_block(g, "else");
	LLVMBasicBlockRef join = new_block(g, "endif"), ends[2];
	const IrValue *ys[2];
	int ny[2], i, j;

	LLVMBuildCondBr(g->b, lg_val(g, op, op->args[0]), then_bb, else_bb);
	for (i = 0; i < 2; i++) {
		const IrOp *term;

		enter(g, i == 0 ? then_bb : else_bb);
		term = i < op->nregions ? gen_region(g, &op->regions[i]) : NULL;
		ny[i] = term_args(term, 0, &ys[i]);
		if (ny[i] != op->nres)
			lg_error(g, op, "region %d yields %d values for %d results", i, ny[i], op->nres);
		ends[i] = LLVMGetInsertBlock(g->b);
		LLVMBuildBr(g->b, join);
	}
	enter(g, join);
	for (j = 0; j < op->nres; j++) {
		phi_make(g, op->res[j]);
		for (i = 0; i < 2; i++)
			phi_incoming(g, op, op->res[j], j < ny[i] ? ys[i][j] : 0, ends[i]);
	}
}

/* llvm.loop metadata for an unroll hint: a distinct self-referencing node (made with a
 * temporary node that is then replaced by the node itself) plus the hint. When the
 * compiler chose the count (plain), a followup for the unrolled loop too: LLVM then gives
 * the unrolled loop that (empty) property list instead of marking it "already unrolled",
 * which the NVPTX printer would turn into `.pragma "nounroll"` for ptxas. */
static void
set_unroll_hint(LlvmGen *g, LLVMValueRef br, int64_t hint, int plain)
{
	LLVMMetadataRef ops[3], prop[2], self;
	const char *what;
	int nprop = 1, nops = 2;

	if (hint == 0)
		return;
	what = hint == 1 ? "llvm.loop.unroll.disable"
	     : hint < 0 ? "llvm.loop.unroll.full" : "llvm.loop.unroll.count";
	prop[0] = LLVMMDStringInContext2(g->ctx, what, strlen(what));
	if (hint > 1)
		prop[nprop++] = LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(g->ctx),
								 (unsigned long long)hint, 0));
	ops[0] = LLVMTemporaryMDNode(g->ctx, NULL, 0);
	ops[1] = LLVMMDNodeInContext2(g->ctx, prop, (size_t)nprop);
	if (plain) {
		static const char followup[] = "llvm.loop.unroll.followup_unrolled";
		LLVMMetadataRef f = LLVMMDStringInContext2(g->ctx, followup, strlen(followup));

		ops[nops++] = LLVMMDNodeInContext2(g->ctx, &f, 1);
	}
	self = LLVMMDNodeInContext2(g->ctx, ops, (size_t)nops);
	LLVMMetadataReplaceAllUsesWith(ops[0], self);
	LLVMSetMetadata(br, LLVMGetMDKindIDInContext(g->ctx, "llvm.loop", 9),
			LLVMMetadataAsValue(g->ctx, self));
}

/* The unroll count of a `for` without a hint whose trip count is known only at run time
 * (a bound not constant, the step constant): 4, with a remainder loop, as NVVM unrolls the
 * same C loop; ptxas may unroll the result again, as it does NVVM's. Left to LLVM's cost
 * model, which prices the trip count ((N + ~lane) >> 5) + 1 of `j in lane .. N step 32`
 * over its budget, the loop stayed one load per iteration; raising that budget instead
 * made LLVM pick 2 for large bodies, which ptxas then no longer unrolled (slower on the
 * H200). Only innermost loops, as LLVM's own runtime unrolling; only those that load
 * from global memory, whose iterations wait on it (a loop of cp.async or of stores gains
 * little, and its registers made cp_fixup spill); and only plain code: a loop with vector
 * accesses was tuned by hand (kernels_src/reduction), its unrolling left as it was. A
 * constant trip count
 * stays LLVM's choice (a small loop is unrolled fully); a loop with a run-time step (a grid-stride loop) is left alone: its trip count needs a
 * division. Unlike a user's unroll(4), the unrolled loop stays open to ptxas's own
 * unrolling (set_unroll_hint). */
enum { PLAIN_RUNTIME_UNROLL = 4 };

enum { HOLDS_LOOP = 1, HOLDS_GLOBAL_LOAD, HOLDS_VECTOR_ACCESS, HOLDS_FRAGMENT_ACCESS };

/* Whether a loop body holds a loop (for, while), a load from global memory, a vector load
 * or store (of 2 or 4 lanes), or a fragment's load or store (wgmma.load, wgmma.store),
 * nested regions included. */
static int
holds(const LlvmGen *g, const IrRegion *r, int what)
{
	int i, j;

	for (i = 0; i < r->nops; i++) {
		const IrOp *o = &r->ops[i];
		int mem = o->opc == IR_LOAD || o->opc == IR_STORE;

		if (what == HOLDS_LOOP && (o->opc == IR_FOR || o->opc == IR_WHILE))
			return 1;
		if (what == HOLDS_GLOBAL_LOAD && o->opc == IR_LOAD
		    && ir_vtype(g->k, o->args[0]).space == IR_GLOBAL)
			return 1;
		if (what == HOLDS_VECTOR_ACCESS && mem
		    && ir_vtype(g->k, o->opc == IR_LOAD ? o->res[0] : o->args[1]).lanes > 1)
			return 1;
		if (what == HOLDS_FRAGMENT_ACCESS && (o->opc == IR_WGMMA_LOAD || o->opc == IR_WGMMA_STORE))
			return 1;
		for (j = 0; j < o->nregions; j++)
			if (holds(g, &o->regions[j], what))
				return 1;
	}
	return 0;
}

/* A `for` whose bounds and step are all constants (LLVM unrolls the small ones fully). */
static int
const_trips(LlvmGen *g, const IrOp *op)
{
	return lg_is_const(g, op->args[0]) && lg_is_const(g, op->args[1]) && lg_is_const(g, op->args[2]);
}

static int64_t
plain_unroll(LlvmGen *g, const IrOp *op)
{
	if (const_trips(g, op) || !lg_is_const(g, op->args[2]))
		return 0;
	if (holds(g, &op->regions[0], HOLDS_LOOP) || !holds(g, &op->regions[0], HOLDS_GLOBAL_LOAD)
	    || holds(g, &op->regions[0], HOLDS_VECTOR_ACCESS))
		return 0;
	return PLAIN_RUNTIME_UNROLL;
}

/* for iv = lo; iv < hi; iv += step: a header testing the bound with phis for the induction
 * variable and the carried values, the body, and a latch branch back that carries the
 * unroll hint. The increment is nsw, as a C `int` loop's is: it lets LLVM widen the
 * induction variable and strength-reduce addresses. */
static void
gen_for(LlvmGen *g, const IrOp *op)
{
	const IrRegion *body = &op->regions[0];
	LLVMBasicBlockRef pre = LLVMGetInsertBlock(g->b);
	LLVMBasicBlockRef head = new_block(g, "for.head"), loop = new_block(g, "for.body");
	LLVMBasicBlockRef done = new_block(g, "for.end"), latch;
	LLVMValueRef iv, cmp, next, br;
	const IrValue *ys;
	const IrOp *term;
	int ncarry = op->nargs - 3, i, ny, outer;

	if (ncarry < 0 || body->nargs != ncarry + 1 || op->nres != ncarry) {
		lg_error(g, op, "for with %d operands, %d region args and %d results", op->nargs,
			 body->nargs, op->nres);
		return;
	}
	LLVMBuildBr(g->b, head);
	enter(g, head);
	for (i = 0; i < body->nargs; i++) {
		phi_make(g, body->args[i]);
		phi_incoming(g, op, body->args[i], op->args[i == 0 ? 0 : i + 2], pre);
	}
	iv = g->vals[body->args[0]];
	cmp = LLVMBuildICmp(g->b, LLVMIntSLT, iv, lg_val(g, op, op->args[1]), "");
	LLVMBuildCondBr(g->b, cmp, loop, done);

	enter(g, loop);
	g->fixed_iv[body->args[0]] = (char)const_trips(g, op);
	outer = g->in_plain_loop;
	g->in_plain_loop = op->imm == 0 && plain_unroll(g, op);
	g->plain_loops += g->in_plain_loop;
	term = gen_region(g, body);
	g->in_plain_loop = outer;
	ny = term_args(term, 0, &ys);
	if (ny != ncarry)
		lg_error(g, op, "the body yields %d values for %d carried", ny, ncarry);
	next = LLVMBuildNSWAdd(g->b, iv, lg_val(g, op, op->args[2]), "");
	latch = LLVMGetInsertBlock(g->b);
	LLVMAddIncoming(iv, &next, &latch, 1);
	for (i = 0; i < ncarry; i++)
		phi_incoming(g, op, body->args[i + 1], i < ny ? ys[i] : 0, latch);
	br = LLVMBuildBr(g->b, head);
	if (op->imm)
		set_unroll_hint(g, br, op->imm, 0);
	else
		set_unroll_hint(g, br, plain_unroll(g, op), 1);

	enter(g, done);
	for (i = 0; i < ncarry; i++)
		lg_alias(g, op, op->res[i], body->args[i + 1]);
}

/* while: the before region (phis for the carried values) ends in `condition`, which leaves
 * or enters the after region; the after region yields the next carried values. The values
 * `condition` passes on dominate both the after region and the exit, so they need no phis. */
static void
gen_while(LlvmGen *g, const IrOp *op)
{
	const IrRegion *before = &op->regions[0], *after = &op->regions[1];
	LLVMBasicBlockRef pre = LLVMGetInsertBlock(g->b);
	LLVMBasicBlockRef head = new_block(g, "while.cond"), loop = new_block(g, "while.body");
	LLVMBasicBlockRef done = new_block(g, "while.end"), latch;
	const IrValue *pass, *ys;
	const IrOp *term;
	int npass, ny, i, outer;

	if (before->nargs != op->nargs) {
		lg_error(g, op, "while with %d operands but %d before-region args", op->nargs, before->nargs);
		return;
	}
	LLVMBuildBr(g->b, head);
	enter(g, head);
	for (i = 0; i < before->nargs; i++) {
		phi_make(g, before->args[i]);
		phi_incoming(g, op, before->args[i], op->args[i], pre);
	}
	outer = g->in_plain_loop;
	g->in_plain_loop = 0;
	term = gen_region(g, before);
	if (!term || term->opc != IR_CONDITION || term->nargs < 1) {
		lg_error(g, op, "the before region does not end in condition");
		g->in_plain_loop = outer;
		return;
	}
	npass = term_args(term, 1, &pass);
	if (npass != after->nargs || npass != op->nres)
		lg_error(g, op, "condition passes %d values for %d after-region args and %d results",
			 npass, after->nargs, op->nres);
	LLVMBuildCondBr(g->b, lg_val(g, op, term->args[0]), loop, done);

	enter(g, loop);
	for (i = 0; i < after->nargs && i < npass; i++)
		lg_alias(g, op, after->args[i], pass[i]);
	term = gen_region(g, after);
	g->in_plain_loop = outer;
	ny = term_args(term, 0, &ys);
	if (ny != before->nargs)
		lg_error(g, op, "the after region yields %d values for %d carried", ny, before->nargs);
	latch = LLVMGetInsertBlock(g->b);
	for (i = 0; i < before->nargs; i++)
		phi_incoming(g, op, before->args[i], i < ny ? ys[i] : 0, latch);
	LLVMBuildBr(g->b, head);

	enter(g, done);
	for (i = 0; i < op->nres && i < npass; i++)
		lg_alias(g, op, op->res[i], pass[i]);
}

/* Lowers the ops of r into the current block (and the blocks its control flow adds);
 * returns r's terminator, which the parent op turns into branches and phis. */
static const IrOp *
gen_region(LlvmGen *g, const IrRegion *r)
{
	int i;

	for (i = 0; i < r->nops; i++) {
		const IrOp *op = &r->ops[i];

		if (g->di)
			line_at(g, op->loc);
		switch (op->opc) {
		case IR_WGMMA_FENCE: {
			int n = lg_wgmma_group(g, r, i);

			if (n) {
				i += n - 1;
				break;
			}
			lg_op(g, op);
			break;
		}
		case IR_IF: gen_if(g, op); break;
		case IR_FOR: gen_for(g, op); break;
		case IR_WHILE: gen_while(g, op); break;
		case IR_YIELD: case IR_CONDITION: case IR_RET: return op;
		default: lg_op(g, op); break;
		}
	}
	return NULL;
}

/* ---- the line table (--lineinfo) ---- */

/* The compile unit of the kernel's file (PTX's `.file`), and the kernel's subprogram. Only
 * directives: ptxas wants no DWARF sections from us (LLVM's DebugDirectivesOnly, which the
 * C API's enum lacks, is 3 past its LineTablesOnly). */
static void
line_begin(LlvmGen *g)
{
	LLVMDIBuilderRef di = LLVMCreateDIBuilder(g->mod);
	const char *path = g->k->file >= 0 ? diag_source_path(g->k->file) : NULL;
	LLVMMetadataRef file, cu, sp;
	unsigned line = 0;
	int i;

	for (i = 0; i < g->k->body.nops && !line; i++)
		line = (unsigned)g->k->body.ops[i].loc.line;
	path = path ? path : "";
	file = LLVMDIBuilderCreateFile(di, path, strlen(path), "", 0);
	cu = LLVMDIBuilderCreateCompileUnit(di, LLVMDWARFSourceLanguageC, file, "cakec", 5, 1, "", 0, 0,
					    "", 0, (LLVMDWARFEmissionKind)3, 0, 0, 0, "", 0, "", 0);
	sp = LLVMDIBuilderCreateFunction(di, cu, g->k->name, strlen(g->k->name), "", 0, file,
					 line, LLVMDIBuilderCreateSubroutineType(di, file, NULL, 0, LLVMDIFlagZero), 0, 1,
					 line, LLVMDIFlagZero, 1);
	LLVMSetSubprogram(g->fn, sp);
	LLVMAddModuleFlag(g->mod, LLVMModuleFlagBehaviorWarning, "Debug Info Version", 18,
			  LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(g->ctx), LLVMDebugMetadataVersion(), 0)));
	g->di = di;
	g->sp = sp;
}

/* The instructions built from here on come from source location l: a line of the kernel's
 * file, or of an imported one (a scope of its own in the subprogram). */
static void
line_at(LlvmGen *g, SrcLoc l)
{
	LLVMMetadataRef scope = g->sp;

	if (l.line <= 0)
		return;
	if (l.file != g->k->file && l.file >= 0) {
		if (l.file >= g->nscopes) {
			g->scopes = xrealloc(g->scopes, sizeof *g->scopes * (size_t)(l.file + 1));
			memset(g->scopes + g->nscopes, 0, sizeof *g->scopes * (size_t)(l.file + 1 - g->nscopes));
			g->nscopes = l.file + 1;
		}
		if (!g->scopes[l.file]) {
			const char *path = diag_source_path(l.file);

			path = path ? path : "";
			g->scopes[l.file] = LLVMDIBuilderCreateLexicalBlockFile(
				g->di, g->sp, LLVMDIBuilderCreateFile(g->di, path, strlen(path), "", 0), 0);
		}
		scope = g->scopes[l.file];
	}
	LLVMSetCurrentDebugLocation2(g->b, LLVMDIBuilderCreateDebugLocation(g->ctx, (unsigned)l.line,
									(unsigned)l.col, scope, NULL));
}

static void
line_end(LlvmGen *g)
{
	if (!g->di)
		return;
	LLVMDIBuilderFinalize(g->di);
	LLVMDisposeDIBuilder(g->di);
	free(g->scopes);
	g->di = NULL;
}

/* ---- the kernel function ---- */

static int
tied_use(const IrOp *op, int j)
{
	return op->opc == IR_WGMMA_FENCE || op->opc == IR_WGMMA_WAIT || (op->opc == IR_WGMMA && j == 0);
}

static void
count_uses(LlvmGen *g, const IrRegion *r)
{
	int i, j;

	for (i = 0; i < r->nops; i++) {
		const IrOp *op = &r->ops[i];

		for (j = 0; j < op->nargs; j++)
			if (op->args[j] > 0 && op->args[j] < g->k->nvalues) {
				g->uses[op->args[j]]++;
				g->tied_uses[op->args[j]] += tied_use(op, j);
			}
		for (j = 0; j < op->nregions; j++)
			count_uses(g, &op->regions[j]);
	}
}

/* A wgmma.wait inside a loop whose result is only carried around the loop, to be read
 * again by wgmma ops (fence, wgmma, wait: asm that ties the lanes itself), needs no ties of
 * its own: nothing else reads the lanes in between, and the asm statements keep their
 * order. The GEMM main loop's wait[1] is one: tying 128 lanes through it costs compile
 * time and nothing more. Marks those waits' results in g->untied. */
static void
find_untied_waits(LlvmGen *g, const IrRegion *r)
{
	int i, j, c;

	for (i = 0; i < r->nops; i++) {
		const IrOp *op = &r->ops[i];
		const IrRegion *body;
		const IrOp *y;

		for (j = 0; j < op->nregions; j++)
			find_untied_waits(g, &op->regions[j]);
		if (op->opc != IR_FOR || op->nregions != 1)
			continue;
		body = &op->regions[0];
		y = body->nops ? &body->ops[body->nops - 1] : NULL;
		if (!y || y->opc != IR_YIELD || body->nargs != y->nargs + 1 || op->nres != y->nargs)
			continue;
		for (c = 0; c < y->nargs; c++) {
			IrValue w = y->args[c], a = body->args[c + 1], res = op->res[c];

			if (w <= 0 || g->uses[w] != 1 || g->uses[a] != g->tied_uses[a] ||
			    g->uses[res] != g->tied_uses[res])
				continue;
			for (j = 0; j < body->nops; j++)
				if (body->ops[j].opc == IR_WGMMA_WAIT && body->ops[j].nargs == 1 &&
				    body->ops[j].nres == 1 && body->ops[j].res[0] == w)
					g->untied[w] = 1;
		}
	}
}

static void
add_attr(LlvmGen *g, LLVMValueRef fn, unsigned idx, const char *name)
{
	unsigned kind = LLVMGetEnumAttributeKindForName(name, strlen(name));

	LLVMAddAttributeAtIndex(fn, idx, LLVMCreateEnumAttribute(g->ctx, kind, 0));
}

static void
add_str_attr(LlvmGen *g, LLVMValueRef fn, const char *key, const char *value)
{
	LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
				LLVMCreateStringAttribute(g->ctx, key, (unsigned)strlen(key), value,
							  (unsigned)strlen(value)));
}

/* A CUtensorMap parameter: 128 bytes by value, 64-byte aligned, and a grid constant, so
 * that its address is the parameter itself (TMA reads the map there) instead of a local
 * copy, which TMA could not use. LLVM 22 spells it as the "nvvm.grid_constant" parameter
 * attribute. */
static void
tmap_param_attrs(LlvmGen *g, unsigned idx)
{
	static const char gc[] = "nvvm.grid_constant";
	LLVMTypeRef map = LLVMArrayType2(LLVMInt8TypeInContext(g->ctx), 128);
	unsigned byval = LLVMGetEnumAttributeKindForName("byval", 5);
	unsigned align = LLVMGetEnumAttributeKindForName("align", 5);

	LLVMAddAttributeAtIndex(g->fn, idx, LLVMCreateTypeAttribute(g->ctx, byval, map));
	LLVMAddAttributeAtIndex(g->fn, idx, LLVMCreateEnumAttribute(g->ctx, align, 64));
	add_attr(g, g->fn, idx, "readonly");
	add_attr(g, g->fn, idx, "noalias");
	LLVMAddAttributeAtIndex(g->fn, idx, LLVMCreateStringAttribute(g->ctx, gc, sizeof gc - 1, "", 0));
}

/* launch(dependent): the launcher lets this kernel start before the kernel ahead of it on
 * the stream has finished (programmatic dependent launch). Its first instructions let the
 * next kernel start the same way once every block of this one has started, then wait
 * until the one ahead has finished and its memory is visible, so that nothing the body
 * reads or writes can race with it. Inline asm with a memory clobber, not the NVVM
 * intrinsics: those are marked as not touching memory, so LLVM could move a load of an
 * input above the wait. */
static void
dependent_entry(LlvmGen *g)
{
	static const char text[] = "griddepcontrol.launch_dependents;\n\tgriddepcontrol.wait;";
	LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(g->ctx), NULL, 0, 0);

	LLVMBuildCall2(g->b, fty, LLVMGetInlineAsm(fty, text, sizeof text - 1, "~{memory}", 9, 1, 0,
						   LLVMInlineAsmDialectATT, 0), NULL, 0, "");
}

static void
build_kernel(LlvmGen *g, const char *symbol)
{
	const IrKernel *k = g->k;
	LLVMTypeRef *ptys = xcalloc((size_t)k->nparams + 1, sizeof *ptys);
	char ntid[64];
	const IrOp *term;
	unsigned align_kind = LLVMGetEnumAttributeKindForName("align", 5);
	int i, *align;

	for (i = 0; i < k->nparams; i++)
		ptys[i] = lg_type(g, k->params[i].type);
	g->fn = LLVMAddFunction(g->mod, symbol,
				LLVMFunctionType(LLVMVoidTypeInContext(g->ctx), ptys, (unsigned)k->nparams, 0));
	free(ptys);
	LLVMSetFunctionCallConv(g->fn, LLVMPTXKernelCallConv);
	/* The thread count is fixed by the kernel and the launcher uses exactly it: reqntid
	 * (ptxas rejects .maxntid next to .reqntid, and reqntid implies the maximum). LLVM
	 * also uses it to bound tid/ntid. */
	snprintf(ntid, sizeof ntid, "%d,%d,%d", k->threads[0], k->threads[1], k->threads[2]);
	add_str_attr(g, g->fn, "nvvm.reqntid", ntid);
	if (k->min_blocks > 0) {
		snprintf(ntid, sizeof ntid, "%d", k->min_blocks);
		add_str_attr(g, g->fn, "nvvm.minctasm", ntid);
	}
	/* .reqnctapercluster: the launcher always uses the kernel's cluster dims, and ptxas
	 * may rely on them */
	if (k->cluster[0] * k->cluster[1] * k->cluster[2] > 1) {
		snprintf(ntid, sizeof ntid, "%d,%d,%d", k->cluster[0], k->cluster[1], k->cluster[2]);
		add_str_attr(g, g->fn, "nvvm.cluster_dim", ntid);
	}
	add_attr(g, g->fn, LLVMAttributeFunctionIndex, "nounwind");
	align = xcalloc((size_t)k->nparams + 1, sizeof *align);
	ir_tensor_aligns(k, align);
	for (i = 0; i < k->nparams; i++) {
		const IrParam *p = &k->params[i];
		LLVMValueRef arg = LLVMGetParam(g->fn, (unsigned)i);

		LLVMSetValueName2(arg, p->name, strlen(p->name));
		if (i < k->body.nargs)
			lg_bind(g, k->body.args[i], arg);
		/* Distinct tensors never overlap (the launcher checks), so noalias; an `in`
		 * tensor is only read, so readonly, which lets NVPTX use ld.global.nc. */
		if (p->kind == PARAM_TENSOR && p->type.base == IR_PTR) {
			add_attr(g, g->fn, (unsigned)i + 1, "noalias");
			if (p->access == ACC_IN)
				add_attr(g, g->fn, (unsigned)i + 1, "readonly");
			/* the base alignment the launcher checks: with it LLVM's load/store
			 * vectorizer may merge adjacent scalar accesses */
			LLVMAddAttributeAtIndex(g->fn, (unsigned)i + 1,
						LLVMCreateEnumAttribute(g->ctx, align_kind, (uint64_t)align[i]));
			g->aligned_tensors += align[i] > ir_type_bytes(ir_scalar((IrBase)p->type.elem));
		}
		if (p->kind == PARAM_TMAP)
			tmap_param_attrs(g, (unsigned)i + 1);
	}
	free(align);
	if (k->body.nargs != k->nparams)
		lg_error(g, NULL, "the body has %d args for %d params", k->body.nargs, k->nparams);
	if (g->lineinfo)
		line_begin(g);
	LLVMPositionBuilderAtEnd(g->b, new_block(g, "entry"));
	if (k->dependent)
		dependent_entry(g);
	term = gen_region(g, &k->body);
	if (term && term->opc != IR_RET)
		lg_error(g, term, "the kernel body ends in '%s', not ret", ir_opinfo[term->opc].name);
	LLVMBuildRetVoid(g->b);
	line_end(g);
}

/* ---- target machine, optimization, PTX ---- */

static int llvm_initialized;

void
ptx_shutdown(void)
{
	if (llvm_initialized)
		LLVMShutdown();
	llvm_initialized = 0;
}

static void
llvm_fatal(const char *reason)
{
	ICE("LLVM: %s", reason);
}

void
ptx_init(void)
{
	/* 32-bit shared-memory addresses, as nvcc uses: shared offsets fit in 32 bits, and
	 * 64-bit address arithmetic would cost registers and instructions. CAKEC_LLVM_ARGS
	 * adds LLVM's own options (e.g. -time-passes) for those who work on the backend;
	 * words split at spaces. */
	static char extra[1024];
	const char *argv[64];
	int argc = 0;
	char *w;

	if (llvm_initialized)
		return;
	LLVMInitializeNVPTXTargetInfo();
	LLVMInitializeNVPTXTarget();
	LLVMInitializeNVPTXTargetMC();
	LLVMInitializeNVPTXAsmPrinter();
	argv[argc++] = "cakec";
	argv[argc++] = "-nvptx-short-ptr";
	/* Two codegen IR passes: the load/store vectorizer, which the -O2/-O3 pipelines run
	 * themselves where alignments are known (VECTORIZE_PASSES); and constant hoisting,
	 * made for targets with costly immediates, which finds nothing in cakec's IR. */
	argv[argc++] = "-disable-nvptx-load-store-vectorizer";
	argv[argc++] = "-disable-constant-hoisting";
	snprintf(extra, sizeof extra, "%s", getenv("CAKEC_LLVM_ARGS") ? getenv("CAKEC_LLVM_ARGS") : "");
	for (w = strtok(extra, " "); w && argc < 64; w = strtok(NULL, " "))
		argv[argc++] = w;
	LLVMParseCommandLineOptions(argc, argv, NULL);
	/* LLVM's own fatal errors (e.g. a selection failure) are ours to report. */
	LLVMInstallFatalErrorHandler(llvm_fatal);
	llvm_initialized = 1;
}

static LLVMTargetMachineRef
make_target(int target, int opt_level, Buf *err)
{
	LLVMTargetRef t;
	char *msg = NULL, features[32];

	ptx_init();
	if (target < 0 || target >= TARGET_COUNT) {
		buf_printf(err, "unknown target %d", target);
		return NULL;
	}
	if (LLVMGetTargetFromTriple(PTX_TRIPLE, &t, &msg)) {
		buf_printf(err, "no NVPTX target in this LLVM: %s", msg ? msg : "?");
		LLVMDisposeMessage(msg);
		return NULL;
	}
	snprintf(features, sizeof features, "+ptx%d", ir_targets[target].ptx_version);
	/* Code generation at LLVM's default level, not aggressive: aggressive only swaps the
	 * EarlyCSE that NVPTX runs before instruction selection for GVN, which found nothing
	 * more on kernels_src (the same PTX, byte for byte) at 3% of a GEMM compile. */
	return LLVMCreateTargetMachine(t, PTX_TRIPLE, ir_targets[target].llvm_cpu, features,
				       opt_level >= 3 ? LLVMCodeGenLevelAggressive
				       : opt_level > 0 ? LLVMCodeGenLevelDefault : LLVMCodeGenLevelNone,
				       LLVMRelocDefault, LLVMCodeModelDefault);
}

/* The -O2 pipeline. cakec's own passes have already folded, CSE'd and cleaned the IR, and
 * the kernels are single functions with no calls, so LLVM's default<O3> (inliner, CGSCC
 * machinery, vectorizers) spends most of a compile on nothing: this list keeps what
 * matters for GPU code (SROA, one instcombine, LICM, the unroller that honours our hints)
 * and cleans up after the unroller with EarlyCSE. On the kernels in kernels_src it gives
 * equal or fewer PTX instructions and registers than default<O3>, and than the same list
 * with a second instcombine and GVN after the unroller, which cost a GEMM 8% and
 * sgemm_tiled 14% of their compile time and left gdp_decode_warp 9 registers more.
 * nvvm-intr-range bounds tid/ntid/ctaid by the launch shape, as the NVPTX target does at
 * the start of its default pipelines. Codegen adds loop strength reduction and NVPTX's
 * own passes. instcombine runs without LLVM's fixpoint verification: that check is an
 * assertion for LLVM's own tests, and with it some loops (a while loop halving a value)
 * ended the compile with an internal error though the code was right. */
#define OPT_PIPELINE \
	"nvvm-intr-range,sroa,early-cse,instcombine<no-verify-fixpoint>,simplifycfg,loop(loop-rotate)," \
	"loop-mssa(licm),loop-unroll<O3>,early-cse,simplifycfg,dce"

/* -O3: instcombine and GVN after the unroller too. On fully unrolled code they expose the
 * address arithmetic that codegen's straight-line strength reduction then rewrites, which
 * made gdp_decode_warp 9% faster on the H200 (bench/RESULTS.md; no longer since its rows
 * share one address, section 55) and its compile 1.6x slower (most of it in that strength
 * reduction). Codegen at the aggressive level. */
#define OPT_PIPELINE_O3 \
	"nvvm-intr-range,sroa,early-cse,instcombine<no-verify-fixpoint>,simplifycfg,loop(loop-rotate)," \
	"loop-mssa(licm),loop-unroll<O3>,instcombine<no-verify-fixpoint>,gvn,simplifycfg,dce"

/* After a kernel's plain loops are unrolled at run time (plain_unroll): induction variable
 * simplification, which rewrites the unrolled loop's exit test to count a trip counter
 * down to zero. With that loop ptxas issues all 16 of col_sum's loads (4 per unrolled
 * iteration, which ptxas unrolls 4 times again) before the first add that waits on one,
 * as in NVRTC's code; without it 13, then the wait (1.22x NVRTC's time on the H200, 0.99x
 * with it: bench/RESULTS.md section 17). Only for kernels with such a loop: 5% of a
 * compile. */
#define PLAIN_LOOP_PASSES ",loop(indvars)"

/* Last, in the kernels vectorizes() picks: alignments from what is known of each address
 * (shared buffers sit at 1024-byte aligned offsets, tensor parameters carry the base
 * alignment the launcher checks, plus the offsets' known low zero bits) onto every load
 * and store, then LLVM's load/store vectorizer, which needs them to merge adjacent scalar
 * accesses into one vector access: four f32 stores at s[4 t + 0 .. 3] become one
 * st.shared.v4 (tests/ptx/vectorize.cake). Elsewhere it could prove no alignment and
 * would merge nothing, so codegen's own run of it stays off (ptx_init). */
#define VECTORIZE_PASSES ",infer-alignment,load-store-vectorizer"

/* At code generation, for a target without packed f32x2 arithmetic (FEAT_F32X2): vector
 * arithmetic split into scalars in the IR, where it is cheap, rather than by instruction
 * selection's type legalizer, which splits every <4 x float> op in two, then each half
 * again: the same PTX instructions (in another order, which ptxas schedules anyway), 7%
 * of gdp_decode_multi_8_1's compile (bench/RESULTS.md section 48). Loads and stores stay
 * vectors. Where f32x2 is native the legalizer keeps <2 x float> whole, and splitting
 * there would lose those packed instructions. Per target, as the optimized module is
 * shared by every target's code generation. */
#define SCALARIZE_PIPELINE "function(scalarizer<min-bits=32>)"

/* Whether the pipeline runs VECTORIZE_PASSES: where alignments are known (shared memory, a
 * tensor checked beyond its element size), and only in plain code: a kernel with vector
 * accesses was tuned by hand, and its access widths stay as written (merging gdp's two
 * 8-byte q and k loads into one of 16 bytes made gdp_decode_warp 12% slower on the H200,
 * bench/RESULTS.md section 20); nor in kernels with fragment loads and stores, which lay
 * out their own accesses (wgmma.store pairs them; wgmma.load's clamped scalar loads have
 * no provable neighbours, and the vectorizer spent a fifth of gemm_bias's LLVM time
 * finding none). */
static int
vectorizes(const LlvmGen *g)
{
	return (g->smem || g->aligned_tensors) && !holds(g, &g->k->body, HOLDS_VECTOR_ACCESS) &&
	       !holds(g, &g->k->body, HOLDS_FRAGMENT_ACCESS);
}

static int
run_pipeline(LLVMModuleRef mod, LLVMTargetMachineRef tm, const char *pipeline, Buf *err)
{
	LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
	LLVMErrorRef e = LLVMRunPasses(mod, pipeline, tm, po);

	LLVMDisposePassBuilderOptions(po);
	if (e) {
		char *msg = LLVMGetErrorMessage(e);

		buf_printf(err, "LLVM pass pipeline: %s", msg);
		LLVMDisposeErrorMessage(msg);
		return -1;
	}
	return 0;
}

static int
optimize(LLVMModuleRef mod, LLVMTargetMachineRef tm, int opt_level, int plain_loops, int vectorize,
	 Buf *err)
{
	char pipeline[512];

	snprintf(pipeline, sizeof pipeline, "function(%s%s%s)", opt_level >= 3 ? OPT_PIPELINE_O3 : OPT_PIPELINE,
		 plain_loops ? PLAIN_LOOP_PASSES : "", vectorize ? VECTORIZE_PASSES : "");
	return run_pipeline(mod, tm, pipeline, err);
}

static int
emit_ptx(LLVMModuleRef mod, LLVMTargetMachineRef tm, Buf *ptx_out, Buf *err)
{
	LLVMMemoryBufferRef mb = NULL;
	char *msg = NULL;

	if (LLVMTargetMachineEmitToMemoryBuffer(tm, mod, LLVMAssemblyFile, &msg, &mb)) {
		buf_printf(err, "NVPTX code generation: %s", msg ? msg : "?");
		LLVMDisposeMessage(msg);
		return -1;
	}
	buf_putn(ptx_out, LLVMGetBufferStart(mb), (int)LLVMGetBufferSize(mb));
	LLVMDisposeMemoryBuffer(mb);
	return 0;
}

/* An optimized module, ready for code generation for any target (cakec's LLVM IR and the
 * -O2/-O3 pipelines do not depend on which NVPTX target: the optimized IR is the same for
 * every target). Other threads get copies through bitcode, each in a context of its own. */
struct PtxModule {
	LLVMContextRef ctx;
	LLVMModuleRef mod;              /* NULL once taken by a code generation */
	LLVMMemoryBufferRef bitcode;    /* for copies; made by ptx_module_share */
	int opt_level;
};

PtxModule *
ptx_build(const IrKernel *k, int target, const char *symbol, int opt_level, int lineinfo, Buf *llvm_out,
	  Buf *err)
{
	LLVMTargetMachineRef tm;
	LLVMTargetDataRef td;
	PtxModule *m = NULL;
	LlvmGen g;
	char *msg = NULL;
	double t0, t1;

	tm = make_target(target, opt_level, err);
	if (!tm)
		return NULL;
	memset(&g, 0, sizeof g);
	g.lane = -1;
	g.k = k;
	g.target = target;
	g.lineinfo = lineinfo;
	g.err = err;
	g.ctx = LLVMContextCreate();
	/* Names cost a symbol-table entry each and only the printed LLVM IR shows them. */
	g.named = llvm_out != NULL;
	LLVMContextSetDiscardValueNames(g.ctx, !g.named);
	g.mod = LLVMModuleCreateWithNameInContext(k->name, g.ctx);
	g.b = LLVMCreateBuilderInContext(g.ctx);
	g.vals = xcalloc((size_t)k->nvalues + 1, sizeof *g.vals);
	g.lanes = xcalloc((size_t)k->nvalues + 1, sizeof *g.lanes);
	g.uses = xcalloc((size_t)k->nvalues + 1, sizeof *g.uses);
	g.tied_uses = xcalloc((size_t)k->nvalues + 1, sizeof *g.tied_uses);
	g.untied = xcalloc((size_t)k->nvalues + 1, 1);
	g.fixed_iv = xcalloc((size_t)k->nvalues + 1, 1);
	g.def = ir_def_map(k);
	count_uses(&g, &k->body);
	find_untied_waits(&g, &k->body);
	g.arena = arena_new();
	g.sscope_device = LLVMGetSyncScopeID(g.ctx, "device", 6);
	LLVMSetTarget(g.mod, PTX_TRIPLE);
	td = LLVMCreateTargetDataLayout(tm);
	LLVMSetModuleDataLayout(g.mod, td);
	LLVMDisposeTargetData(td);

	t0 = clock_ms();
	build_kernel(&g, symbol);
	if (g.failed)
		goto out;
	if (LLVMVerifyModule(g.mod, LLVMReturnStatusAction, &msg)) {
		buf_printf(err, "invalid LLVM module for kernel '%s': %s", k->name, msg ? msg : "?");
		goto out;
	}
	t1 = clock_ms();
	time_add("llvm-build", t1 - t0);
	if (opt_level > 0 && optimize(g.mod, tm, opt_level, g.plain_loops, vectorizes(&g), err) != 0)
		goto out;
	time_add("llvm-opt", clock_ms() - t1);
	/* Printed before code generation, which rewrites the module in place. */
	if (llvm_out) {
		char *str = LLVMPrintModuleToString(g.mod);

		buf_puts(llvm_out, str);
		LLVMDisposeMessage(str);
	}
	m = xcalloc(1, sizeof *m);
	m->ctx = g.ctx;
	m->mod = g.mod;
	m->opt_level = opt_level;
	g.ctx = NULL;
	g.mod = NULL;
out:
	LLVMDisposeMessage(msg);
	free(g.vals);
	free(g.lanes);
	free(g.uses);
	free(g.tied_uses);
	free(g.untied);
	free(g.fixed_iv);
	free((void *)g.def);
	arena_free(g.arena);
	LLVMDisposeBuilder(g.b);
	if (g.mod)
		LLVMDisposeModule(g.mod);
	if (g.ctx)
		LLVMContextDispose(g.ctx);
	LLVMDisposeTargetMachine(tm);
	return m;
}

void
ptx_module_share(PtxModule *m)
{
	if (m && m->mod && !m->bitcode)
		m->bitcode = LLVMWriteBitcodeToMemoryBuffer(m->mod);
}

int
ptx_codegen(PtxModule *m, int target, int copy, Buf *ptx_out, Buf *err)
{
	LLVMTargetMachineRef tm;
	LLVMContextRef ctx = NULL;
	LLVMModuleRef mod = NULL;
	double t0 = clock_ms();
	int rc = -1;

	tm = make_target(target, m->opt_level, err);
	if (!tm)
		return -1;
	if (!copy && m->mod) {
		/* the module itself: code generation rewrites it */
		mod = m->mod;
		m->mod = NULL;
	} else if (copy && m->bitcode) {
		ctx = LLVMContextCreate();
		LLVMContextSetDiscardValueNames(ctx, 1);
		if (LLVMParseBitcodeInContext2(ctx, m->bitcode, &mod)) {
			buf_printf(err, "cannot read back the kernel's bitcode");
			goto out;
		}
	} else {
		buf_printf(err, copy ? "ptx_codegen: a copy of a module that was not shared"
				     : "ptx_codegen: the module was already generated");
		goto out;
	}
	if (m->opt_level > 0 && !(ir_targets[target].features & FEAT_F32X2) &&
	    run_pipeline(mod, tm, SCALARIZE_PIPELINE, err) != 0)
		goto out;
	if (emit_ptx(mod, tm, ptx_out, err) != 0)
		goto out;
	time_add("llvm-codegen", clock_ms() - t0);
	rc = 0;
out:
	if (mod && ctx)
		LLVMDisposeModule(mod);
	else if (mod)
		m->mod = NULL, LLVMDisposeModule(mod);
	if (ctx)
		LLVMContextDispose(ctx);
	LLVMDisposeTargetMachine(tm);
	return rc;
}

void
ptx_module_free(PtxModule *m)
{
	if (!m)
		return;
	if (m->bitcode)
		LLVMDisposeMemoryBuffer(m->bitcode);
	if (m->mod)
		LLVMDisposeModule(m->mod);
	if (m->ctx)
		LLVMContextDispose(m->ctx);
	free(m);
}

int
ptx_emit(const IrKernel *k, int target, const char *symbol, int opt_level,
	 Buf *llvm_out, Buf *ptx_out, Buf *err)
{
	PtxModule *m = ptx_build(k, target, symbol, opt_level, 0, llvm_out, err);
	int rc;

	if (!m)
		return -1;
	rc = ptx_out ? ptx_codegen(m, target, 0, ptx_out, err) : 0;
	ptx_module_free(m);
	return rc;
}
