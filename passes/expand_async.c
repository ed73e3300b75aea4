/* expand_async.c: expands the high-level async region ops (docs/ir.md, "Async ops and the
 * schedule rules").
 *
 *   role %lo, %hi, %regs, inits { body }   ->  if (warpid in lo..hi) { setmaxnreg; body }
 *                                              else { yield inits }
 *   elect inits { body }                   ->  if (elect.sync) { body } else { yield inits }
 *   produce[p] %stage, %phase { body }     ->  mbar.wait empty[stage], phase ^ 1
 *                                              [tcgen05.fence.after]  (body has tcgen05 ops)
 *                                              mbar.arrive.tx full[stage], <TMA bytes>  (tma)
 *                                              body
 *                                              mbar.arrive full[stage]        (thread, warp..)
 *                                              tcgen05.commit full[stage]          (mma)
 *   consume[p] %stage, %phase { body }     ->  mbar.wait full[stage], phase
 *                                              [tcgen05.fence.after]  (body has tcgen05 ops)
 *                                              body
 *                                              [wgmma.commit]    (body has wgmma)
 *                                              [tcgen05.fence.before] (body has tcgen05.ld/st)
 *                                              mbar.arrive empty[stage]       (thread, warp..)
 *                                              tcgen05.commit empty[stage]         (mma)
 *
 * In a kernel of CTA pairs (ir_cta_pair) a pipeline with an mma side is a pair pipeline
 * (ir_pair_pipeline): its commits arrive in both CTAs (tcgen05.commit with the mask
 * 3 << (rank & ~1)); its other side signals the leader's barrier: mbar.arrive.remote to
 * rank & ~1, or for a tma full side the pair bit on the block's loads (they complete on the
 * leader's barrier) and the leader's arrive.tx with the bytes of both CTAs. A role[1]
 * (leader) adds (cluster.rank & 1) == 0 to its condition.
 *
 * A pipeline with a cluster release (IrPipeline.empty_cluster: its produce multicasts
 * into other CTAs' stages) releases a stage in every CTA of the cluster: a commit with the
 * mask of every CTA, a thread's remote arrive on each CTA, or for a warp, after warp.sync,
 * lane r's on rank r (ir_pipe_count has the matching counts).
 *
 * The tcgen05 fences order the thread's tcgen05 ops after the wait (the MMA may not start
 * before the stage is full or the accumulator free) and its TMEM loads and stores, which
 * tmem_load already waited for (tcgen05.wait.ld), before the arrive that lets another
 * thread's MMA overwrite those columns. An `mma` source is released by tcgen05.commit: it
 * arrives once the thread's MMAs so far completed, so the stage is not refilled (nor the
 * accumulator read) while they still read (write) it.
 *
 * The TMA bytes are the boxes of the TMA loads at the top of the produce body that signal
 * the pipeline's full barrier (schedule-check rejects loads deeper in control flow); a
 * multicast load counts once per CTA of its mask (ir_tma_load_bytes). setmaxnreg raises
 * (.inc) or lowers (.dec) the budget from the entry budget (ir_entry_regs: the count ptxas
 * gives a kernel with its launch bounds, the same one schedule-check's register budget
 * uses); a budget equal to it needs no instruction.
 *
 * A consume whose body issues wgmma must not release its stage before those wgmmas have
 * read it. When the consume is the only wgmma user at the top of a `for` body and its
 * accumulators only flow to the loop's yield, the loop keeps one group in flight:
 * wgmma.wait[1] after each stage's commit retires the previous stage's group, which is
 * released then (its index is carried as a new loop value, -1 before the first); after the
 * loop, wgmma.wait[0] retires the last group (the loop's accumulator results are read only
 * through it) and the last stage is released. Elsewhere the groups stay in flight past the
 * body: once every consume is spliced, expand_wgmma_waits (wgmma_wait.c) retires each
 * where the code after it first reads its registers, at the latest before the release
 * (an arrive writes memory), so that the ops between overlap the tensor cores.
 *
 * If the kernel has mbarriers but no mbar.init (IR written by hand), thread 0 initialises
 * every barrier object with its count at kernel entry, then fence.mbar_init and a CTA
 * barrier (cluster.sync when the kernel has a cluster), as the frontend does.
 *
 * Requires: verified IR (role operands constant, stage/phase i32, pipelines and barriers
 *   valid); schedule-check run before it for the rules it relies on.
 * Guarantees: no role, elect, produce or consume op is left; the results of produce and
 *   consume are replaced by the values their bodies yield (or the wgmma.wait results); role
 *   and elect results become the results of the ifs; values are not renumbered.
 * Invalidates: nothing outside the ops (buffer and barrier offsets stay valid); the
 *   compares, ifs and constants it builds have not been canonicalized.
 */
