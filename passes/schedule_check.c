/* schedule_check.c: the schedule rules of the high-level async IR that need more than one
 * op at a time (docs/ir.md, "Async ops and the schedule rules"). It is their only checker: the frontend leaves them to it, and .cake and IR
 * inputs get the same diagnostics, at the user's lines. The verifier holds the local rules
 * (role operands constant and inside the CTA, roles disjoint, setmaxnreg values,
 * produce/consume inside a role, wgmma in whole warpgroups, target gating, barrier
 * initialisation); this pass adds:
 *   - arrival counts: the threads that run a pipeline's produce blocks (consume blocks) must
 *     be as many as its full (empty) barrier counts per phase;
 *   - expect-tx bytes: a raw mbar.expect.tx / mbar.arrive.tx must announce exactly the bytes
 *     of the TMA boxes that signal that barrier in the same phase (straight-line code);
 *     a produce block whose full source is tma must issue TMA loads on its full barrier's
 *     current stage, at the top of the block (so that expand-async can add up their bytes);
 *     a multicast one only when the pipeline's stages are released in every CTA of the
 *     cluster (a cluster release, IrPipeline.empty_cluster);
 *   - the register budget: setmaxnreg budgets (and the entry budget of warps in no such
 *     role) must fit the registers the CTA is launched with, ir_entry_regs per thread (what
 *     min_blocks CTAs fit the register file, ir_kernel_regfile, with): setmaxnreg only
 *     moves registers between the CTA's warps; and budgets need min_blocks;
 *   - TMA issue: tma.load/tma.load.mc/tma.store outside an elect block must be reached by at
 *     most one thread of a warp;
 *   - aliases: buffers sharing storage must not be used by different roles;
 *   - tcgen05.mma by one thread of the CTA (each thread's MMAs are its own, committed by
 *     its own tcgen05.commit: several issuers would each write the whole accumulator);
 *   - CTA pairs (ir_cta_pair): the mma side of a pair pipeline and a cta_group::2
 *     tcgen05.mma inside a role run in a leader role (role[1]), the other side of a pair
 *     pipeline in a role of both CTAs; a pair pipeline's thread/warp/warpgroup count
 *     covers both CTAs (twice the threads of one);
 *   - the TMEM lane quarter: a warp's tcgen05.ld/st reach only lanes 32 * (warp % 4) ..
 *     + 31, so the lane of the address (the term (lane << 16) added to the allocation's
 *     base, whose lane is 0) must be 32 * (warp % 4) in every thread that runs it;
 *   - convergence: a barrier must be reached by every thread of the block, a warp
 *     collective (shuffle, vote, ballot) by every lane of each warp that reaches it; an
 *     early exit (return, and what the lowering of break makes of it) counts like the
 *     condition it stands for.
 * Which threads reach an op is computed exactly where the conditions on the way are
 * functions of the thread index (tid, laneid, warpid, constants), as for `if (warp == 0)`;
 * a condition that does not depend on the thread (a loop bound, a parameter) changes no
 * count; any other thread-dependent condition makes the set unknown, and the checks that
 * need it are skipped rather than guessed, except that a barrier after a condition or a
 * loop trip count on the thread index is reported as one that may be reached by only some
 * threads. Whether a value depends on the thread is followed through a for loop value by
 * value (propagate_for: its induction variable by its bounds, each carried value by its
 * start and what the body passes on). A round_robin loop's if[1] is known: its body
 * runs in one warpgroup of the role per iteration;
 *   - round_robin loops: the pipelines of their blocks have a multiple of the loop's
 *     warpgroups as stages, and their role uses them only inside such loops.
 *
 * Requires: verified IR with high-level ops (before expand-async).
 * Guarantees: nothing changes; each violation is a diag_error at the op's location.
 * Invalidates: nothing.
 */
#include "passes.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_THREADS 1024

/* A set of threads of the CTA (one flag per linear thread index), or unknown. */
typedef struct Mask {
	unsigned char *in;
	int known;
} Mask;

/* A produce or consume block, the threads that run it, its role, and the warpgroups a
 * round_robin loop around it deals to (0: none). */
typedef struct Site {
	const IrOp *op;
	Mask m;
	const IrOp *role;
	int dealt;
} Site;

/* A use of a shared buffer and the role it is in (NULL: outside every role). */
typedef struct Use {
	int buf;
	const IrOp *op;
	const IrOp *role;
} Use;

typedef struct Check {
	IrKernel *k;
	int n;                  /* threads in the CTA, or 0 when too many to model */
	int nx, ny;
	const IrOp **def;       /* ir_def_map: per value, its defining op */
	IrEval ev;              /* over def, leaves from thread_leaf */
	int thread;             /* the thread ev evaluates for */
	unsigned char *varies;  /* per value: may differ between threads of a CTA */
	unsigned char *tdep;    /* per value: differs with the thread's index (not only with
				   what the thread loaded) */
	int *bufof;             /* per value: the shared buffer it points into, or -1 */
	Site *sites;
	int nsites, capsites;
	Use *uses;
	int nuses, capuses;
	unsigned char *aliased; /* per buffer: another buffer aliases it */
	const IrOp **roles;     /* every role op, in program order */
	int nroles, caproles;
	const IrOp *role;       /* while walking: the enclosing role */
	int dealt;              /* ... the warpgroups an enclosing if[1] deals to, or 0 */
	int in_elect;
	int pair;               /* the kernel pairs CTAs (ir_cta_pair) */
	SrcLoc mma_reported;    /* the last tcgen05_mma reported (its K/16 MMAs share it) */
	const IrOp *split;      /* while walking: the innermost if that parted the threads */
	const IrOp *maysplit;   /* ... or may have: its condition depends on the thread index
				   in a way not known here */
} Check;

/* ---- values as functions of the thread ---- */

/* The evaluator's leaves: the thread index of thread c->thread, the block dimensions. */
static int
thread_leaf(IrEval *e, const IrOp *d, IrValue v, int64_t *out)
{
	const Check *c = e->ctx;
	int t = c->thread;

	(void)v;
	if (!d)
		return 0;
	switch (d->opc) {
	case IR_TID_X: *out = t % c->nx; return 1;
	case IR_TID_Y: *out = t / c->nx % c->ny; return 1;
	case IR_TID_Z: *out = t / (c->nx * c->ny); return 1;
	case IR_NTID_X: *out = c->k->threads[0]; return 1;
	case IR_NTID_Y: *out = c->k->threads[1]; return 1;
	case IR_NTID_Z: *out = c->k->threads[2]; return 1;
	case IR_LANEID: *out = t % 32; return 1;
	case IR_WARPID: *out = t / 32; return 1;
	default: return 0;
	}
}

