/* staging_core.c: the state staging elision's files share (staging.h) and the questions
 * they all ask of it: the op table in program order, what defines a value, where a pointer
 * points, and whether the read's and the copy's addresses compute the same. The ground
 * floor of the pass: it calls into none of staging_elision.c (the rules, the report and
 * the entry point), staging_rewrite.c or staging_disjoint.c. */
#include "staging.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the op table ---- */

static void
collect(Stg *s, IrRegion *r, int parent, int regno)
{
	int i, j, a;

	for (i = 0; i < r->nops; i++) {
		StgNode n;
		int me;

		memset(&n, 0, sizeof n);
		n.op = &r->ops[i];
		n.region = r;
		n.parent = parent;
		n.regno = regno;
		n.pos = i;
		PUSH(s->nodes, s->nnodes, s->capnodes, n);
		me = s->nnodes - 1;
		for (j = 0; j < n.op->nres; j++)
			if (n.op->res[j] > 0 && n.op->res[j] < s->k->nvalues)
				s->def[n.op->res[j]] = me;
		for (j = 0; j < n.op->nregions; j++) {
			IrRegion *sub = &n.op->regions[j];

			for (a = 0; a < sub->nargs; a++)
				if (sub->args[a] > 0 && sub->args[a] < s->k->nvalues) {
					s->argof[sub->args[a]] = me;
					s->argno[sub->args[a]] = a;
				}
			collect(s, sub, me, j);
		}
		s->nodes[me].end = s->nnodes - 1;
	}
}

int
stg_is_ancestor(const Stg *s, int a, int x)
{
	return a >= 0 && a < x && x <= s->nodes[a].end;
}

const IrOp *
stg_def(const Stg *s, IrValue v)
{
	if (v <= 0 || v >= s->k->nvalues || s->def[v] < 0)
		return NULL;
	return s->nodes[s->def[v]].op;
}

/* line:col, with the file's path when it is not the compiled file (source 0) but one it
 * imports, whose line numbers would otherwise read as the compiled file's */
const char *
stg_where(SrcLoc loc)
{
	static char bufs[8][288];
	static int next;
	char *b = bufs[next++ & 7];

	if (loc.line > 0 && loc.file > 0)
		snprintf(b, sizeof bufs[0], "%.255s:%d:%d", diag_source_path(loc.file), loc.line, loc.col);
	else if (loc.line > 0)
		snprintf(b, sizeof bufs[0], "%d:%d", loc.line, loc.col);
	else
		snprintf(b, sizeof bufs[0], "?");
	return b;
}

int
stg_shared_root(const Stg *s, IrValue v)
{
	int guard;

	for (guard = 0; guard < 4096; guard++) {
		IrType t = ir_vtype(s->k, v);
		const IrOp *d;

		if (t.base != IR_PTR || (t.space != IR_SHARED && t.space != IR_CLUSTER))
			return ROOT_NONE;
		d = stg_def(s, v);
		if (!d)
			return ROOT_UNKNOWN;
		if (d->opc == IR_SMEM || d->opc == IR_SMEM_STAGE)
			return d->imm >= 0 && d->imm < s->k->nbufs ? (int)d->imm : ROOT_UNKNOWN;
		if (d->opc == IR_MBAR)
			return ROOT_BARRIER;
		/* remote(buf, r): buf in another block; the mapa that names it refuses buf
		 * (classify), and an access through it touches no other buffer */
		if (d->opc != IR_ELEMPTR && d->opc != IR_MAPA)
			return ROOT_UNKNOWN;
		v = d->args[0];
	}
	return ROOT_UNKNOWN;
}

int
stg_global_param(const Stg *s, IrValue v)
{
	int guard, i;

	for (guard = 0; guard < 4096; guard++) {
		const IrOp *d = stg_def(s, v);

		if (!d) {
			for (i = 0; i < s->k->body.nargs && i < s->k->nparams; i++)
				if (s->k->body.args[i] == v)
					return i;
			return -1;
		}
		if (d->opc != IR_ELEMPTR)
			return -1;
		v = d->args[0];
	}
	return -1;
}

/* An `in` tensor: never written while the kernel runs, so it may take the read-only path
 * and no barrier orders its reads. */
int
stg_readonly(const Stg *s, IrValue gptr)
{
	int p = stg_global_param(s, gptr);

	return p >= 0 && s->k->params[p].kind == PARAM_TENSOR && s->k->params[p].access == ACC_IN;
}

/* ---- structural equality of the read's and the copy's addresses ---- */

int
stg_loop_of_iv(const Stg *s, IrValue v)
{
	int n;

	if (v <= 0 || v >= s->k->nvalues || s->argof[v] < 0 || s->argno[v] != 0)
		return -1;
	n = s->argof[v];
	return s->nodes[n].op->opc == IR_FOR ? n : -1;
}

static uint64_t
mix(uint64_t h, uint64_t x)
{
	return hash_fnv1a(&x, sizeof x, h);
}