#include "passes.h"

#include <stdlib.h>
#include <string.h>

typedef struct Expand {
	IrKernel *k;
	int nold;               /* values before the pass; the tables below cover these */
	IrRewriter subst;       /* results of the expanded ops -> the values replacing them */
	unsigned char *isconst;
	int64_t *cval;
	int *mbarof;            /* per old value: the barrier an `mbar` result addresses, or -1 */
	unsigned char *shlconst;  /* per old value: a shl of a constant, the CTAs its bits name */
	int entry_regs;
	int nwarps;
	int pair;               /* the kernel pairs CTAs (ir_cta_pair) */
} Expand;

/* The consume at index `index` of the region being expanded runs in a loop that carries
 * `prev`, the stage whose release is still pending. */
typedef struct Carry {
	int index;
	IrValue prev;
} Carry;

static const IrType t_i1 = {IR_I1, 1, 0, 0};
static const IrType t_i32 = {IR_I32, 1, 0, 0};
static const IrType t_bar = {IR_PTR, 1, IR_SHARED, IR_I64};

static int
const_of(const Expand *E, IrValue v, int64_t *out)
{
	if (v <= 0 || v >= E->nold || !E->isconst[v])
		return 0;
	*out = E->cval[v];
	return 1;
}

static void
scan_values(IrOp *op, void *ctx)
{
	Expand *E = ctx;

	if (op->nres != 1 || op->res[0] <= 0 || op->res[0] >= E->nold)
		return;
	if (op->opc == IR_CONST && ir_is_int(ir_vtype(E->k, op->res[0]))) {
		E->isconst[op->res[0]] = 1;
		E->cval[op->res[0]] = op->imm;
	} else if (op->opc == IR_MBAR) {
		E->mbarof[op->res[0]] = (int)op->imm;
	} else if (op->opc == IR_SHL && op->nargs == 2 && op->args[0] > 0 && op->args[0] < E->nold &&
		   E->isconst[op->args[0]]) {
		E->shlconst[op->res[0]] = (unsigned char)ir_mask_ctas(E->cval[op->args[0]]);
	}
}

/* tcgen05 ops that a thread orders with fences around barrier waits and arrives */
static int
is_tcgen05_op(int opc)
{
	return opc == IR_TCGEN05_MMA || opc == IR_TCGEN05_LD || opc == IR_TCGEN05_ST ||
	       opc == IR_TCGEN05_WAIT_LD || opc == IR_TCGEN05_WAIT_ST || opc == IR_TCGEN05_COMMIT;
}

/* Whether r holds a tcgen05 op (only tcgen05.ld/st when ldst), at any depth. */
static int
has_tcgen05(const IrRegion *r, int ldst)
{
	int i, j, opc;

	for (i = 0; i < r->nops; i++) {
		opc = r->ops[i].opc;
		if (ldst ? opc == IR_TCGEN05_LD || opc == IR_TCGEN05_ST : is_tcgen05_op(opc))
			return 1;
		for (j = 0; j < r->ops[i].nregions; j++)
			if (has_tcgen05(&r->ops[i].regions[j], ldst))
				return 1;
	}
	return 0;
}

/* Whether r holds an op with opcode opc (any wgmma op when opc is -1), at any depth. */
static int
contains(const IrRegion *r, int opc)
{
	int i, j;

	for (i = 0; i < r->nops; i++) {
		if (opc < 0 ? ir_is_wgmma_op(r->ops[i].opc) : r->ops[i].opc == opc)
			return 1;
		for (j = 0; j < r->ops[i].nregions; j++)
			if (contains(&r->ops[i].regions[j], opc))
				return 1;
	}
	return 0;
}

static int
op_contains(const IrOp *op, int opc)
{
	int j;

	if (opc < 0 ? ir_is_wgmma_op(op->opc) : op->opc == opc)
		return 1;
	for (j = 0; j < op->nregions; j++)
		if (contains(&op->regions[j], opc))
			return 1;
	return 0;
}

/* The wgmma state at the end of r, in program order: whether a wgmma was issued and
 * whether one is not committed yet. */
typedef struct WgState {
	int saw, uncommitted;
} WgState;

static void
wgmma_state(const IrRegion *r, WgState *s)
{
	int i, j;

	for (i = 0; i < r->nops; i++) {
		const IrOp *op = &r->ops[i];

		switch (op->opc) {
		case IR_WGMMA:
			s->saw = s->uncommitted = 1;
			break;
		case IR_WGMMA_COMMIT:
			s->uncommitted = 0;
			break;
		default:
			break;
		}
		for (j = 0; j < op->nregions; j++)
			wgmma_state(&op->regions[j], s);
	}
}