/* The value of v in linear thread t, if it is a function of the thread index and
 * constants; 0 when it cannot be known (ir/eval.c computes the ops). */
static int
eval(Check *c, IrValue v, int t, int64_t *out)
{
	c->thread = t;
	c->ev.depth = 0;
	return ir_eval_value(&c->ev, v, out);
}

static int
any_flag(const Check *c, const unsigned char *flag, const IrValue *vals, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (vals[i] > 0 && vals[i] < c->k->nvalues && flag[vals[i]])
			return 1;
	return 0;
}

static int
set_flag(Check *c, unsigned char *flag, const IrValue *vals, int n)
{
	int i, grew = 0;

	for (i = 0; i < n; i++)
		if (vals[i] > 0 && vals[i] < c->k->nvalues && !flag[vals[i]]) {
			flag[vals[i]] = 1;
			grew = 1;
		}
	return grew;
}

/* The ops whose results may differ between the threads of a block... */
static int
source_varies(int opc)
{
	switch (opc) {
	case IR_TID_X: case IR_TID_Y: case IR_TID_Z: case IR_LANEID: case IR_WARPID:
	case IR_ELECT_SYNC: case IR_LOAD: case IR_SHFL_XOR: case IR_SHFL_DOWN: case IR_SHFL_UP:
	case IR_SHFL_IDX: case IR_VOTE_ANY: case IR_VOTE_ALL: case IR_BALLOT:
	case IR_ROLE: case IR_ELECT:
		return 1;
	default:
		return ir_is_atomic(opc);
	}
}

/* ... and those whose results do because they are the thread's position (a load or a
 * shuffle differs only if its operands do: a load of one address is the same for all). */
static int
source_tdep(int opc)
{
	switch (opc) {
	case IR_TID_X: case IR_TID_Y: case IR_TID_Z: case IR_LANEID: case IR_WARPID:
	case IR_ELECT_SYNC: case IR_ROLE: case IR_ELECT:
		return 1;
	default:
		return ir_is_atomic(opc);
	}
}

static int propagate(Check *c, const IrRegion *r, unsigned char *flag);

/* Whether a loop's trip count may differ between threads (flag: c->varies), or does
 * because it depends on the thread index (c->tdep). */
static int
loop_flagged(const Check *c, const IrOp *op, const unsigned char *flag)
{
	const IrRegion *before;
	const IrOp *cond;

	if (op->opc == IR_FOR)
		return any_flag(c, flag, op->args, op->nargs < 3 ? op->nargs : 3);
	before = &op->regions[0];
	if (!before->nops)
		return flag == c->varies;
	cond = &before->ops[before->nops - 1];
	if (cond->opc != IR_CONDITION || cond->nargs < 1)
		return flag == c->varies;
	return any_flag(c, flag, cond->args, 1);
}

/* propagate for a for loop, value by value: the induction variable varies only with the
 * bounds; a carried value with its initial value or what the body passes on, or with the
 * trip count (threads that leave early keep an older value), and the result it becomes
 * likewise. Marking all of them when one varies made the iv of a loop that carries a
 * loaded value vary, so a barrier under `if (iv > 0)` read as reached by only some threads. */
static int
propagate_for(Check *c, const IrOp *op, unsigned char *flag)
{
	const IrRegion *body = &op->regions[0];
	const IrOp *yield = body->nops ? &body->ops[body->nops - 1] : NULL;
	int bounds = loop_flagged(c, op, flag);
	int i, grew = propagate(c, body, flag);

	if (bounds && body->nargs > 0)
		grew |= set_flag(c, flag, &body->args[0], 1);
	for (i = 1; i < body->nargs; i++) {
		int v = bounds || (2 + i < op->nargs && any_flag(c, flag, &op->args[2 + i], 1)) ||
			!yield || yield->opc != IR_YIELD || i - 1 >= yield->nargs ||
			any_flag(c, flag, &yield->args[i - 1], 1);

		if (v) {
			grew |= set_flag(c, flag, &body->args[i], 1);
			if (i - 1 < op->nres)
				grew |= set_flag(c, flag, &op->res[i - 1], 1);
		}
	}
	return grew;
}

/* One sweep of a "may differ between threads" propagation over r into flag (c->varies
 * from source_varies, c->tdep from source_tdep); returns whether anything new was marked.
 * Region results and arguments are marked when an operand or a value passed to them is
 * (for loops value by value: propagate_for). */
static int
propagate(Check *c, const IrRegion *r, unsigned char *flag)
{
	int (*source)(int) = flag == c->tdep ? source_tdep : source_varies;
	int i, j, grew = 0;

	for (i = 0; i < r->nops; i++) {
		const IrOp *op = &r->ops[i];
		int v = source(op->opc) || any_flag(c, flag, op->args, op->nargs);

		if (op->opc == IR_FOR && op->nregions == 1) {
			grew |= propagate_for(c, op, flag);
			continue;
		}

		for (j = 0; j < op->nregions; j++) {
			const IrRegion *sub = &op->regions[j];

			grew |= propagate(c, sub, flag);
			if (sub->nops && (ir_opinfo[sub->ops[sub->nops - 1].opc].flags & OPF_TERM) &&
			    any_flag(c, flag, sub->ops[sub->nops - 1].args, sub->ops[sub->nops - 1].nargs))
				v = 1;
		}
		if (v) {
			grew |= set_flag(c, flag, op->res, op->nres);
			for (j = 0; j < op->nregions; j++)
				grew |= set_flag(c, flag, op->regions[j].args, op->regions[j].nargs);
		}
	}
	return grew;
}

/* ---- masks ---- */

static Mask
mask_copy(const Check *c, const Mask *m)
{
	Mask r;

	r.in = xmalloc((size_t)c->n + 1);
	memcpy(r.in, m->in, (size_t)c->n);
	r.known = m->known;
	return r;
}

static int
mask_count(const Check *c, const Mask *m)
{
	int t, n = 0;

	for (t = 0; t < c->n; t++)
		n += m->in[t];
	return n;
}

/* The most threads of one warp in m. */
static int
mask_per_warp(const Check *c, const Mask *m, int *warp)
{
	int t, best = 0;

	for (t = 0; t < c->n; t += 32) {
		int n = 0, l;

		for (l = 0; l < 32 && t + l < c->n; l++)
			n += m->in[t + l];
		if (n > best) {
			best = n;
			*warp = t / 32;
		}
	}
	return best;
}

