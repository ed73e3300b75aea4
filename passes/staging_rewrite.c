/* staging_rewrite.c: the second half of staging elision (staging_elision.c has the rules):
 * which barriers still order something once the staging is gone, the rewrite of the op
 * arrays, and the buffer table without the elided buffers. */
#include "staging.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- what each op does to memory once the rewrite is done ---- */

enum { ACC_SH_READ = 1, ACC_SH_WRITE = 2 };

/* One global access after the rewrite, at node `node` (an early load sits at its copy). */
typedef struct GAcc {
	int node;
	int write;
	int param;          /* -1: not known */
	int readonly;       /* an `in` tensor or the read-only path: never written */
	IrValue ptr;
	int bytes;
} GAcc;

typedef struct Effects {
	unsigned char *sh;  /* per node: ACC_SH_* */
	GAcc *g;
	int ng, capg;
	unsigned char *gone;   /* per node: deleted or rewritten away by the elision */
} Effects;

static int
elided_buffer(const Stg *s, int root)
{
	return root >= 0 && !s->bufs[root].refused;
}

static void
add_g(Effects *e, int node, int write, int param, int readonly, IrValue ptr, int bytes)
{
	GAcc a;

	a.node = node;
	a.write = write;
	a.param = param;
	a.readonly = readonly && !write;
	a.ptr = ptr;
	a.bytes = bytes;
	PUSH(e->g, e->ng, e->capg, a);
}

static int
is_ptr_in(const Stg *s, IrValue v, int space)
{
	IrType t = ir_vtype(s->k, v);

	return t.base == IR_PTR && (t.space == space || (space == IR_SHARED && t.space == IR_CLUSTER));
}

static void
effects(const Stg *s, Effects *e)
{
	const IrKernel *k = s->k;
	int n, i, j;

	e->sh = xcalloc((size_t)s->nnodes + 1, 1);
	e->gone = xcalloc((size_t)s->nnodes + 1, 1);
	/* the elided copies and reads; early loads stand at their copies */
	for (i = 0; i < k->nbufs; i++) {
		const StgBuf *b = &s->bufs[i];

		if (b->refused)
			continue;
		for (j = 0; j < b->ncopies; j++)
			e->gone[b->copies[j]] = 1;
		for (j = 0; j < b->nrds; j++) {
			const StgRead *rd = &b->rds[j];
			const IrOp *c = s->nodes[rd->copy].op, *r = s->nodes[rd->node].op;
			int bytes = ir_type_bytes(ir_vtype(k, r->res[0]));

			e->gone[rd->node] = 1;
			add_g(e, rd->early ? rd->copy : rd->node, 0, stg_global_param(s, c->args[1]),
			      stg_readonly(s, c->args[1]) || !rd->early, c->args[1], bytes);
		}
	}
	for (n = 0; n < s->nnodes; n++) {
		const IrOp *op = s->nodes[n].op;
		unsigned f = ir_opinfo[op->opc].flags;

		if (e->gone[n] || (f & OPF_PURE) || op->nregions)
			continue;
		switch (op->opc) {
		case IR_LOAD:
			if (is_ptr_in(s, op->args[0], IR_GLOBAL))
				add_g(e, n, 0, stg_global_param(s, op->args[0]),
				      op->imm == 1 || stg_readonly(s, op->args[0]), op->args[0],
				      ir_type_bytes(ir_vtype(k, op->res[0])));
			else
				e->sh[n] |= ACC_SH_READ;
			continue;
		case IR_STORE: case IR_STORE_IF: case IR_ATOM_ADD: case IR_ATOM_MIN: case IR_ATOM_MAX: case IR_ATOM_AND:
		case IR_ATOM_OR: case IR_ATOM_XCHG: case IR_ATOM_CAS:
			if (is_ptr_in(s, op->args[0], IR_GLOBAL))
				add_g(e, n, 1, stg_global_param(s, op->args[0]), 0, op->args[0],
				      ir_type_bytes(ir_vtype(k, op->args[1])));
			else
				e->sh[n] |= ACC_SH_READ | ACC_SH_WRITE;
			continue;
		case IR_CP_ASYNC:
			e->sh[n] |= ACC_SH_WRITE;
			add_g(e, n, 0, stg_global_param(s, op->args[1]), stg_readonly(s, op->args[1]),
			      op->args[1], (int)op->imm);
			continue;
		case IR_LOAD_ACQ: case IR_STORE_REL: case IR_WAIT_GE: case IR_FENCE:
			/* a flag orders the thread's other accesses: as a write of any tensor
			 * and of shared memory, nothing moves across it */
			e->sh[n] |= ACC_SH_READ | ACC_SH_WRITE;
			add_g(e, n, 1, -1, 0, 0, 0);
			continue;
		case IR_BARRIER: case IR_WARP_SYNC: case IR_CP_ASYNC_COMMIT: case IR_CP_ASYNC_WAIT:
			continue;
		default:
			break;
		}
		/* anything else: TMA, mbarriers, wgmma and what may come; conservatively both */
		for (i = 0; i < op->nargs; i++)
			if (is_ptr_in(s, op->args[i], IR_SHARED))
				e->sh[n] |= ACC_SH_READ | ACC_SH_WRITE;
		if ((f & OPF_ASYNC) || op->opc == IR_WGMMA)
			e->sh[n] |= ACC_SH_READ | ACC_SH_WRITE;
		if (op->opc == IR_TMA_STORE || op->opc == IR_WGMMA_STORE || op->opc == IR_STORE_ROW)
			add_g(e, n, 1, -1, 0, 0, 0);
		else if (op->opc == IR_TMA_LOAD || op->opc == IR_TMA_LOAD_MC)
			add_g(e, n, 0, -1, 0, 0, 0);
	}
}