static int
count_uses(const IrRegion *r, IrValue v, const IrOp *skip)
{
	int i, j, n = 0;

	for (i = 0; i < r->nops; i++) {
		const IrOp *op = &r->ops[i];

		if (op != skip)
			for (j = 0; j < op->nargs; j++)
				n += op->args[j] == v;
		for (j = 0; j < op->nregions; j++)
			n += count_uses(&op->regions[j], v, skip);
	}
	return n;
}

/* ---- building ---- */

static IrValue
mbar_addr(IrBuilder *b, int bar, IrValue elem)
{
	return irb_imm(b, IR_MBAR, t_bar, bar, 1, &elem);
}

static IrValue
int_const(IrBuilder *b, IrType t, int64_t v)
{
	return irb_const_int(b, t, v);
}

/* i32: the cluster rank of this CTA's pair leader, rank & ~1. */
static IrValue
leader_rank(IrBuilder *b)
{
	IrValue r = irb_op(b, IR_CLUSTER_RANK, t_i32, 0, NULL);

	return irb_op2(b, IR_AND, t_i32, r, int_const(b, t_i32, -2));
}

static void yield_values(IrBuilder *b, int n, const IrValue *vals);
static void push_if(Expand *E, IrRegion *out, SrcLoc loc, IrValue cond, IrRegion then, int nres,
		    const IrValue *res, const IrValue *elsevals);

/* A warp's cluster release of the barrier at bar: once every lane is past its reads
 * (warp.sync, which orders them), lane r arrives on the barrier of cluster rank r: one
 * remote arrive per warp and CTA instead of one per thread and CTA (ir_pipe_count counts
 * one per warp). */
static void
warp_release(Expand *E, IrBuilder *b, IrValue bar, int64_t ncta)
{
	IrRegion then = {0};
	IrBuilder tb = {E->k, &then, b->loc};
	IrValue lane, c, a[2];

	irb_op(b, IR_WARP_SYNC, ir_scalar(IR_VOID), 0, NULL);
	lane = irb_op(b, IR_LANEID, t_i32, 0, NULL);
	c = irb_op2(b, IR_CMP_LT, t_i1, lane, int_const(b, t_i32, ncta));
	a[0] = bar;
	a[1] = lane;
	irb_op(&tb, IR_MBAR_ARRIVE_REMOTE, ir_scalar(IR_VOID), 2, a);
	yield_values(&tb, 0, NULL);
	push_if(E, b->r, b->loc, c, then, 0, NULL, NULL);
}

/* The release of a stage's barrier bar[stage] by source src: tcgen05.commit for mma (after
 * the thread's MMAs), else an arrive, after fence.before when the body read or wrote TMEM.
 * In a pair pipeline the commit arrives in both CTAs of the pair (mask 0b11 << leader) and
 * an arrive goes to the leader's barrier, which counts both CTAs' arrivals. A cluster
 * release (IrPipeline.empty_cluster) reaches the stage in every CTA of the cluster: the
 * commit's mask names them all, a thread's arrive becomes one remote arrive per CTA, a
 * warp's (warp_release) one per warp and CTA. */
static void
release(Expand *E, IrBuilder *b, int src, int cluster, int bar, IrValue stage, int ldst, int pair)
{
	int64_t pairbit = pair ? IR_CTA_PAIR : 0, ncta = E->k->cluster[0] * E->k->cluster[1] * E->k->cluster[2], r;
	IrValue a[2];

	if (ldst && src != PIPE_SRC_MMA)
		irb_op(b, IR_TCGEN05_FENCE_BEFORE, ir_scalar(IR_VOID), 0, NULL);
	a[0] = mbar_addr(b, bar, stage);
	if (src == PIPE_SRC_MMA && cluster) {
		a[1] = int_const(b, ir_scalar(IR_I16), (INT64_C(1) << ncta) - 1);
		irb_imm(b, IR_TCGEN05_COMMIT, ir_scalar(IR_VOID), pairbit, 2, a);
	} else if (cluster && (src == PIPE_SRC_WARP || src == PIPE_SRC_WARPGROUP)) {
		warp_release(E, b, a[0], ncta);
	} else if (cluster) {
		for (r = 0; r < ncta; r++) {
			a[1] = int_const(b, t_i32, r);
			irb_op(b, IR_MBAR_ARRIVE_REMOTE, ir_scalar(IR_VOID), 2, a);
		}
	} else if (src == PIPE_SRC_MMA && !pair) {
		irb_imm(b, IR_TCGEN05_COMMIT, ir_scalar(IR_VOID), 0, 1, a);
	} else if (src == PIPE_SRC_MMA) {
		a[1] = irb_op2(b, IR_SHL, t_i32, int_const(b, t_i32, 3), leader_rank(b));
		a[1] = irb_op1(b, IR_CAST, ir_scalar(IR_I16), a[1]);
		irb_imm(b, IR_TCGEN05_COMMIT, ir_scalar(IR_VOID), IR_CTA_PAIR, 2, a);
	} else if (pair) {
		a[1] = leader_rank(b);
		irb_op(b, IR_MBAR_ARRIVE_REMOTE, ir_scalar(IR_VOID), 2, a);
	} else {
		irb_op1(b, IR_MBAR_ARRIVE, ir_scalar(IR_VOID), a[0]);
	}
}