/* "warps 4 .. 11", "warp 0", or "warps 0, 2 and 5" style text for the warps m touches. */
static void
mask_warps(const Check *c, const Mask *m, char *out, size_t size)
{
	int first = -1, last = -1, nw = 0, t, contiguous = 1;

	for (t = 0; t < c->n; t++)
		if (m->in[t]) {
			int w = t / 32;

			if (w != last) {
				if (last >= 0 && w != last + 1)
					contiguous = 0;
				if (first < 0)
					first = w;
				last = w;
				nw++;
			}
		}
	if (nw == 0)
		snprintf(out, size, "no warp");
	else if (nw == 1)
		snprintf(out, size, "warp %d", first);
	else if (contiguous)
		snprintf(out, size, "warps %d .. %d", first, last);
	else
		snprintf(out, size, "%d warps between %d and %d", nw, first, last);
}

static int
const_int(const Check *c, IrValue v, int64_t *out)
{
	const IrOp *d = v > 0 && v < c->k->nvalues ? c->def[v] : NULL;

	if (!d || d->opc != IR_CONST || !ir_is_int(ir_vtype(c->k, v)))
		return 0;
	*out = d->imm;
	return 1;
}

/* ---- the walk ---- */

static void walk(Check *c, const IrRegion *r, const Mask *m, int depth);

static void
walk_regions(Check *c, const IrOp *op, const Mask *m, int depth)
{
	int j;

	for (j = 0; j < op->nregions; j++)
		walk(c, &op->regions[j], m, depth + 1);
}

/* if[1], a round_robin loop's body: each iteration runs it in one warpgroup of the role,
 * so its blocks count one warpgroup's threads (the first's stand for any); the else
 * region, which only moves stages on, runs in the rest. */
static void
walk_dealt(Check *c, const IrOp *op, const Mask *m, int depth)
{
	Mask th = mask_copy(c, m);
	int t, first = -1, saved = c->dealt;
	int64_t lo, hi;

	for (t = 0; t < c->n && m->known; t++) {
		if (m->in[t] && first < 0)
			first = t / 128;
		th.in[t] = m->in[t] && t / 128 == first;
	}
	if (c->role && const_int(c, c->role->args[0], &lo) && const_int(c, c->role->args[1], &hi))
		c->dealt = (int)(hi + 1 - lo) / 4;
	walk(c, &op->regions[0], &th, depth + 1);
	c->dealt = saved;
	walk(c, &op->regions[1], m, depth + 1);
	free(th.in);
}

/* A block in a round_robin loop of W warpgroups: its pipeline's stages are a multiple of
 * W, so that each stage always goes to the same warpgroup. An mbarrier's parity tells
 * consecutive phases apart only: a warpgroup that skipped a stage's previous phase (another
 * warpgroup's) could take the phase after for the one it waits for. */
static void
check_dealt_stages(const Check *c, const IrOp *op)
{
	const IrPipeline *pl = &c->k->pipelines[op->imm];

	if (pl->stages % c->dealt == 0)
		return;
	diag_error(op->loc, "pipeline '%s' has %d stage%s, not a multiple of the %d warpgroups that take the round_robin loop's iterations: each stage must always go to the same warpgroup",
		   pl->name, pl->stages, pl->stages == 1 ? "" : "s", c->dealt);
	diag_note(pl->loc, "pipeline '%s' is declared here", pl->name);
}


static void
walk_if(Check *c, const IrOp *op, const Mask *m, int depth)
{
	Mask th, el;
	int t;

	if (op->imm) {
		walk_dealt(c, op, m, depth);
		return;
	}
	th = mask_copy(c, m);
	el = mask_copy(c, m);
	for (t = 0; t < c->n && m->known; t++) {
		int64_t x;

		if (!m->in[t])
			continue;
		if (!eval(c, op->args[0], t, &x))
			break;
		th.in[t] = (x & 1) != 0;
		el.in[t] = (x & 1) == 0;
	}
	if (t < c->n && m->known) {
		/* A condition all threads agree on selects no threads: either side may run with
		 * all of them. Any other one leaves the sets unknown. */
		memcpy(th.in, m->in, (size_t)c->n);
		memcpy(el.in, m->in, (size_t)c->n);
		if (c->varies[op->args[0]])
			th.known = el.known = 0;
	}
	{
		const IrOp *saved = c->split, *msaved = c->maysplit;

		if (th.known && memcmp(th.in, m->in, (size_t)c->n) != 0 && memcmp(el.in, m->in, (size_t)c->n) != 0)
			c->split = op;
		if (!th.known && m->known && c->tdep[op->args[0]])
			c->maysplit = op;
		walk(c, &op->regions[0], &th, depth + 1);
		walk(c, &op->regions[1], &el, depth + 1);
		c->split = saved;
		c->maysplit = msaved;
	}
	free(th.in);
	free(el.in);
}

static void
note_split(const Check *c)
{
	if (c->split)
		diag_note(c->split->loc, "the threads take different paths here (a condition, or what follows an early exit)");
}

/* A block barrier must be reached by every thread of the block: the others never arrive,
 * and the block hangs (or, with a return before it, the barrier counts wrong). */
static void
check_barrier(Check *c, const IrOp *op, const Mask *m)
{
	int n;
	char warps[64];

	if (c->in_elect)
		return;
	if (!m->known && c->maysplit) {
		diag_error(op->loc, "barrier() may be reached by only some threads of the block: a condition on the way depends on the thread index");
		diag_note(c->maysplit->loc, "the threads may take different paths here (a condition, or what follows an early exit)");
		return;
	}
	if (!m->known)
		return;
	n = mask_count(c, m);
	if (n == 0 || n == c->n)
		return;
	mask_warps(c, m, warps, sizeof warps);
	diag_error(op->loc, "barrier() is reached by %d of the block's %d threads (%s); every thread of the block must reach it",
		   n, c->n, warps);
	note_split(c);
}

/* A warp collective (shuffle, vote, ballot) runs with the full mask: every lane of a warp
 * that reaches it must. */
static void
check_collective(Check *c, const IrOp *op, const Mask *m)
{
	int t;

	if (!m->known)
		return;
	for (t = 0; t < c->n; t += 32) {
		int l, lanes = 0, have = 0;

		for (l = 0; l < 32 && t + l < c->n; l++, have++)
			lanes += m->in[t + l];
		if (lanes > 0 && lanes < have) {
			diag_error(op->loc, "%s is reached by %d of the %d lanes of warp %d; a warp collective needs every lane of the warp",
				   ir_opinfo[op->opc].name, lanes, have, t / 32);
			note_split(c);
			return;
		}
	}
}