/* ---- barriers ---- */

/* Which side of barrier node b node x is on: before (1), after (2), both (3), neither (0).
 * Inside a loop around the barrier, everything in the loop is on both sides. */
static int
side(const Stg *s, int b, int loop, int x)
{
	int r = 0;

	if (loop >= 0 && stg_is_ancestor(s, loop, x))
		return 3;
	if (x < b && !stg_is_ancestor(s, x, b))
		r |= 1;
	if (x > b)
		r |= 2;
	return r;
}

static void
keep(StgBarrier *bar, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(bar->why, sizeof bar->why, fmt, ap);
	va_end(ap);
}

static int
same_param(const GAcc *a, const GAcc *b)
{
	return a->param < 0 || b->param < 0 || a->param == b->param;
}

static const char *
param_name(const Stg *s, int p)
{
	return p >= 0 ? s->k->params[p].name : "memory of unknown origin";
}

/* Reads before the barrier and writes after it of one tensor need no barrier when each
 * thread writes back only addresses it read itself and no two threads read one element. */
static int
writes_own_reads(const Stg *s, const Effects *e, const int *sd, int param)
{
	IrValue ptrs[256];
	int elems[256], n = 0, i, j, esize;

	if (param < 0)
		return 0;
	esize = ir_type_bytes(ir_scalar((IrBase)s->k->params[param].type.elem));
	for (i = 0; i < e->ng; i++) {
		const GAcc *r = &e->g[i];

		if (r->write || r->readonly || r->param != param || !(sd[i] & 1))
			continue;
		if (n == 256 || !r->ptr)
			return 0;
		ptrs[n] = r->ptr;
		elems[n++] = r->bytes / esize;
	}
	for (i = 0; i < e->ng; i++) {
		const GAcc *w = &e->g[i];

		if (!w->write || w->param != param || !(sd[i] & 2))
			continue;
		for (j = 0; j < e->ng; j++) {
			const GAcc *r = &e->g[j];

			if (!r->write && r->param == param && (sd[j] & 1) && w->bytes <= r->bytes &&
			    stg_equal(s, NULL, w->ptr, r->ptr, 0))
				break;
		}
		if (j == e->ng)
			return 0;
	}
	return stg_disjoint(s, ptrs, elems, n);
}

