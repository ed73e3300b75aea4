/* dce.c: dead code elimination by marking what is live.
 *
 * Requires: verified IR.
 * Guarantees: every op left either has an effect (stores, atomics, barriers, warp
 *   collectives, `ret`, a `while`, an op whose regions contain one of these) or has a
 *   result that something live uses. In particular:
 *   - pure ops and loads whose results are unused are gone (a load has no side effect in
 *     this IR), also inside regions and through chains of any length;
 *   - an `if` or `for` whose results are unused and whose regions have no effect is gone;
 *     a `for` only when its step is a positive constant, so that it is known to end;
 *     a `while` is never removed (it might not end);
 *   - unused `if` results are dropped with their yield operands; a loop-carried value of a
 *     `for` that is neither a used result nor used in the body except to compute its own
 *     next value (acc = acc + x; yield acc) is dropped with its initial value, region
 *     argument, result and yield operand.
 * Invalidates: nothing; values are not renumbered, dropped ones just lose their definition.
 */
#include "passes.h"

#include <stdlib.h>

typedef struct Dce {
	IrKernel *k;
	uint8_t *live;          /* per value */
	uint8_t *isconst;       /* per value: defined by an integer `const` */
	int64_t *cint;
	int grew;
} Dce;

static void
mark(Dce *d, IrValue v)
{
	if (v > 0 && v < d->k->nvalues && !d->live[v]) {
		d->live[v] = 1;
		d->grew = 1;
	}
}

static int
any_result_live(const Dce *d, const IrOp *op)
{
	int i;

	for (i = 0; i < op->nres; i++)
		if (d->live[op->res[i]])
			return 1;
	return 0;
}

/* A `for` ends if its step is a positive constant (the induction variable is assumed not
 * to wrap, as the backend's signed add also assumes). */
static int
for_ends(const Dce *d, const IrOp *op)
{
	IrValue step = op->nargs >= 3 ? op->args[2] : 0;

	return step > 0 && d->isconst[step] && d->cint[step] > 0;
}

static int has_effects(const Dce *d, const IrRegion *r);

/* Whether removing op (when nothing uses its results) would change what the kernel does. */
static int
op_has_effects(const Dce *d, const IrOp *op)
{
	unsigned f = ir_opinfo[op->opc].flags;
	int i;

	switch (op->opc) {
	case IR_YIELD:
	case IR_CONDITION:
		return 0;  /* they only pass values on; their parent decides */
	case IR_LOAD:
		return 0;
	case IR_WHILE:
		return 1;
	case IR_FOR:
		if (!for_ends(d, op))
			return 1;
		break;
	case IR_IF:
		break;
	default:
		return !(f & OPF_PURE) || op->nregions;
	}
	for (i = 0; i < op->nregions; i++)
		if (has_effects(d, &op->regions[i]))
			return 1;
	return 0;
}

static int
has_effects(const Dce *d, const IrRegion *r)
{
	int i;

	for (i = 0; i < r->nops; i++)
		if (op_has_effects(d, &r->ops[i]))
			return 1;
	return 0;
}

static int
op_live(const Dce *d, const IrOp *op)
{
	return any_result_live(d, op) || op_has_effects(d, op);
}

/* Which loop-carried values of a live `for` must stay: used after the loop or in the body.
 * slots[j] for carried value j. */
static void
for_slots(const Dce *d, const IrOp *op, uint8_t *slots)
{
	const IrRegion *body = &op->regions[0];
	int j;

	for (j = 0; j < op->nres; j++)
		slots[j] = d->live[op->res[j]] || (1 + j < body->nargs && d->live[body->args[1 + j]]);
}

/* Marks the values the ops of r need. yield_live[j] says whether the terminator's operand
 * j is needed (NULL: all are). Walks backwards so that a chain is marked in one sweep. */
static void
mark_region(Dce *d, const IrRegion *r, const uint8_t *yield_live)
{
	int i, j;

	for (i = r->nops - 1; i >= 0; i--) {
		const IrOp *op = &r->ops[i];

		if (ir_opinfo[op->opc].flags & OPF_TERM) {
			/* A condition's operands are all needed: its i1 decides, the rest are the
			 * while's results and after-region arguments, never trimmed. */
			for (j = 0; j < op->nargs; j++)
				if (op->opc != IR_YIELD || !yield_live || yield_live[j])
					mark(d, op->args[j]);
			continue;
		}
		if (!op_live(d, op))
			continue;
		if (op->opc == IR_IF) {
			uint8_t *slots = xcalloc((size_t)op->nres + 1, 1);

			for (j = 0; j < op->nres; j++)
				slots[j] = d->live[op->res[j]];
			mark(d, op->args[0]);
			for (j = 0; j < op->nregions; j++)
				mark_region(d, &op->regions[j], slots);
			free(slots);
		} else if (op->opc == IR_FOR) {
			uint8_t *slots = xcalloc((size_t)op->nres + 1, 1);

			for_slots(d, op, slots);
			for (j = 0; j < op->nargs; j++)
				if (j < 3 || slots[j - 3])
					mark(d, op->args[j]);
			mark_region(d, &op->regions[0], slots);
			free(slots);
		} else {
			for (j = 0; j < op->nargs; j++)
				mark(d, op->args[j]);
			for (j = 0; j < op->nregions; j++)
				mark_region(d, &op->regions[j], NULL);
		}
	}
}