static void
check_tma_issue(Check *c, const IrOp *op, const Mask *m)
{
	int warp = 0, per;

	if (c->in_elect || !m->known)
		return;
	per = mask_per_warp(c, m, &warp);
	if (per > 1)
		diag_error(op->loc, "%s is issued by %d threads of warp %d (it is not in an elect block): each "
			   "thread would issue its own copy; issue TMA from one elected thread", ir_opinfo[op->opc].name,
			   per, warp);
}

/* ---- the TMEM lane quarter ---- */

/* The lane term of a TMEM address: the x of an `shl x, 16` among the operands of its sum;
 * 0 when there is none (the lane is the base's, 0). */
static IrValue
lane_term(const Check *c, IrValue v, int depth)
{
	const IrOp *d = v > 0 && v < c->k->nvalues ? c->def[v] : NULL;
	int64_t sh;
	IrValue x;

	if (!d || depth > 16)
		return 0;
	if (d->opc == IR_SHL && const_int(c, d->args[1], &sh) && sh == 16)
		return d->args[0];
	if (d->opc != IR_ADD)
		return 0;
	if ((x = lane_term(c, d->args[0], depth + 1)))
		return x;
	return lane_term(c, d->args[1], depth + 1);
}

static void
check_mma_issue(Check *c, const IrOp *op, const Mask *m)
{
	char warps[96];
	int n;

	if (!m->known || (n = mask_count(c, m)) <= 1)
		return;
	if (op->loc.line == c->mma_reported.line && op->loc.col == c->mma_reported.col &&
	    op->loc.file == c->mma_reported.file)
		return;
	c->mma_reported = op->loc;
	mask_warps(c, m, warps, sizeof warps);
	diag_error(op->loc, "%s is issued by %d threads (%s): one thread of the CTA issues the MMAs into an accumulator; put the elect under a condition on the warp (if (warp == 1) { elect { ... } }) or in a one-warp role",
		   ir_opinfo[op->opc].name, n, warps);
}

/* ---- CTA pairs ---- */

static int
in_leader(const Check *c)
{
	return c->role && (c->role->imm & 1);
}

/* The mma side of a pair pipeline (produce of a full: mma one, consume of an empty: mma
 * one) issues the pair's MMAs and commits for both CTAs: the leader's alone. The other
 * side runs in both CTAs: each loads or reads its own half and signals the leader. */
static void
check_pair_side(Check *c, const IrOp *op)
{
	const IrPipeline *p;
	int mma_side;

	if (op->imm < 0 || op->imm >= c->k->npipelines)
		return;
	p = &c->k->pipelines[op->imm];
	if (!ir_pair_pipeline(p, c->pair))
		return;
	mma_side = (op->opc == IR_PRODUCE ? p->full_src : p->empty_src) == PIPE_SRC_MMA;
	if (mma_side && !in_leader(c)) {
		diag_error(op->loc, "%s of pipeline '%s' issues the CTA pair's MMAs and commits for both CTAs: it runs "
			   "in the pair's leader CTA only, in a leader role (role NAME(warp N, leader))",
			   ir_opinfo[op->opc].name, p->name);
		diag_note(p->loc, "pipeline '%s' is declared here", p->name);
	} else if (!mma_side && in_leader(c)) {
		diag_error(op->loc, "%s of pipeline '%s' runs in both CTAs of the pair (each with its own half of the "
			   "data, arriving on the leader's barrier), but its role runs in the leader CTA only",
			   ir_opinfo[op->opc].name, p->name);
		diag_note(c->role->loc, "the leader role is here");
	}
}

/* Inside roles only: IR written without roles picks the leader with its own conditions,
 * which the interpreter checks when it runs (an odd CTA's pair MMA is a finding). */
static void
check_pair_mma(Check *c, const IrOp *op)
{
	if (!(op->imm & IR_CTA_PAIR) || !c->role || in_leader(c))
		return;
	if (op->loc.line == c->mma_reported.line && op->loc.col == c->mma_reported.col &&
	    op->loc.file == c->mma_reported.file)
		return;
	c->mma_reported = op->loc;
	diag_error(op->loc, "%s with cta_group::2 is issued for the CTA pair by its leader CTA only: put it in a "
		   "leader role (role NAME(warp N, leader))", ir_opinfo[op->opc].name);
}

static void
check_lane_quarter(Check *c, const IrOp *op, const Mask *m)
{
	IrValue x = lane_term(c, op->args[0], 0);
	int64_t lane;
	int t;

	if (!m->known)
		return;
	for (t = 0; t < c->n; t++) {
		if (!m->in[t])
			continue;
		if (!x)
			lane = 0;
		else if (!eval(c, x, t, &lane))
			return;
		if (lane != 32 * (t / 32 % 4)) {
			diag_error(op->loc, "%s in warp %d (thread %d) accesses TMEM lanes %" PRId64 " .. %" PRId64
				   ", but warp %d reaches only lanes %d .. %d: the first lane must be 32 * (warp %% 4)",
				   ir_opinfo[op->opc].name, t / 32, t, lane, lane + 31, t / 32, 32 * (t / 32 % 4),
				   32 * (t / 32 % 4) + 31);
			return;
		}
	}
}

/* Ops that pass a shared address on (the use is where the address is finally used). */
static int
passes_address(int opc)
{
	return opc == IR_ELEMPTR || opc == IR_MAPA || opc == IR_WGMMA_DESC;
}

/* Keeps the first use of each aliased buffer in each role: that is all the alias check
 * needs, and it keeps the table small in unrolled code. */
static void
note_use(Check *c, int b, const IrOp *op)
{
	const IrKernel *k = c->k;
	Use u = {b, op, c->role};
	int i;

	if (k->bufs[b].alias < 0 && !c->aliased[b])
		return;
	for (i = 0; i < c->nuses; i++)
		if (c->uses[i].buf == b && c->uses[i].role == c->role)
			return;
	PUSH(c->uses, c->nuses, c->capuses, u);
}

static void
note_uses(Check *c, const IrOp *op)
{
	int i;

	if (op->opc == IR_SMEM || op->opc == IR_SMEM_STAGE) {
		if (op->nres == 1 && op->imm >= 0 && op->imm < c->k->nbufs)
			c->bufof[op->res[0]] = (int)op->imm;
		return;
	}
	for (i = 0; i < op->nargs; i++) {
		IrValue a = op->args[i];
		int b = a > 0 && a < c->k->nvalues ? c->bufof[a] : -1;

		if (b < 0)
			continue;
		if (passes_address(op->opc) && op->nres == 1)
			c->bufof[op->res[0]] = b;
		else
			note_use(c, b, op);
	}
}