static void
decide(const Stg *s, const Effects *e, StgBarrier *bar)
{
	int b = bar->node, loop = -1, x, n, i, j;
	int bw = -1, br = -1, aw = -1, ar = -1;
	int *sd = xcalloc((size_t)e->ng + 1, sizeof *sd);

	for (x = s->nodes[b].parent; x >= 0; x = s->nodes[x].parent)
		if (s->nodes[x].op->opc == IR_FOR || s->nodes[x].op->opc == IR_WHILE)
			loop = x;
	/* shared memory: a write on one side and any access on the other */
	for (n = 0; n < s->nnodes; n++) {
		int sid = e->sh[n] ? side(s, b, loop, n) : 0;

		if ((sid & 1) && (e->sh[n] & ACC_SH_WRITE) && bw < 0)
			bw = n;
		if ((sid & 1) && br < 0)
			br = n;
		if ((sid & 2) && (e->sh[n] & ACC_SH_WRITE) && aw < 0)
			aw = n;
		if ((sid & 2) && ar < 0)
			ar = n;
	}
	if ((bw >= 0 && ar >= 0) || (br >= 0 && aw >= 0)) {
		int x1 = bw >= 0 && ar >= 0 ? bw : br, x2 = bw >= 0 && ar >= 0 ? ar : aw;

		keep(bar, "it also orders other shared memory traffic (%s at %s before it, %s at %s after it)",
		     ir_opinfo[s->nodes[x1].op->opc].name, stg_where(s->nodes[x1].op->loc),
		     ir_opinfo[s->nodes[x2].op->opc].name, stg_where(s->nodes[x2].op->loc));
		free(sd);
		return;
	}
	for (i = 0; i < e->ng; i++)
		sd[i] = side(s, b, loop, e->g[i].node);
	for (i = 0; i < e->ng; i++) {
		const GAcc *w = &e->g[i];

		if (!w->write || !(sd[i] & 1))
			continue;
		for (j = 0; j < e->ng; j++)
			if ((sd[j] & 2) && !e->g[j].readonly && same_param(w, &e->g[j])) {
				keep(bar, "it orders the write of %s at %s before it with the access at %s after it",
				     param_name(s, w->param), stg_where(s->nodes[w->node].op->loc),
				     stg_where(s->nodes[e->g[j].node].op->loc));
				free(sd);
				return;
			}
	}
	for (i = 0; i < e->ng; i++) {
		const GAcc *r = &e->g[i];

		if (r->write || r->readonly || !(sd[i] & 1))
			continue;
		for (j = 0; j < e->ng; j++) {
			const GAcc *w = &e->g[j];

			if (!w->write || !(sd[j] & 2) || !same_param(r, w))
				continue;
			if (r->param >= 0 && w->param == r->param && writes_own_reads(s, e, sd, r->param))
				continue;
			keep(bar, "it orders the read of %s at %s before it with the write at %s after it, and the threads are not proven to touch disjoint elements",
			     param_name(s, r->param), stg_where(s->nodes[r->node].op->loc),
			     stg_where(s->nodes[w->node].op->loc));
			free(sd);
			return;
		}
	}
	free(sd);
}

void
stg_decide_barriers(Stg *s)
{
	Effects e;
	int i;

	memset(&e, 0, sizeof e);
	effects(s, &e);
	for (i = 0; i < s->nbars; i++)
		decide(s, &e, &s->bars[i]);
	free(e.sh);
	free(e.gone);
	free(e.g);
}

/* ---- the rewrite ---- */

enum { ACT_KEEP, ACT_DELETE, ACT_EARLY, ACT_LATE };

/* An early load: the copy at `copy` becomes loads of each read type. */
typedef struct Early {
	int copy;
	IrType type;
	IrValue v;
} Early;

typedef struct Rw {
	Stg *s;
	unsigned char *act;     /* per node */
	IrRewriter map;         /* a rewritten read's result -> its early load */
	int counter;            /* rebuild: the node of the next op */
	Early *early;
	int nearly, capearly;
	IrOp **clones;          /* per node (ACT_LATE): the address ops to insert before the load */
	int *nclones, *capclones;
	IrValue *lateptr;       /* per node (ACT_LATE): the recomputed address */
	unsigned char *latero;  /* per node (ACT_LATE): its source takes the read-only path */
} Rw;

static IrValue
early_value(Rw *w, int copy, IrType t)
{
	Early e;
	int i;

	for (i = 0; i < w->nearly; i++)
		if (w->early[i].copy == copy && ir_type_eq(w->early[i].type, t))
			return w->early[i].v;
	e.copy = copy;
	e.type = t;
	e.v = ir_new_value(w->s->k, t);
	w->s->k->vlocs[e.v] = w->s->nodes[copy].op->loc;
	PUSH(w->early, w->nearly, w->capearly, e);
	return e.v;
}

/* Recomputes the copy-side value v at the read: paired induction variables swapped,
 * values from outside the copy's loops kept, pure ops cloned (each once, in `memo`). */