/* Keeps the entries of vals whose keep flag is set, from index `from` on; returns the count. */
static int
compact(IrValue *vals, int n, int from, const uint8_t *keep)
{
	int i, m = from;

	for (i = from; i < n; i++)
		if (keep[i - from])
			vals[m++] = vals[i];
	return m;
}

static void sweep_region(Dce *d, IrRegion *r, const uint8_t *yield_keep);

/* What sweeping one region needs: the pass, and which yield operands stay (NULL: all). */
typedef struct Sweep {
	Dce *d;
	const uint8_t *yield_keep;
} Sweep;

/* Drops op when dead; otherwise sweeps its regions and drops its unused results. */
static int
sweep_op(IrRegion *out, IrOp *op, void *ctx)
{
	const Sweep *sw = ctx;
	Dce *d = sw->d;
	int j;

	(void)out;
	if (ir_opinfo[op->opc].flags & OPF_TERM) {
		if (op->opc == IR_YIELD && sw->yield_keep)
			op->nargs = compact(op->args, op->nargs, 0, sw->yield_keep);
	} else if (!op_live(d, op)) {
		return 0;
	} else if (op->opc == IR_IF) {
		uint8_t *slots = xcalloc((size_t)op->nres + 1, 1);

		for (j = 0; j < op->nres; j++)
			slots[j] = d->live[op->res[j]];
		for (j = 0; j < op->nregions; j++)
			sweep_region(d, &op->regions[j], slots);
		op->nres = compact(op->res, op->nres, 0, slots);
		free(slots);
	} else if (op->opc == IR_FOR) {
		uint8_t *slots = xcalloc((size_t)op->nres + 1, 1);
		IrRegion *body = &op->regions[0];

		for_slots(d, op, slots);
		sweep_region(d, body, slots);
		op->nargs = compact(op->args, op->nargs, 3, slots);
		body->nargs = compact(body->args, body->nargs, 1, slots);
		op->nres = compact(op->res, op->nres, 0, slots);
		free(slots);
	} else {
		for (j = 0; j < op->nregions; j++)
			sweep_region(d, &op->regions[j], NULL);
	}
	return 1;
}

static void
sweep_region(Dce *d, IrRegion *r, const uint8_t *yield_keep)
{
	Sweep sw = {d, yield_keep};

	ir_region_rebuild(r, sweep_op, &sw);
}

static void
find_constants(IrOp *op, void *ctx)
{
	Dce *d = ctx;
	IrType t;
	int w;
	uint64_t m, u;

	if (op->opc != IR_CONST || op->nres != 1)
		return;
	t = ir_vtype(d->k, op->res[0]);
	if (!ir_is_int(t) || t.lanes != 1)
		return;
	/* `for` steps are signed whatever the type says: sign-extend at the type's width. */
	w = ir_base_bits((IrBase)t.base);
	m = w >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << w) - 1;
	u = (uint64_t)op->imm & m;
	if (w < 64 && (u >> (w - 1)) & 1)
		u |= ~m;
	d->isconst[op->res[0]] = 1;
	d->cint[op->res[0]] = u <= (uint64_t)INT64_MAX ? (int64_t)u : -(int64_t)(~u) - 1;
}

void
pass_dce(IrKernel *k, PassContext *cx)
{
	Dce d = {0};

	(void)cx;
	d.k = k;
	d.live = xcalloc((size_t)k->nvalues, 1);
	d.isconst = xcalloc((size_t)k->nvalues, 1);
	d.cint = xcalloc((size_t)k->nvalues, sizeof *d.cint);
	ir_walk(&k->body, find_constants, &d);
	/* Liveness only grows, so this ends; a value used in a loop body before its
	 * definition's users are seen (loop-carried values) takes another sweep. */
	do {
		d.grew = 0;
		mark_region(&d, &k->body, NULL);
	} while (d.grew);
	sweep_region(&d, &k->body, NULL);
	free(d.live);
	free(d.isconst);
	free(d.cint);
}