static void
yield_values(IrBuilder *b, int n, const IrValue *vals)
{
	irb_op(b, IR_YIELD, ir_scalar(IR_VOID), n, vals);
}

/* Appends an `if` on cond whose then region is `then` (already ending in its yield) and
 * whose else region yields `elsevals`; its results are `res`. */
static void
push_if(Expand *E, IrRegion *out, SrcLoc loc, IrValue cond, IrRegion then, int nres, const IrValue *res,
	const IrValue *elsevals)
{
	IrOp iff;
	IrBuilder eb;

	ir_op_init(E->k, &iff, IR_IF, 1, nres, 2, loc);
	iff.args[0] = cond;
	if (nres)
		memcpy(iff.res, res, sizeof *res * (size_t)nres);
	iff.regions[0] = then;
	eb.k = E->k;
	eb.r = &iff.regions[1];
	eb.loc = loc;
	yield_values(&eb, nres, elsevals);
	ir_region_push(out, &iff);
}

/* Moves the ops of src (all but its final yield) to the end of out; returns the yield's
 * operands and count. src's op array is freed (the ops' own regions live on in out). */
static IrValue *
splice_body(IrRegion *out, IrRegion *src, int *nyield)
{
	IrValue *y = NULL;
	int i;

	*nyield = 0;
	for (i = 0; i < src->nops; i++) {
		IrOp *op = &src->ops[i];

		if (i == src->nops - 1 && op->opc == IR_YIELD) {
			y = op->args;
			*nyield = op->nargs;
			break;
		}
		ir_region_push(out, op);
	}
	free(src->ops);
	src->ops = NULL;
	src->nops = src->capops = 0;
	return y;
}

static void
replace(Expand *E, IrValue old, IrValue with)
{
	if (old > 0 && old < E->nold)
		ir_rw_set(&E->subst, old, with);
}

/* ---- role and elect ---- */

static void
expand_role(Expand *E, IrRegion *out, IrOp *op)
{
	IrKernel *k = E->k;
	IrBuilder b = {k, out, op->loc};
	IrRegion then = {0};
	IrBuilder tb = {k, &then, op->loc};
	int64_t lo = 0, hi = E->nwarps - 1, regs = 0;
	IrValue w = 0, cond = 0, c;
	int i;

	if (!const_of(E, op->args[0], &lo) || !const_of(E, op->args[1], &hi) || !const_of(E, op->args[2], &regs))
		ICE("role operands are not constants after the verifier accepted them");
	if (lo > 0 || hi < E->nwarps - 1)
		w = irb_op(&b, IR_WARPID, t_i32, 0, NULL);
	if (lo > 0)
		cond = irb_op2(&b, IR_CMP_GE, t_i1, w, int_const(&b, t_i32, lo));
	if (hi < E->nwarps - 1) {
		c = irb_op2(&b, IR_CMP_LE, t_i1, w, int_const(&b, t_i32, hi));
		cond = cond ? irb_op2(&b, IR_AND, t_i1, cond, c) : c;
	}
	if (op->imm) {         /* the pair's leader: the even CTA */
		c = irb_op2(&b, IR_AND, t_i32, irb_op(&b, IR_CLUSTER_RANK, t_i32, 0, NULL), int_const(&b, t_i32, 1));
		c = irb_op2(&b, IR_CMP_EQ, t_i1, c, int_const(&b, t_i32, 0));
		cond = cond ? irb_op2(&b, IR_AND, t_i1, cond, c) : c;
	}
	if (!cond)
		cond = int_const(&b, t_i1, 1);
	/* setmaxnreg first, before the role's body allocates anything */
	if (regs > E->entry_regs)
		irb_imm(&tb, IR_SETMAXNREG, ir_scalar(IR_VOID), regs, 0, NULL);
	else if (regs > 0 && regs < E->entry_regs)
		irb_imm(&tb, IR_SETMAXNREG, ir_scalar(IR_VOID), -regs, 0, NULL);
	for (i = 0; i < op->regions[0].nops; i++)
		ir_region_push(&then, &op->regions[0].ops[i]);
	free(op->regions[0].ops);
	push_if(E, out, op->loc, cond, then, op->nres, op->res, op->args + 3);
}