/* A hash of what v computes, memoized, equal for any two values stg_equal can call equal:
 * pure ops hash their opcode, attributes, type and operands (commutative operands in
 * either order), every loop induction variable hashes alike (a loop map may pair any two),
 * and any other value (a region argument, an impure op's result) hashes as itself. It lets
 * stg_equal reject most unequal pairs at once instead of walking (and, for commutative
 * operands, re-walking) both expressions. */
static uint64_t
shape_hash(const Stg *s, IrValue v)
{
	const IrOp *d;
	uint64_t h, x, y;
	int i;

	if (v <= 0 || v >= s->nuni)
		return 1;
	if (s->shape[v])
		return s->shape[v];
	d = stg_def(s, v);
	if (stg_loop_of_iv(s, v) >= 0) {
		h = 0x1f1f1f1f1f1f1f1full;
	} else if (!d || d->nregions || !(ir_opinfo[d->opc].flags & OPF_PURE) || d->nres != 1) {
		h = mix(0x5bd1e995ull, (uint64_t)v);
	} else {
		IrType t = ir_vtype(s->k, v);
		uint64_t fbits;

		memcpy(&fbits, &d->fimm, sizeof fbits);
		h = mix(mix(mix((uint64_t)d->opc, (uint64_t)d->imm), fbits),
			(uint64_t)t.base | (uint64_t)t.lanes << 8 | (uint64_t)t.space << 16 | (uint64_t)t.elem << 24);
		if ((ir_opinfo[d->opc].flags & OPF_COMM) && d->nargs == 2) {
			x = shape_hash(s, d->args[0]);
			y = shape_hash(s, d->args[1]);
			h = mix(mix(h, x + y), x ^ y);
		} else {
			for (i = 0; i < d->nargs; i++)
				h = mix(h, shape_hash(s, d->args[i]));
		}
	}
	if (h == 0)
		h = 1;
	s->shape[v] = h;
	return h;
}

int
stg_equal(const Stg *s, const StgMap *m, IrValue a, IrValue c, int depth)
{
	const IrOp *da, *dc;
	int i, lc;

	if (a == c)
		return 1;
	if (depth > 64 || a <= 0 || c <= 0)
		return 0;
	if (shape_hash(s, a) != shape_hash(s, c))
		return 0;
	lc = stg_loop_of_iv(s, c);
	if (m && lc >= 0)
		for (i = 0; i < m->n; i++)
			if (m->cl[i] == lc)
				return stg_loop_of_iv(s, a) == m->rl[i];
	da = stg_def(s, a);
	dc = stg_def(s, c);
	if (!da || !dc || da->opc != dc->opc || da->nregions || dc->nregions ||
	    !(ir_opinfo[da->opc].flags & OPF_PURE) || da->nargs != dc->nargs || da->imm != dc->imm ||
	    memcmp(&da->fimm, &dc->fimm, sizeof da->fimm) != 0 || da->nres != 1 || dc->nres != 1 ||
	    !ir_type_eq(ir_vtype(s->k, a), ir_vtype(s->k, c)))
		return 0;
	for (i = 0; i < da->nargs; i++)
		if (!stg_equal(s, m, da->args[i], dc->args[i], depth + 1))
			break;
	if (i == da->nargs)
		return 1;
	if ((ir_opinfo[da->opc].flags & OPF_COMM) && da->nargs == 2)
		return stg_equal(s, m, da->args[0], dc->args[1], depth + 1) &&
		       stg_equal(s, m, da->args[1], dc->args[0], depth + 1);
	return 0;
}

/* ---- the state's lifetime ---- */

void
stg_init(Stg *s, IrKernel *k)
{
	int i;

	memset(s, 0, sizeof *s);
	s->k = k;
	s->unknown_at = -1;
	s->def = xmalloc(sizeof *s->def * (size_t)(k->nvalues + 1));
	s->argof = xmalloc(sizeof *s->argof * (size_t)(k->nvalues + 1));
	s->argno = xcalloc((size_t)k->nvalues + 1, sizeof *s->argno);
	for (i = 0; i <= k->nvalues; i++)
		s->def[i] = s->argof[i] = -1;
	s->nuni = k->nvalues + 1;
	s->uni = xmalloc((size_t)s->nuni);
	memset(s->uni, -1, (size_t)s->nuni);
	s->shape = xcalloc((size_t)s->nuni, sizeof *s->shape);
	s->aff = xcalloc((size_t)s->nuni, sizeof *s->aff);
	collect(s, &k->body, -1, 0);
	s->nbufs = k->nbufs;
	s->bufs = xcalloc((size_t)s->nbufs + 1, sizeof *s->bufs);
}

void
stg_free(Stg *s)
{
	int i;

	for (i = 0; i < s->nbufs; i++) {
		free(s->bufs[i].reads);
		free(s->bufs[i].copies);
		free(s->bufs[i].rds);
	}
	for (i = 0; i < s->nuni; i++)
		free(s->aff[i]);
	free(s->aff);
	free(s->bufs);
	free(s->bars);
	free(s->nodes);
	free(s->def);
	free(s->argof);
	free(s->argno);
	free(s->uni);
	free(s->shape);
}