static IrValue
clone_value(Rw *w, const StgRead *rd, int outer, IrValue v, IrValue *memo, int r)
{
	Stg *s = w->s;
	const IrOp *d;
	IrOp op;
	int i, n, l = stg_loop_of_iv(s, v);

	for (i = 0; l >= 0 && i < rd->map.n; i++)
		if (rd->map.cl[i] == l)
			return s->nodes[rd->map.rl[i]].op->regions[0].args[0];
	n = s->def[v] >= 0 ? s->def[v] : s->argof[v];
	if (n < 0 || !(n == outer || stg_is_ancestor(s, outer, n)))
		return v;
	if (memo[v])
		return memo[v];
	d = stg_def(s, v);
	if (!d)
		ICE("staging elision: value %%%d of a copy address cannot be recomputed", v);
	ir_op_init(s->k, &op, d->opc, d->nargs, 1, 0, d->loc);
	op.imm = d->imm;
	op.fimm = d->fimm;
	for (i = 0; i < d->nargs; i++)
		op.args[i] = clone_value(w, rd, outer, d->args[i], memo, r);
	op.res[0] = ir_new_value(s->k, ir_vtype(s->k, v));
	s->k->vlocs[op.res[0]] = d->loc;
	memo[v] = op.res[0];
	PUSH(w->clones[r], w->nclones[r], w->capclones[r], op);
	return op.res[0];
}

/* The outermost loop around the copy that does not enclose the read. */
static int
outer_copy_loop(const Stg *s, const StgRead *rd)
{
	int x, outer = -1;

	for (x = s->nodes[rd->copy].parent; x >= 0; x = s->nodes[x].parent)
		if (!stg_is_ancestor(s, x, rd->node))
			outer = x;
	return outer;
}

static void
plan(Rw *w)
{
	Stg *s = w->s;
	IrKernel *k = s->k;
	int nvalues = k->nvalues;
	IrValue *memo = xcalloc((size_t)nvalues + 1, sizeof *memo);
	int i, j, n, cps = 0;

	for (i = 0; i < k->nbufs; i++) {
		StgBuf *b = &s->bufs[i];

		if (b->refused)
			continue;
		for (j = 0; j < b->ncopies; j++)
			w->act[b->copies[j]] = ACT_DELETE;
		for (j = 0; j < b->nrds; j++) {
			const StgRead *rd = &b->rds[j];
			const IrOp *r = s->nodes[rd->node].op;

			if (rd->early) {
				w->act[rd->copy] = ACT_EARLY;
				w->act[rd->node] = ACT_DELETE;
				ir_rw_set(&w->map, r->res[0], early_value(w, rd->copy, ir_vtype(k, r->res[0])));
			} else {
				memset(memo, 0, sizeof *memo * (size_t)(nvalues + 1));
				w->act[rd->node] = ACT_LATE;
				w->latero[rd->node] = (unsigned char)stg_readonly(s, s->nodes[rd->copy].op->args[1]);
				w->lateptr[rd->node] = clone_value(w, rd, outer_copy_loop(s, rd),
								   s->nodes[rd->copy].op->args[1], memo, rd->node);
			}
		}
	}
	/* the elided buffers' addresses */
	for (n = 0; n < s->nnodes; n++) {
		const IrOp *op = s->nodes[n].op;

		if ((op->opc == IR_SMEM || op->opc == IR_SMEM_STAGE || op->opc == IR_ELEMPTR) &&
		    op->nres == 1 && elided_buffer(s, stg_shared_root(s, op->res[0])))
			w->act[n] = ACT_DELETE;
		if (op->opc == IR_CP_ASYNC && w->act[n] == ACT_KEEP)
			cps++;
	}
	if (!cps)
		for (n = 0; n < s->nnodes; n++) {
			if (s->nodes[n].op->opc == IR_CP_ASYNC_COMMIT) {
				w->act[n] = ACT_DELETE;
				s->removed_commits++;
			} else if (s->nodes[n].op->opc == IR_CP_ASYNC_WAIT) {
				w->act[n] = ACT_DELETE;
				s->removed_waits++;
			}
		}
	for (i = 0; i < s->nbars; i++)
		if (!s->bars[i].why[0])
			w->act[s->bars[i].node] = ACT_DELETE;
	free(memo);
}