static void
expand_elect(Expand *E, IrRegion *out, IrOp *op)
{
	IrBuilder b = {E->k, out, op->loc};
	IrValue e = irb_op(&b, IR_ELECT_SYNC, t_i1, 0, NULL);

	push_if(E, out, op->loc, e, op->regions[0], op->nres, op->res, op->args);
}

/* ---- produce ---- */

/* How many CTAs a multicast mask names in every CTA (0: unknown), as schedule-check
 * counts them: a constant's, or a constant's shifted by a CTA's position. */
static int
mask_ctas(const Expand *E, IrValue mask)
{
	int64_t m;

	if (const_of(E, mask, &m))
		return ir_mask_ctas(m);
	return mask > 0 && mask < E->nold ? E->shlconst[mask] : 0;
}

/* The bytes the TMA loads at the top of body bring to barrier `full`, without the pair
 * factor (the leader arms both CTAs' bytes). */
static int64_t
produce_bytes(const Expand *E, const IrRegion *body, int full)
{
	int64_t total = 0, n;
	int i;

	for (i = 0; i < body->nops; i++) {
		const IrOp *op = &body->ops[i];
		IrValue bar;

		if ((op->opc != IR_TMA_LOAD && op->opc != IR_TMA_LOAD_MC) || op->nargs < 3)
			continue;
		bar = op->args[2];
		if (bar <= 0 || bar >= E->nold || E->mbarof[bar] != full)
			continue;
		n = ir_tma_load_bytes(E->k, op, op->opc == IR_TMA_LOAD_MC && op->nargs >= 4 ? mask_ctas(E, op->args[3]) : 0,
				      NULL);
		if (n < 0)
			ICE("a TMA load's tensor map is not a tensor-map parameter");
		total += op->imm & IR_TMA_PAIR ? n / 2 : n;
	}
	return total;
}

/* A pair pipeline's TMA loads at the top of body complete on the leader's barrier
 * (tma.load's pair bit; a multicast one's on the leader's of each destination pair), which
 * the leader alone arms, with the bytes of both CTAs. */
static void
pair_loads(const Expand *E, IrRegion *body, int full)
{
	int i;

	for (i = 0; i < body->nops; i++) {
		IrOp *op = &body->ops[i];

		if ((op->opc == IR_TMA_LOAD || op->opc == IR_TMA_LOAD_MC) && op->nargs >= 3 && op->args[2] > 0 &&
		    op->args[2] < E->nold && E->mbarof[op->args[2]] == full)
			op->imm |= IR_TMA_PAIR;
	}
}

/* mbar.arrive.tx full[stage], bytes; in a pair pipeline by the leader only, for both CTAs. */
static void
arm_full(Expand *E, IrBuilder *b, IrOp *op, const IrPipeline *p, IrValue stage, int pair)
{
	int64_t bytes = produce_bytes(E, &op->regions[0], p->full);
	IrRegion then = {0};
	IrBuilder tb = {E->k, &then, op->loc};
	IrValue c;

	if (!pair) {
		irb_op2(b, IR_MBAR_ARRIVE_TX, ir_scalar(IR_VOID), mbar_addr(b, p->full, stage), int_const(b, t_i32, bytes));
		return;
	}
	pair_loads(E, &op->regions[0], p->full);
	c = irb_op2(b, IR_AND, t_i32, irb_op(b, IR_CLUSTER_RANK, t_i32, 0, NULL), int_const(b, t_i32, 1));
	c = irb_op2(b, IR_CMP_EQ, t_i1, c, int_const(b, t_i32, 0));
	irb_op2(&tb, IR_MBAR_ARRIVE_TX, ir_scalar(IR_VOID), mbar_addr(&tb, p->full, stage),
		int_const(&tb, t_i32, 2 * bytes));
	yield_values(&tb, 0, NULL);
	push_if(E, b->r, op->loc, c, then, 0, NULL, NULL);
}