static void
walk(Check *c, const IrRegion *r, const Mask *m, int depth)
{
	int i, t;

	if (depth > 200)
		return;
	for (i = 0; i < r->nops; i++) {
		const IrOp *op = &r->ops[i];

		note_uses(c, op);
		switch (op->opc) {
		case IR_ROLE: {
			Mask sub = mask_copy(c, m);
			const IrOp *saved = c->role;
			int64_t lo, hi;

			if (op->nargs >= 2 && const_int(c, op->args[0], &lo) && const_int(c, op->args[1], &hi)) {
				for (t = 0; t < c->n; t++)
					if (t / 32 < lo || t / 32 > hi)
						sub.in[t] = 0;
			} else {
				sub.known = 0;
			}
			PUSH(c->roles, c->nroles, c->caproles, op);
			c->role = op;
			walk_regions(c, op, &sub, depth);
			c->role = saved;
			free(sub.in);
			break;
		}
		case IR_ELECT: {
			Mask sub = mask_copy(c, m);
			int saved = c->in_elect;

			/* elect.sync picks one of the warp's threads that reach it. */
			for (t = 0; t < c->n; t += 32) {
				int l, seen = 0;

				for (l = 0; l < 32 && t + l < c->n; l++)
					if (sub.in[t + l]) {
						sub.in[t + l] = !seen;
						seen = 1;
					}
			}
			c->in_elect = 1;
			walk_regions(c, op, &sub, depth);
			c->in_elect = saved;
			free(sub.in);
			break;
		}
		case IR_IF:
			walk_if(c, op, m, depth);
			break;
		case IR_FOR: case IR_WHILE: {
			Mask sub = mask_copy(c, m);
			const IrOp *msaved = c->maysplit;

			/* A trip count that differs between threads runs the body on fewer; one
			 * that follows the thread index parts them for sure, as an if would. */
			if (loop_flagged(c, op, c->varies)) {
				sub.known = 0;
				if (m->known && loop_flagged(c, op, c->tdep))
					c->maysplit = op;
			}
			walk_regions(c, op, &sub, depth);
			c->maysplit = msaved;
			free(sub.in);
			break;
		}
		case IR_PRODUCE: case IR_CONSUME: {
			Site s;

			check_pair_side(c, op);
			s.op = op;
			s.m = mask_copy(c, m);
			s.role = c->role;
			s.dealt = c->dealt;
			if (c->dealt)
				check_dealt_stages(c, op);
			PUSH(c->sites, c->nsites, c->capsites, s);
			walk_regions(c, op, m, depth);
			break;
		}
		case IR_TMA_LOAD: case IR_TMA_LOAD_MC: case IR_TMA_STORE:
			check_tma_issue(c, op, m);
			break;
		case IR_TCGEN05_LD: case IR_TCGEN05_ST:
			check_lane_quarter(c, op, m);
			break;
		case IR_TCGEN05_MMA:
			check_mma_issue(c, op, m);
			check_pair_mma(c, op);
			break;
		case IR_BARRIER:
			check_barrier(c, op, m);
			break;
		case IR_SHFL_XOR: case IR_SHFL_DOWN: case IR_SHFL_UP: case IR_SHFL_IDX:
		case IR_VOTE_ANY: case IR_VOTE_ALL: case IR_BALLOT: case IR_WARP_SYNC:
			check_collective(c, op, m);
			break;
		default:
			walk_regions(c, op, m, depth);
			break;
		}
	}
}

/* ---- arrival counts ---- */

static void
check_arrivals(Check *c)
{
	IrKernel *k = c->k;
	int p, side, i;

	for (p = 0; p < k->npipelines; p++) {
		const IrPipeline *pl = &k->pipelines[p];

		for (side = 0; side < 2; side++) {
			int opc = side ? IR_CONSUME : IR_PRODUCE, bar = side ? pl->empty : pl->full;
			int src = side ? pl->empty_src : pl->full_src, mult = side ? pl->empty_mult : pl->full_mult;
			Mask all;
			const IrOp *first = NULL;
			int known = 1, n, both, per, perwarp, dealt = 0;
			char warps[64];

			if (bar < 0 || bar >= k->nbarriers)
				continue;
			all.in = xcalloc((size_t)c->n + 1, 1);
			for (i = 0; i < c->nsites; i++) {
				int t;

				if (c->sites[i].op->opc != opc || c->sites[i].op->imm != p)
					continue;
				if (!first)
					first = c->sites[i].op;
				known &= c->sites[i].m.known;
				dealt |= c->sites[i].dealt;
				for (t = 0; t < c->n; t++)
					all.in[t] |= c->sites[i].m.in[t];
			}
			all.known = known;
			n = mask_count(c, &all);
			/* a pair pipeline's leader barrier counts the arrivals of both CTAs; a
			 * cluster release those of every CTA (or pair) of the cluster */
			both = ir_pair_pipeline(pl, c->pair) && src != PIPE_SRC_MMA && src != PIPE_SRC_TMA;
			per = both ? 2 : 1;
			if (side && pl->empty_cluster)
				per = k->cluster[0] * k->cluster[1] * k->cluster[2] / (ir_pair_pipeline(pl, c->pair) ? 2 : 1);
			/* a warp's cluster release is one lane's arrive per CTA (ir_pipe_count) */
			perwarp = side && pl->empty_cluster && (src == PIPE_SRC_WARP || src == PIPE_SRC_WARPGROUP);
			if (first && known && (perwarp ? (n % 32 ? -1 : n / 32) : n) * per != k->barriers[bar].count) {
				mask_warps(c, &all, warps, sizeof warps);
				diag_error(first->loc, "pipeline '%s': its %s barrier '%s' counts %d arrival%s per phase "
					   "(%s * %d%s) but %d thread%s (%s) run its %s blocks%s", pl->name,
					   side ? "empty" : "full", k->barriers[bar].name, k->barriers[bar].count,
					   k->barriers[bar].count == 1 ? "" : "s", ir_pipe_source_name(src), mult,
					   both ? ", over the 2 CTAs of a pair" : perwarp ? ", a release in every CTA of the cluster, one arrival per warp"
					   : per > 1 ? ", a release in every CTA of the cluster" : "",
					   n, n == 1 ? "" : "s", warps, side ? "consume" : "produce",
					   both ? " in each CTA" : per > 1 ? (c->pair ? " in each pair" : " in each CTA") : "");
				diag_note(pl->loc, "pipeline '%s' is declared here", pl->name);
				if (dealt)
					diag_note(first->loc, "the %s blocks of a round_robin loop count one warpgroup of its role an iteration",
						  side ? "consume" : "produce");
			}
			free(all.in);
		}
	}
}

