/* rewrite.c: what passes share to find and replace values: the map from a value to the op
 * that defines it, a replacement map applied to every operand, and the rebuild of a
 * region's op array (passes rebuild arrays rather than splice, STYLE.md). */
#include "ir.h"

#include <stdlib.h>

typedef struct DefMap {
	const IrOp **defs;
	int n;
} DefMap;

static void
record_def(IrOp *op, void *ctx)
{
	DefMap *m = ctx;
	int i;

	/* ids out of range are the verifier's to report; the map just skips them */
	for (i = 0; i < op->nres; i++)
		if (op->res[i] > 0 && op->res[i] < m->n)
			m->defs[op->res[i]] = op;
}

const IrOp **
ir_def_map(const IrKernel *k)
{
	DefMap m = {xcalloc((size_t)k->nvalues + 1, sizeof *m.defs), k->nvalues};

	/* ir_walk takes a mutable region; nothing here writes through it */
	ir_walk((IrRegion *)&k->body, record_def, &m);
	return m.defs;
}

void
ir_rw_init(IrRewriter *rw, IrKernel *k)
{
	rw->k = k;
	rw->n = k->nvalues;
	rw->map = xcalloc((size_t)rw->n + 1, sizeof *rw->map);
}

void
ir_rw_set(IrRewriter *rw, IrValue old, IrValue with)
{
	if (old <= 0 || old >= rw->n)
		ICE("rewriter: value %%%d was created after the map", old);
	if (old != with)
		rw->map[old] = with;
}

static void
apply_op(IrOp *op, void *ctx)
{
	const IrRewriter *rw = ctx;
	int i;

	for (i = 0; i < op->nargs; i++)
		op->args[i] = ir_rw_get(rw, op->args[i]);
}

void
ir_rw_apply(IrRewriter *rw, IrRegion *r)
{
	ir_walk(r, apply_op, rw);
}

void
ir_rw_free(IrRewriter *rw)
{
	free(rw->map);
	rw->map = NULL;
	rw->n = 0;
}

void
ir_region_rebuild(IrRegion *r, int (*fn)(IrRegion *out, IrOp *op, void *ctx), void *ctx)
{
	IrRegion out = {0};
	int i, j;

	/* most ops are kept: one allocation up front instead of growing op by op */
	out.capops = r->nops;
	out.ops = r->nops ? xmalloc(sizeof *out.ops * (size_t)r->nops) : NULL;
	for (i = 0; i < r->nops; i++) {
		IrOp *op = &r->ops[i];

		if (fn(&out, op, ctx))
			PUSH(out.ops, out.nops, out.capops, *op);
		else
			for (j = 0; j < op->nregions; j++)
				ir_region_free(&op->regions[j]);
	}
	free(r->ops);
	r->ops = out.ops;
	r->nops = out.nops;
	r->capops = out.capops;
}