static void
expand_produce(Expand *E, IrRegion *out, IrOp *op)
{
	IrKernel *k = E->k;
	const IrPipeline *p = &k->pipelines[op->imm];
	IrBuilder b = {k, out, op->loc};
	IrValue stage = op->args[0], phase = op->args[1], *y;
	IrType pt = ir_vtype(k, phase);
	int tma = p->full_src == PIPE_SRC_TMA, ny, i, ldst, pair = ir_pair_pipeline(p, E->pair);

	irb_op2(&b, IR_MBAR_WAIT, ir_scalar(IR_VOID), mbar_addr(&b, p->empty, stage),
		irb_op2(&b, IR_XOR, pt, phase, int_const(&b, pt, 1)));
	if (has_tcgen05(&op->regions[0], 0))
		irb_op(&b, IR_TCGEN05_FENCE_AFTER, ir_scalar(IR_VOID), 0, NULL);
	if (tma)
		arm_full(E, &b, op, p, stage, pair);
	ldst = has_tcgen05(&op->regions[0], 1);
	y = splice_body(out, &op->regions[0], &ny);
	if (!tma)
		release(E, &b, p->full_src, 0, p->full, stage, ldst, pair);
	for (i = 0; i < op->nres && i < ny; i++)
		replace(E, op->res[i], y[i]);
}

/* ---- consume ---- */

/* f32 values that may be wgmma accumulators (fragments, or f32x4 for m64n8): they are
 * read through wgmma.wait. */
static int
is_acc(IrType t)
{
	return t.base == IR_F32 && t.space == 0 && (t.lanes == 1 || t.lanes == 2 || t.lanes == 4 || ir_is_frag(t));
}

/* wgmma.wait[n] on the accumulator values of vals (count nvals); each such position of
 * res (when res is given) becomes the wait's result, the others are replaced by vals. */
static void
push_wait(Expand *E, IrRegion *out, SrcLoc loc, int n, int nvals, const IrValue *vals, const IrValue *res)
{
	IrOp w;
	int i, m = 0;

	for (i = 0; i < nvals; i++)
		m += is_acc(ir_vtype(E->k, vals[i]));
	ir_op_init(E->k, &w, IR_WGMMA_WAIT, m, m, 0, loc);
	w.imm = n;
	for (i = 0, m = 0; i < nvals; i++) {
		if (is_acc(ir_vtype(E->k, vals[i]))) {
			w.args[m] = vals[i];
			w.res[m++] = res[i];
		} else {
			replace(E, res[i], vals[i]);
		}
	}
	ir_region_push(out, &w);
}

static void
expand_consume(Expand *E, IrRegion *out, IrOp *op, const Carry *carry)
{
	IrKernel *k = E->k;
	const IrPipeline *p = &k->pipelines[op->imm];
	IrBuilder b = {k, out, op->loc};
	IrValue stage = op->args[0], phase = op->args[1], *y;
	WgState s = {0, 0};
	int ny, i, nres, ldst;

	wgmma_state(&op->regions[0], &s);
	irb_op2(&b, IR_MBAR_WAIT, ir_scalar(IR_VOID), mbar_addr(&b, p->full, stage), phase);
	if (has_tcgen05(&op->regions[0], 0))
		irb_op(&b, IR_TCGEN05_FENCE_AFTER, ir_scalar(IR_VOID), 0, NULL);
	ldst = has_tcgen05(&op->regions[0], 1);
	y = splice_body(out, &op->regions[0], &ny);
	nres = op->nres < ny ? op->nres : ny;
	if (s.saw && s.uncommitted)
		irb_op(&b, IR_WGMMA_COMMIT, ir_scalar(IR_VOID), 0, NULL);
	if (carry) {
		IrRegion then = {0};
		IrBuilder tb = {k, &then, op->loc};
		IrValue c;

		/* The group of this stage may stay in flight; the previous one is done. */
		push_wait(E, out, op->loc, 1, nres, y, op->res);
		c = irb_op2(&b, IR_CMP_GE, t_i1, carry->prev, int_const(&b, t_i32, 0));
		release(E, &tb, p->empty_src, p->empty_cluster, p->empty, carry->prev, 0, ir_pair_pipeline(p, E->pair));
		yield_values(&tb, 0, NULL);
		push_if(E, out, op->loc, c, then, 0, NULL, NULL);
		return;
	}
	/* the groups of the body stay in flight: expand_wgmma_waits retires them where their
	 * values are read, at the latest before the release */
	for (i = 0; i < nres; i++)
		replace(E, op->res[i], y[i]);
	release(E, &b, p->empty_src, p->empty_cluster, p->empty, stage, ldst, ir_pair_pipeline(p, E->pair));
}

/* ---- loops that keep one wgmma group in flight ---- */

/* Whether r holds an RS wgmma (a register A fragment): its group keeps the fragment's
 * registers, which a loop's wait[1] would not tie across the iteration. */
