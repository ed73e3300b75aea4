/* wgmma_wait.c: where the wgmma groups that consume blocks leave in flight retire (part of
 * expand-async; docs/ir.md, "Async ops and the schedule rules").
 *
 * Inside a consume block the frontend issues wgmma groups (wgmma.fence, wgmmas,
 * wgmma.commit) without waiting for them, so that what follows overlaps the tensor cores:
 * the softmax of one attention tile while the previous tile's P V group still runs. Once
 * the consume ops are spliced into their region, this walk puts each wgmma.wait as late as
 * the program allows, in program order, region by region:
 *
 * - before an op that reads a value a pending group owns (its accumulator, or the register
 *   A fragment it reads): wgmma.wait[n] with n the groups committed after that one, so that
 *   younger groups stay in flight;
 * - before an op that may change what a group reads or lets another thread do so (one that
 *   writes memory: a store, an mbarrier arrive that releases a stage, a CTA barrier; not
 *   mbar.wait) and before a region's terminator: wgmma.wait[0];
 * - before an if/for/while: wait[0] when its regions hold such an op or a wgmma op, else
 *   the wait for the youngest group whose values they read, if any.
 *
 * A wait takes every value the groups it retires own and returns them; later uses read the
 * results. Until then the registers stay unchanged, tied to the asynchronous wgmma (the
 * A fragment's too, which nothing else keeps alive). A group that passes its accumulator
 * or A fragment on to a younger group (wgmma.fence of the same registers) hands it over:
 * the hardware orders wgmmas on one accumulator, and the younger group's wait retires the
 * older one too. Groups that the IR already waits for (a wgmma.wait naming their values:
 * the frontend's outside consume blocks, expand-async's loops that keep one group in
 * flight) are left as they are.
 */
#include "passes.h"

#include <stdlib.h>
#include <string.h>

typedef struct Group {
	int commit;             /* its commit's number in the region */
	int nvals, capvals;
	IrValue *vals;          /* the registers it owns: accumulators, A fragments */
} Group;

typedef struct Scan {
	int ngroups, capgroups;
	Group *groups;          /* pending, oldest first */
	Group open;             /* wgmmas issued since the last commit */
	int commits;
} Scan;

/* The walk's state: the kernel, and each value a wait replaced -> the wait's result (the
 * values a group owns are wgmma and wgmma.fence results, all older than the walk). */
typedef struct Waits {
	IrKernel *k;
	IrRewriter rw;
} Waits;

static IrValue
renamed(const Waits *W, IrValue v)
{
	return ir_rw_get(&W->rw, v);
}

/* Operands whose use is no read: the accumulator and A fragment of wgmma, what wgmma.fence
 * and wgmma.wait pass through. */
static int
tied_use(const IrKernel *k, const IrOp *op, int j)
{
	return op->opc == IR_WGMMA_FENCE || op->opc == IR_WGMMA_WAIT ||
	       (op->opc == IR_WGMMA && (j == 0 || (j == 1 && ir_is_afrag(ir_vtype(k, op->args[1])))));
}

/* An op before which no group may stay in flight. */
static int
hazard(const IrOp *op)
{
	unsigned f = ir_opinfo[op->opc].flags;

	return (f & OPF_TERM) || ((f & OPF_MEMWRITE) && op->opc != IR_MBAR_WAIT);
}

static void
group_add(Group *g, IrValue v)
{
	int i;

	for (i = 0; i < g->nvals; i++)
		if (g->vals[i] == v)
			return;
	PUSH(g->vals, g->nvals, g->capvals, v);
}

/* The pending group owning v, or -1; with drop, it gives v up. */
static int
owner(Scan *s, IrValue v, int drop)
{
	int i, j;

	for (i = 0; i < s->ngroups; i++)
		for (j = 0; j < s->groups[i].nvals; j++)
			if (s->groups[i].vals[j] == v) {
				if (drop)
					s->groups[i].vals[j] = s->groups[i].vals[--s->groups[i].nvals];
				return i;
			}
	return -1;
}

/* wgmma.wait for the groups 0 .. g (g the youngest to retire) at the end of out. */
static void
wait_for(Waits *W, Scan *s, IrRegion *out, SrcLoc loc, int g)
{
	IrOp w;
	int i, j, n = 0, m = 0;

	if (g < 0)
		return;
	for (i = 0; i <= g; i++)
		n += s->groups[i].nvals;
	ir_op_init(W->k, &w, IR_WGMMA_WAIT, n, n, 0, loc);
	w.imm = s->commits - s->groups[g].commit;
	for (i = 0; i <= g; i++) {
		for (j = 0; j < s->groups[i].nvals; j++, m++) {
			w.args[m] = s->groups[i].vals[j];
			w.res[m] = ir_new_value(W->k, ir_vtype(W->k, w.args[m]));
			W->k->vlocs[w.res[m]] = loc;
			ir_rw_set(&W->rw, w.args[m], w.res[m]);
		}
		free(s->groups[i].vals);
	}
	ir_region_push(out, &w);
	s->ngroups -= g + 1;
	memmove(s->groups, s->groups + g + 1, sizeof *s->groups * (size_t)s->ngroups);
}