static void rebuild(Rw *w, IrRegion *r);

/* Rewrites the op of the next node as w->act says: out gets the ops that come before it
 * (early loads, cloned address ops); 0 drops it. */
static int
rebuild_op(IrRegion *out, IrOp *op, void *ctx)
{
	Rw *w = ctx;
	Stg *s = w->s;
	int node = w->counter++, j, e;

	for (j = 0; j < op->nargs; j++)
		op->args[j] = ir_rw_get(&w->map, op->args[j]);
	switch (w->act[node]) {
	case ACT_DELETE:
		return 0;
	case ACT_EARLY:
		for (e = 0; e < w->nearly; e++) {
			IrOp ld;

			if (w->early[e].copy != node)
				continue;
			ir_op_init(s->k, &ld, IR_LOAD, 1, 1, 0, op->loc);
			ld.args[0] = op->args[1];
			ld.imm = stg_readonly(s, op->args[1]);
			ld.res[0] = w->early[e].v;
			ir_region_push(out, &ld);
		}
		return 0;
	case ACT_LATE:
		for (e = 0; e < w->nclones[node]; e++) {
			IrOp c = w->clones[node][e];

			for (j = 0; j < c.nargs; j++)
				c.args[j] = ir_rw_get(&w->map, c.args[j]);
			ir_region_push(out, &c);
		}
		op->args[0] = w->lateptr[node];
		op->imm = w->latero[node];
		return 1;
	default:
		for (j = 0; j < op->nregions; j++)
			rebuild(w, &op->regions[j]);
		return 1;
	}
}

static void
rebuild(Rw *w, IrRegion *r)
{
	ir_region_rebuild(r, rebuild_op, w);
}

void
stg_rewrite(Stg *s)
{
	Rw w;
	int i;

	memset(&w, 0, sizeof w);
	w.s = s;
	w.act = xcalloc((size_t)s->nnodes + 1, 1);
	/* over the values before plan: the ones it makes (early loads, clones) replace none */
	ir_rw_init(&w.map, s->k);
	w.clones = xcalloc((size_t)s->nnodes + 1, sizeof *w.clones);
	w.nclones = xcalloc((size_t)s->nnodes + 1, sizeof *w.nclones);
	w.capclones = xcalloc((size_t)s->nnodes + 1, sizeof *w.capclones);
	w.lateptr = xcalloc((size_t)s->nnodes + 1, sizeof *w.lateptr);
	w.latero = xcalloc((size_t)s->nnodes + 1, 1);
	plan(&w);
	rebuild(&w, &s->k->body);
	if (w.counter != s->nnodes)
		ICE("staging elision: rebuilt %d ops of %d", w.counter, s->nnodes);
	for (i = 0; i < s->nnodes; i++)
		free(w.clones[i]);
	free(w.clones);
	free(w.nclones);
	free(w.capclones);
	free(w.lateptr);
	free(w.latero);
	free(w.early);
	ir_rw_free(&w.map);
	free(w.act);
}

/* ---- the buffer table ---- */

typedef struct Renumber {
	const int *to;
} Renumber;

static void
renumber(IrOp *op, void *ctx)
{
	const Renumber *rn = ctx;

	if ((op->opc == IR_SMEM || op->opc == IR_SMEM_STAGE) && op->imm >= 0)
		op->imm = rn->to[op->imm];
}

void
stg_remove_buffers(IrKernel *k, const unsigned char *drop)
{
	int *to = xmalloc(sizeof *to * (size_t)(k->nbufs + 1));
	int i, n = 0;
	Renumber rn;

	for (i = 0; i < k->nbufs; i++)
		to[i] = drop[i] ? -1 : n++;
	for (i = 0, n = 0; i < k->nbufs; i++) {
		if (drop[i])
			continue;
		k->bufs[n] = k->bufs[i];
		if (k->bufs[n].alias >= 0)
			k->bufs[n].alias = to[k->bufs[n].alias];
		n++;
	}
	if (n != k->nbufs) {
		k->nbufs = n;
		/* the layout is stale: smem-layout recomputes it */
		for (i = 0; i < k->nbufs; i++) {
			k->bufs[i].offset = -1;
			k->bufs[i].stage_stride = 0;
		}
		k->smem_bytes = 0;
	}
	rn.to = to;
	ir_walk(&k->body, renumber, &rn);
	free(to);
}