/* ---- TMA bytes ---- */

/* How many CTAs a multicast mask names in every CTA (0: unknown): a constant's, or a
 * constant shifted by a CTA's position (5 << (cluster_rank % 2): each CTA its column of
 * the cluster), which names as many CTAs in each. */
static int
mask_ctas(const Check *c, IrValue mask)
{
	const IrOp *d = mask > 0 && mask < c->k->nvalues ? c->def[mask] : NULL;
	int64_t m;

	if (const_int(c, mask, &m))
		return ir_mask_ctas(m);
	if (d && d->opc == IR_SHL && d->nargs == 2 && const_int(c, d->args[0], &m))
		return ir_mask_ctas(m);
	return 0;
}

/* The bytes a TMA load completes on its barrier (ir_tma_load_bytes), or -1. */
static int64_t
tma_bytes(const Check *c, const IrOp *op, const char **name)
{
	return ir_tma_load_bytes(c->k, op, op->opc == IR_TMA_LOAD_MC && op->nargs >= 4 ? mask_ctas(c, op->args[3]) : 0,
				 name);
}

/* A barrier object as the mbar op that addresses it: its barrier and its element (the
 * constant, or the value id shifted past the constants). */
typedef struct BarKey {
	int bar;
	int64_t elem;
	int elem_const;
} BarKey;

static int
bar_key(const Check *c, IrValue v, BarKey *key)
{
	const IrOp *d = v > 0 && v < c->k->nvalues ? c->def[v] : NULL;

	if (!d || d->opc != IR_MBAR || d->nargs != 1 || d->imm < 0 || d->imm >= c->k->nbarriers)
		return 0;
	key->bar = (int)d->imm;
	key->elem_const = const_int(c, d->args[0], &key->elem);
	if (!key->elem_const)
		key->elem = d->args[0];
	return 1;
}

static int
same_bar(const BarKey *a, const BarKey *b)
{
	return a->bar == b->bar && a->elem_const == b->elem_const && a->elem == b->elem;
}

static int
is_tma_load(int opc)
{
	return opc == IR_TMA_LOAD || opc == IR_TMA_LOAD_MC;
}

/* The barrier operand of op when it is an expect/arrive-with-tx, a TMA load or a wait;
 * 0 otherwise. */
static IrValue
bar_operand(const IrOp *op)
{
	switch (op->opc) {
	case IR_MBAR_EXPECT_TX: case IR_MBAR_ARRIVE_TX: case IR_MBAR_WAIT:
		return op->nargs >= 1 ? op->args[0] : 0;
	case IR_TMA_LOAD: case IR_TMA_LOAD_MC:
		return op->nargs >= 3 ? op->args[2] : 0;
	default:
		return 0;
	}
}

/* Whether a region (nested) holds an op of the given kinds on barrier key. */
static int
nested_on(const Check *c, const IrRegion *r, const BarKey *key, int tma, int depth)
{
	int i, j;

	if (depth > 200)
		return 1;
	for (i = 0; i < r->nops; i++) {
		const IrOp *op = &r->ops[i];
		BarKey k2;
		int kind = is_tma_load(op->opc) ? tma : !tma && (op->opc == IR_MBAR_EXPECT_TX || op->opc == IR_MBAR_ARRIVE_TX);

		if (kind && bar_key(c, bar_operand(op), &k2) && same_bar(&k2, key))
			return 1;
		for (j = 0; j < op->nregions; j++)
			if (nested_on(c, &op->regions[j], key, tma, depth + 1))
				return 1;
	}
	return 0;
}

/* The phase segment of r around op i for barrier key: from after the previous wait on it
 * to before the next one. Compares the announced bytes with the TMA boxes there. */
static void
check_segment(Check *c, const IrRegion *r, int i, const BarKey *key)
{
	int s = i, e = i + 1, j, ntma = 0, first_expect = -1;
	int64_t announced = 0, landed = 0;
	Buf what = {0};

	while (s > 0) {
		BarKey k2;

		if (r->ops[s - 1].opc == IR_MBAR_WAIT && bar_key(c, bar_operand(&r->ops[s - 1]), &k2) &&
		    same_bar(&k2, key))
			break;
		s--;
	}
	while (e < r->nops) {
		BarKey k2;

		if (r->ops[e].opc == IR_MBAR_WAIT && bar_key(c, bar_operand(&r->ops[e]), &k2) && same_bar(&k2, key))
			break;
		e++;
	}
	for (j = s; j < e; j++) {
		const IrOp *op = &r->ops[j];
		BarKey k2;
		int64_t x;
		const char *name = "?";
		int m;

		for (m = 0; m < op->nregions; m++)
			if (nested_on(c, &op->regions[m], key, 1, 0) || nested_on(c, &op->regions[m], key, 0, 0))
				goto out;  /* not straight-line: the bytes depend on the path */
		if (!bar_key(c, bar_operand(op), &k2) || !same_bar(&k2, key))
			continue;
		if (op->opc == IR_MBAR_EXPECT_TX || op->opc == IR_MBAR_ARRIVE_TX) {
			if (first_expect < 0)
				first_expect = j;
			if (op->nargs < 2 || !const_int(c, op->args[1], &x))
				goto out;
			announced += x;
		} else if (is_tma_load(op->opc)) {
			if ((x = tma_bytes(c, op, &name)) < 0)
				goto out;
			buf_printf(&what, "%s%s of '%s': %" PRId64, ntma ? "; " : "", ir_opinfo[op->opc].name, name, x);
			landed += x;
			ntma++;
		}
	}
	/* Report once per segment, at its first announcement. */
	if (first_expect == i && ntma > 0 && announced != landed) {
		const IrOp *op = &r->ops[i];

		diag_error(op->loc, "%s announces %" PRId64 " bytes on mbarrier '%s' but the TMA loads that signal it "
			   "in this phase bring %" PRId64 " (%s)", ir_opinfo[op->opc].name, announced,
			   c->k->barriers[key->bar].name, landed, what.s);
	}
out:
	buf_free(&what);
}