static int
has_rs(const IrKernel *k, const IrRegion *r)
{
	int i, j;

	for (i = 0; i < r->nops; i++) {
		if (r->ops[i].opc == IR_WGMMA && ir_is_afrag(ir_vtype(k, r->ops[i].args[1])))
			return 1;
		for (j = 0; j < r->ops[i].nregions; j++)
			if (has_rs(k, &r->ops[i].regions[j]))
				return 1;
	}
	return 0;
}

/* The index of the consume in for-op's body that can release the previous stage, or -1. */
static int
carry_candidate(const Expand *E, const IrOp *forop)
{
	const IrRegion *body = &forop->regions[0];
	const IrOp *yield;
	int i, j, idx = -1;

	if (!body->nops || body->ops[body->nops - 1].opc != IR_YIELD)
		return -1;
	yield = &body->ops[body->nops - 1];
	for (i = 0; i < body->nops; i++) {
		const IrOp *op = &body->ops[i];

		if (op->opc == IR_CONSUME && contains(&op->regions[0], IR_WGMMA)) {
			if (idx >= 0 || contains(&op->regions[0], IR_WGMMA_WAIT) || has_rs(E->k, &op->regions[0]))
				return -1;
			idx = i;
		} else if (op_contains(op, -1)) {
			return -1;
		}
	}
	if (idx < 0)
		return -1;
	/* Accumulators still in flight may only travel to the next iteration. */
	for (j = 0; j < body->ops[idx].nres; j++)
		if (count_uses(body, body->ops[idx].res[j], yield) > 0)
			return -1;
	return idx;
}

static void expand_region(Expand *E, IrRegion *r, const Carry *carry);

static IrValue *
append_value(IrKernel *k, const IrValue *vals, int n, IrValue v)
{
	IrValue *a = arena_alloc(k->arena, sizeof *a * (size_t)(n + 1));

	if (n)
		memcpy(a, vals, sizeof *a * (size_t)n);
	a[n] = v;
	return a;
}

static void
expand_for_carry(Expand *E, IrRegion *out, IrOp *op, int idx)
{
	IrKernel *k = E->k;
	IrBuilder b = {k, out, op->loc};
	IrRegion *body = &op->regions[0], then = {0};
	IrBuilder tb = {k, &then, op->loc};
	const IrPipeline *p = &k->pipelines[body->ops[idx].imm];
	IrValue stage = body->ops[idx].args[0], init, prev_final, c;
	IrValue *fresh, *old;
	IrOp *y;
	Carry carry;
	int i, nfrag = 0;

	init = int_const(&b, t_i32, -1);
	carry.index = idx;
	carry.prev = ir_new_value(k, t_i32);
	body->args = append_value(k, body->args, body->nargs, carry.prev);
	body->nargs++;
	expand_region(E, body, &carry);
	y = &body->ops[body->nops - 1];
	y->args = append_value(k, y->args, y->nargs, stage);
	y->nargs++;

	/* The loop's accumulators are read after it only through wgmma.wait[0]: the loop gets
	 * fresh result values and the wait takes over the old ones. */
	fresh = xcalloc((size_t)op->nres + 1, sizeof *fresh);
	old = xcalloc((size_t)op->nres + 1, sizeof *old);
	for (i = 0; i < op->nres; i++)
		if (is_acc(ir_vtype(k, op->res[i]))) {
			old[nfrag] = op->res[i];
			fresh[nfrag] = op->res[i] = ir_new_value(k, ir_vtype(k, op->res[i]));
			k->vlocs[fresh[nfrag]] = op->loc;
			nfrag++;
		}
	prev_final = ir_new_value(k, t_i32);
	k->vlocs[prev_final] = op->loc;
	op->args = append_value(k, op->args, op->nargs, init);
	op->nargs++;
	op->res = append_value(k, op->res, op->nres, prev_final);
	op->nres++;
	ir_region_push(out, op);

	push_wait(E, out, op->loc, 0, nfrag, fresh, old);
	c = irb_op2(&b, IR_CMP_GE, t_i1, prev_final, int_const(&b, t_i32, 0));
	release(E, &tb, p->empty_src, p->empty_cluster, p->empty, prev_final, 0, ir_pair_pipeline(p, E->pair));
	yield_values(&tb, 0, NULL);
	push_if(E, out, op->loc, c, then, 0, NULL, NULL);
	free(fresh);
	free(old);
}

/* ---- regions ---- */