/* The youngest pending group owning an operand that op reads (in its regions too), or -1;
 * *all is set when its regions hold a hazard or a wgmma op. */
static int
reads(const Waits *W, Scan *s, const IrOp *op, int *all)
{
	int j, g, best = -1;

	for (j = 0; j < op->nargs; j++)
		if (!tied_use(W->k, op, j) && (g = owner(s, renamed(W, op->args[j]), 0)) > best)
			best = g;
	for (j = 0; j < op->nregions; j++) {
		const IrRegion *r = &op->regions[j];
		int i;

		for (i = 0; i < r->nops; i++) {
			if (ir_is_wgmma_op(r->ops[i].opc) || (hazard(&r->ops[i]) && r->ops[i].opc != IR_YIELD &&
							   r->ops[i].opc != IR_CONDITION))
				*all = 1;
			if ((g = reads(W, s, &r->ops[i], all)) > best)
				best = g;
		}
	}
	return best;
}

/* The bookkeeping of the wgmma ops themselves (their operands already renamed). */
static void
track(Waits *W, Scan *s, const IrOp *op)
{
	int j, g;

	switch (op->opc) {
	case IR_WGMMA_FENCE:        /* the registers pass on to the group being built */
		for (j = 0; j < op->nargs; j++)
			owner(s, op->args[j], 1);
		break;
	case IR_WGMMA:
		owner(s, op->args[0], 1);
		for (j = 0; j < s->open.nvals; j++)
			if (s->open.vals[j] == op->args[0])
				s->open.vals[j] = s->open.vals[--s->open.nvals];
		if (ir_is_afrag(ir_vtype(W->k, op->args[1]))) {
			owner(s, op->args[1], 1);
			group_add(&s->open, op->args[1]);
		}
		group_add(&s->open, op->res[0]);
		break;
	case IR_WGMMA_COMMIT:
		s->open.commit = ++s->commits;
		PUSH(s->groups, s->ngroups, s->capgroups, s->open);
		memset(&s->open, 0, sizeof s->open);
		break;
	case IR_WGMMA_WAIT:
		/* The IR's own wait: the groups it retires are done, and one whose values it takes
		 * while it stays in flight (a loop's wait[1]) is the IR's to retire. */
		for (j = 0; j < op->nargs; j++)
			if ((g = owner(s, op->args[j], 1)) >= 0)
				s->groups[g].commit = -s->groups[g].commit;
		for (g = j = 0; g < s->ngroups; g++) {
			Group *x = &s->groups[g];

			if (abs(x->commit) <= s->commits - op->imm || (x->commit < 0 && !x->nvals)) {
				free(x->vals);
				continue;
			}
			x->commit = abs(x->commit);
			s->groups[j++] = *x;
		}
		s->ngroups = j;
		break;
	default:
		break;
	}
}

static void place_region(Waits *W, IrRegion *r);

static void
rename_args(const Waits *W, IrOp *op)
{
	int j;

	for (j = 0; j < op->nargs; j++)
		op->args[j] = renamed(W, op->args[j]);
}

static void
place_region(Waits *W, IrRegion *r)
{
	IrRegion out = {0};
	Scan s;
	int i, j, all, g;

	memset(&s, 0, sizeof s);
	for (i = 0; i < r->nops; i++) {
		IrOp op = r->ops[i];

		all = hazard(&op);
		g = reads(W, &s, &op, &all);
		wait_for(W, &s, &out, op.loc, all ? s.ngroups - 1 : g);
		rename_args(W, &op);
		for (j = 0; j < op.nregions; j++)
			place_region(W, &op.regions[j]);
		track(W, &s, &op);
		ir_region_push(&out, &op);
	}
	for (i = 0; i < s.ngroups; i++)
		free(s.groups[i].vals);
	free(s.groups);
	free(s.open.vals);
	free(r->ops);
	r->ops = out.ops;
	r->nops = out.nops;
	r->capops = out.capops;
}

void
expand_wgmma_waits(IrKernel *k)
{
	Waits W;

	W.k = k;
	ir_rw_init(&W.rw, k);
	place_region(&W, &k->body);
	ir_rw_free(&W.rw);
}