static void
check_expect_tx(Check *c, const IrRegion *r, int depth)
{
	int i, j;

	if (depth > 200)
		return;
	for (i = 0; i < r->nops; i++) {
		const IrOp *op = &r->ops[i];
		BarKey key;

		if ((op->opc == IR_MBAR_EXPECT_TX || op->opc == IR_MBAR_ARRIVE_TX) && bar_key(c, op->args[0], &key))
			check_segment(c, r, i, &key);
		for (j = 0; j < op->nregions; j++)
			check_expect_tx(c, &op->regions[j], depth + 1);
	}
}

static int
same_value(const Check *c, IrValue a, IrValue b)
{
	int64_t x, y;

	return a == b || (const_int(c, a, &x) && const_int(c, b, &y) && x == y);
}

static const IrOp *
find_tma_load(const IrRegion *r, int depth)
{
	const IrOp *found;
	int i, j;

	for (i = 0; i < r->nops && depth < 200; i++) {
		if (is_tma_load(r->ops[i].opc))
			return &r->ops[i];
		for (j = 0; j < r->ops[i].nregions; j++)
			if ((found = find_tma_load(&r->ops[i].regions[j], depth + 1)))
				return found;
	}
	return NULL;
}

/* A produce block of a pipeline with a tma full source: expand-async announces the bytes of
 * the TMA loads at the top of its body on full[stage]; loads deeper in control flow or on
 * another element would make that count wrong. */
static void
check_produce_tma(Check *c, const IrOp *op)
{
	const IrKernel *k = c->k;
	const IrPipeline *pl;
	const IrRegion *body = &op->regions[0];
	int i, j, loads = 0;

	if (op->imm < 0 || op->imm >= k->npipelines)
		return;
	pl = &k->pipelines[op->imm];
	if (pl->full_src != PIPE_SRC_TMA || pl->full < 0 || pl->full >= k->nbarriers)
		return;
	for (i = 0; i < body->nops; i++) {
		const IrOp *o = &body->ops[i];
		const IrOp *d;
		IrValue bar = bar_operand(o);

		for (j = 0; j < o->nregions; j++) {
			const IrOp *deep = find_tma_load(&o->regions[j], 0);

			if (deep) {
				diag_error(deep->loc, "%s inside control flow in a produce block of pipeline '%s': the "
					   "bytes its full barrier expects must be known, so TMA loads go at the top of "
					   "the block", ir_opinfo[deep->opc].name, pl->name);
				return;
			}
		}
		if (!is_tma_load(o->opc))
			continue;
		d = bar > 0 && bar < k->nvalues ? c->def[bar] : NULL;
		if (!d || d->opc != IR_MBAR || d->imm != pl->full)
			continue;
		if (!same_value(c, d->args[0], op->args[0])) {
			diag_error(o->loc, "%s in a produce block of pipeline '%s' signals another element of '%s' "
				   "than the block's stage", ir_opinfo[o->opc].name, pl->name, k->barriers[pl->full].name);
			return;
		}
		if (o->opc == IR_TMA_LOAD_MC && !pl->empty_cluster) {
			diag_error(o->loc, "tma.load.mc in a produce block of pipeline '%s' writes into the stages of "
				   "other CTAs of the cluster, which must be free there before it is refilled, but its "
				   "empty side releases a stage in its own CTA only (a cluster release: `cluster` after "
				   "the empty side, as the frontend writes it)", pl->name);
			return;
		}
		loads++;
	}
	if (!loads)
		diag_error(op->loc, "produce block of pipeline '%s' issues no TMA load on its full barrier '%s', "
			   "whose source is tma: the stage would be marked full without data", pl->name,
			   k->barriers[pl->full].name);
}

/* ---- register budget ---- */

static void
check_registers(Check *c)
{
	IrKernel *k = c->k;
	int nwarps = (c->n + 31) / 32, w, i, cap = ir_entry_regs(k), other = 0;
	int64_t regfile = ir_kernel_regfile(k);
	const IrOp *worst = NULL;
	int64_t total = 0, worst_regs = 0, alloc;
	int *regs = xcalloc((size_t)nwarps + 1, sizeof *regs);
	Buf parts = {0};

	for (w = 0; w < nwarps; w++)
		regs[w] = -1;
	for (i = 0; i < c->nroles; i++) {
		const IrOp *op = c->roles[i];
		int64_t lo, hi, r;

		if (op->opc != IR_ROLE || op->nargs < 3 || !const_int(c, op->args[0], &lo) ||
		    !const_int(c, op->args[1], &hi) || !const_int(c, op->args[2], &r) || r == 0)
			continue;
		if (lo < 0 || hi >= nwarps || lo > hi)
			continue;
		for (w = (int)lo; w <= hi; w++)
			regs[w] = (int)r;
		buf_printf(&parts, "%s%" PRId64 " x %" PRId64 " threads (warps %" PRId64 " .. %" PRId64 ")",
			   parts.len ? " + " : "", r, (hi - lo + 1) * 32, lo, hi);
		if (!worst || r > worst_regs) {
			worst = op;
			worst_regs = r;
		}
	}
	if (worst && k->min_blocks > 0) {
		for (w = 0; w < nwarps; w++) {
			total += (int64_t)(regs[w] < 0 ? cap : regs[w]) * 32;
			other += regs[w] < 0;
		}
		if (other)
			buf_printf(&parts, " + %d x %d threads (the other warps, at the entry budget)", cap, other * 32);
		/* setmaxnreg moves registers between the CTA's warps: an increase takes what the
		 * decreases gave back, and waits for ever when they gave too little. The CTA has
		 * the entry budget per thread (allocated in 8s: 255 holds 256), which min_blocks
		 * CTAs fit the register file with. */
		alloc = (int64_t)(cap + 7) / 8 * 8 * nwarps * 32;
		if (total > alloc)
			diag_error(worst->loc, "register budgets need %" PRId64 " registers per CTA (%s), more than the %" PRId64
				   " it is launched with (%d per thread at entry, which fits %d CTA%s in the %" PRId64
				   " of the register file, x %d threads): a budget increase would wait for ever",
				   total, parts.s, alloc, cap, k->min_blocks, k->min_blocks > 1 ? "s" : "", regfile, nwarps * 32);
	}
	buf_free(&parts);
	free(regs);
}

/* A budget is a change from the register count at entry, which only min_blocks fixes. */
static void
check_min_blocks(Check *c)
{
	int64_t r;
	int i;

	if (c->k->min_blocks > 0)
		return;
	for (i = 0; i < c->nroles; i++) {
		const IrOp *op = c->roles[i];

		if (op->nargs >= 3 && const_int(c, op->args[2], &r) && r != 0) {
			diag_error(op->loc, "role sets a register budget of %" PRId64 " but kernel '%s' has no min_blocks "
				   "(ptxas ignores setmaxnreg without a known register count at entry)", r, c->k->name);
			return;
		}
	}
}