static void
expand_region(Expand *E, IrRegion *r, const Carry *carry)
{
	IrRegion out = {0};
	int i, j, idx;

	for (i = 0; i < r->nops; i++) {
		IrOp op = r->ops[i];

		if (op.opc == IR_FOR && (idx = carry_candidate(E, &op)) >= 0) {
			expand_for_carry(E, &out, &op, idx);
			continue;
		}
		for (j = 0; j < op.nregions; j++)
			expand_region(E, &op.regions[j], NULL);
		switch (op.opc) {
		case IR_ROLE:
			expand_role(E, &out, &op);
			break;
		case IR_ELECT:
			expand_elect(E, &out, &op);
			break;
		case IR_PRODUCE:
			expand_produce(E, &out, &op);
			break;
		case IR_CONSUME:
			expand_consume(E, &out, &op, carry && carry->index == i ? carry : NULL);
			break;
		default:
			ir_region_push(&out, &op);
			break;
		}
	}
	free(r->ops);
	r->ops = out.ops;
	r->nops = out.nops;
	r->capops = out.capops;
}

/* Thread 0 initialises every barrier object; the fence makes the inits visible to the
 * async proxy (TMA) and the cluster, the barrier to the other threads. */
static void
add_barrier_init(Expand *E)
{
	IrKernel *k = E->k;
	IrRegion out = {0}, then = {0};
	SrcLoc loc = {k->file, 0, 0, 0};
	IrBuilder b = {k, &out, loc}, tb = {k, &then, loc};
	IrValue zero, cond;
	int i, e;

	zero = int_const(&b, t_i32, 0);
	cond = irb_op2(&b, IR_CMP_EQ, t_i1, irb_op(&b, IR_TID_X, t_i32, 0, NULL), zero);
	if (k->threads[1] > 1)
		cond = irb_op2(&b, IR_AND, t_i1, cond,
			       irb_op2(&b, IR_CMP_EQ, t_i1, irb_op(&b, IR_TID_Y, t_i32, 0, NULL), zero));
	if (k->threads[2] > 1)
		cond = irb_op2(&b, IR_AND, t_i1, cond,
			       irb_op2(&b, IR_CMP_EQ, t_i1, irb_op(&b, IR_TID_Z, t_i32, 0, NULL), zero));
	for (i = 0; i < k->nbarriers; i++)
		for (e = 0; e < k->barriers[i].n; e++)
			irb_imm(&tb, IR_MBAR_INIT, ir_scalar(IR_VOID), k->barriers[i].count, 1,
				(IrValue[]){mbar_addr(&tb, i, int_const(&tb, t_i32, e))});
	irb_op(&tb, IR_FENCE_MBAR_INIT, ir_scalar(IR_VOID), 0, NULL);
	yield_values(&tb, 0, NULL);
	push_if(E, &out, loc, cond, then, 0, NULL, NULL);
	irb_op(&b, k->cluster[0] * k->cluster[1] * k->cluster[2] > 1 ? IR_CLUSTER_SYNC : IR_BARRIER,
	       ir_scalar(IR_VOID), 0, NULL);
	for (i = 0; i < k->body.nops; i++)
		ir_region_push(&out, &k->body.ops[i]);
	free(k->body.ops);
	k->body.ops = out.ops;
	k->body.nops = out.nops;
	k->body.capops = out.capops;
}

void
pass_expand_async(IrKernel *k, PassContext *cx)
{
	Expand E;
	int64_t n = (int64_t)k->threads[0] * k->threads[1] * k->threads[2];
	int i;

	(void)cx;
	if (!contains(&k->body, IR_ROLE) && !contains(&k->body, IR_ELECT) && !contains(&k->body, IR_PRODUCE) &&
	    !contains(&k->body, IR_CONSUME) && (k->nbarriers == 0 || contains(&k->body, IR_MBAR_INIT)))
		return;
	memset(&E, 0, sizeof E);
	E.k = k;
	E.nold = k->nvalues;
	ir_rw_init(&E.subst, k);
	E.isconst = xcalloc((size_t)E.nold + 1, 1);
	E.cval = xcalloc((size_t)E.nold + 1, sizeof *E.cval);
	E.shlconst = xcalloc((size_t)E.nold + 1, 1);
	E.mbarof = xmalloc(((size_t)E.nold + 1) * sizeof *E.mbarof);
	for (i = 0; i <= E.nold; i++)
		E.mbarof[i] = -1;
	E.entry_regs = ir_entry_regs(k);
	E.nwarps = (int)((n + 31) / 32);
	E.pair = ir_cta_pair(k);
	ir_walk(&k->body, scan_values, &E);

	if (k->nbarriers > 0 && !contains(&k->body, IR_MBAR_INIT))
		add_barrier_init(&E);
	expand_region(&E, &k->body, NULL);
	ir_rw_apply(&E.subst, &k->body);
	expand_wgmma_waits(k);

	ir_rw_free(&E.subst);
	free(E.isconst);
	free(E.cval);
	free(E.shlconst);
	free(E.mbarof);
}