/* ---- aliases ---- */

static void
describe_role(const Check *c, const IrOp *role, char *out, size_t size)
{
	int64_t lo, hi;

	if (!role)
		snprintf(out, size, "outside any role");
	else if (role->nargs >= 2 && const_int(c, role->args[0], &lo) && const_int(c, role->args[1], &hi))
		snprintf(out, size, "in the role of warps %" PRId64 " .. %" PRId64, lo, hi);
	else
		snprintf(out, size, "in a role");
}

static int
alias_root(const IrKernel *k, int b)
{
	int steps = 0;

	while (b >= 0 && b < k->nbufs && k->bufs[b].alias >= 0 && k->bufs[b].alias < k->nbufs && steps++ < k->nbufs)
		b = k->bufs[b].alias;
	return b;
}

static void
check_aliases(Check *c)
{
	IrKernel *k = c->k;
	int i, j;
	unsigned char *pair_done = xcalloc((size_t)k->nbufs * (size_t)k->nbufs + 1, 1);

	for (i = 0; i < c->nuses; i++)
		for (j = 0; j < i; j++) {
			const Use *a = &c->uses[j], *b = &c->uses[i];
			const Use *later, *earlier;
			char ra[64], rb[64];

			if (a->buf == b->buf || a->role == b->role || alias_root(k, a->buf) != alias_root(k, b->buf))
				continue;
			if (pair_done[(size_t)a->buf * (size_t)k->nbufs + (size_t)b->buf])
				continue;
			pair_done[(size_t)a->buf * (size_t)k->nbufs + (size_t)b->buf] = 1;
			pair_done[(size_t)b->buf * (size_t)k->nbufs + (size_t)a->buf] = 1;
			later = a->buf > b->buf ? a : b;
			earlier = later == a ? b : a;
			describe_role(c, later->role, ra, sizeof ra);
			describe_role(c, earlier->role, rb, sizeof rb);
			diag_error(later->op->loc, "shared buffer '%s' shares storage with '%s' (alias) but is used %s "
				   "while '%s' is used %s: aliased buffers must have disjoint lifetimes, so one role "
				   "uses them", k->bufs[later->buf].name, k->bufs[earlier->buf].name, ra,
				   k->bufs[earlier->buf].name, rb);
			diag_note(earlier->op->loc, "'%s' is used here", k->bufs[earlier->buf].name);
		}
	free(pair_done);
}

/* ---- entry ---- */

/* For the same reason a role uses a pipeline of its round_robin loops only in them: after
 * the loop each warpgroup would wait on stages whose last phase another one took. */
static void
check_dealt_uses(const Check *c)
{
	int i, j;

	for (i = 0; i < c->nsites; i++) {
		const Site *a = &c->sites[i];

		for (j = 0; j < c->nsites && a->dealt; j++) {
			const Site *b = &c->sites[j];
			char role[96];

			if (b->dealt || b->role != a->role || b->op->imm != a->op->imm)
				continue;
			describe_role(c, a->role, role, sizeof role);
			diag_error(b->op->loc, "pipeline '%s' is used %s both inside a round_robin loop and outside it: a warpgroup that skipped the loop's iterations of a stage could not tell its phases apart",
				   c->k->pipelines[a->op->imm].name, role);
			diag_note(a->op->loc, "the %s in the loop is here", a->op->opc == IR_PRODUCE ? "produce" : "consume");
			return;
		}
	}
}

static void
find_produces(Check *c, const IrRegion *r, int depth)
{
	int i, j;

	if (depth > 200)
		return;
	for (i = 0; i < r->nops; i++) {
		if (r->ops[i].opc == IR_PRODUCE)
			check_produce_tma(c, &r->ops[i]);
		for (j = 0; j < r->ops[i].nregions; j++)
			find_produces(c, &r->ops[i].regions[j], depth + 1);
	}
}

void
pass_schedule_check(IrKernel *k, PassContext *cx)
{
	Check c;
	Mask all;
	int64_t n = (int64_t)k->threads[0] * k->threads[1] * k->threads[2];
	int i, t;

	(void)cx;
	memset(&c, 0, sizeof c);
	c.k = k;
	c.n = n >= 1 && n <= MAX_THREADS ? (int)n : 0;
	c.nx = k->threads[0] > 0 ? k->threads[0] : 1;
	c.ny = k->threads[1] > 0 ? k->threads[1] : 1;
	c.def = ir_def_map(k);
	c.pair = ir_cta_pair(k);
	c.ev.k = k;
	c.ev.defs = c.def;
	c.ev.leaf = thread_leaf;
	c.ev.ctx = &c;
	c.ev.max_steps = 5000000;   /* over the whole check: deep expressions times threads */
	c.varies = xcalloc((size_t)k->nvalues + 1, 1);
	c.tdep = xcalloc((size_t)k->nvalues + 1, 1);
	c.bufof = xmalloc(((size_t)k->nvalues + 1) * sizeof *c.bufof);
	for (i = 0; i <= k->nvalues; i++)
		c.bufof[i] = -1;
	c.aliased = xcalloc((size_t)k->nbufs + 1, 1);
	for (i = 0; i < k->nbufs; i++)
		if (k->bufs[i].alias >= 0 && k->bufs[i].alias < k->nbufs)
			c.aliased[k->bufs[i].alias] = 1;
	while (propagate(&c, &k->body, c.varies))
		;
	while (propagate(&c, &k->body, c.tdep))
		;

	all.in = xmalloc((size_t)c.n + 1);
	for (t = 0; t < c.n; t++)
		all.in[t] = 1;
	all.known = c.n > 0;
	walk(&c, &k->body, &all, 0);
	check_dealt_uses(&c);
	if (c.n > 0) {
		check_arrivals(&c);
		check_registers(&c);
	}
	check_min_blocks(&c);
	check_expect_tx(&c, &k->body, 0);
	find_produces(&c, &k->body, 0);
	check_aliases(&c);

	for (i = 0; i < c.nsites; i++)
		free(c.sites[i].m.in);
	free(c.sites);
	free(c.uses);
	free(c.roles);
	free(c.aliased);
	free(all.in);
	free((void *)c.def);
	free(c.varies);
	free(c.tdep);
	free(c.bufof);
}
