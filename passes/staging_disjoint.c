/* staging_disjoint.c: proves that the threads of a block touch disjoint global elements
 * through a set of addresses, for staging elision's barrier decision (a barrier between
 * reads of a tensor and writes of it may go only when no thread writes what another read).
 *
 * Each address's element offset is brought to an affine form: a constant, plus integer
 * multiples of "digits" of the thread index (thread.x, thread.y, thread.z, or thread.x % C
 * and thread.x / C, lane and warp), plus multiples of block-uniform values (constants,
 * block indices, parameters and pure functions of them), which are the same for every
 * thread of the block. The forms must share the uniform part and the digits' coefficients,
 * the digits must determine the thread, and the digits with the element within each
 * access must form a mixed-radix number: each coefficient larger than what all smaller
 * digits span. Two accesses i, j of threads X != Y then meet only if c_j - c_i is a sum of
 * digit differences with some thread digit non-zero, which a small search rules out. */
#include "staging.h"

#include <stdlib.h>
#include <string.h>

#define MAXT 12

enum { AT_TID, AT_MOD, AT_DIV, AT_UNI, AT_IV };

/* What affine_in() decomposes: in the thread mode (iter NULL) everything block-uniform is
 * one atom; in the iteration mode, values defined outside the loops iter->cl (outermost
 * `outer`) are invariant atoms and the loops' induction variables are AT_IV atoms. */
typedef struct Actx {
	const Stg *s;
	const StgMap *iter;
	int outer;
} Actx;

typedef struct Aff {
	int64_t c;
	int n;
	int kind[MAXT];
	int64_t key[MAXT];  /* AT_TID: the dimension; AT_MOD/AT_DIV: C; AT_UNI: the value */
	int64_t coef[MAXT];
} Aff;

static int
const_int(const Stg *s, IrValue v, int64_t *out)
{
	const IrOp *d = stg_def(s, v);

	if (!d || d->opc != IR_CONST || !ir_is_int(ir_vtype(s->k, v)))
		return 0;
	*out = d->imm;
	return 1;
}

static int uniform(const Stg *s, IrValue v, int depth);

/* The same value for every thread of a block. */
static int
uniform_uncached(const Stg *s, IrValue v, int depth)
{
	const IrOp *d = stg_def(s, v);
	int i;

	if (!d) {
		for (i = 0; i < s->k->body.nargs; i++)
			if (s->k->body.args[i] == v)
				return 1;
		return 0;
	}
	switch (d->opc) {
	case IR_CONST: case IR_CTAID_X: case IR_CTAID_Y: case IR_CTAID_Z:
	case IR_NCTAID_X: case IR_NCTAID_Y: case IR_NCTAID_Z:
	case IR_NTID_X: case IR_NTID_Y: case IR_NTID_Z: case IR_CLUSTER_RANK:
		return 1;
	case IR_TID_X: case IR_TID_Y: case IR_TID_Z: case IR_LANEID: case IR_WARPID:
		return 0;
	default:
		break;
	}
	if (!(ir_opinfo[d->opc].flags & OPF_PURE) || d->nregions)
		return 0;
	for (i = 0; i < d->nargs; i++)
		if (!uniform(s, d->args[i], depth + 1))
			return 0;
	return 1;
}

/* Memoized: the operands of unrolled kernels form DAGs with much sharing, which plain
 * recursion walks once per path. A depth cut-off answers "not uniform", the safe answer,
 * and is cached like any other. */
static int
uniform(const Stg *s, IrValue v, int depth)
{
	int r;

	if (v > 0 && v < s->nuni && s->uni[v] >= 0)
		return s->uni[v];
	r = depth > 256 ? 0 : uniform_uncached(s, v, depth);
	if (v > 0 && v < s->nuni)
		s->uni[v] = (signed char)r;
	return r;
}

static int
add_term(Aff *a, int kind, int64_t key, int64_t coef)
{
	int i;

	for (i = 0; i < a->n; i++)
		if (a->kind[i] == kind && a->key[i] == key) {
			a->coef[i] += coef;
			return 1;
		}
	if (a->n == MAXT)
		return 0;
	a->kind[a->n] = kind;
	a->key[a->n] = key;
	a->coef[a->n] = coef;
	a->n++;
	return 1;
}

static int
combine(Aff *a, const Aff *b, int64_t scale)
{
	int i;

	a->c += scale * b->c;
	for (i = 0; i < b->n; i++)
		if (!add_term(a, b->kind[i], b->key[i], scale * b->coef[i]))
			return 0;
	return 1;
}

static void
single(Aff *a, int kind, int64_t key)
{
	memset(a, 0, sizeof *a);
	add_term(a, kind, key, 1);
}

/* Exactly thread.x (of a block whose y and z are 1 when want_linear). */
static int
is_tid_x(const Aff *a)
{
	return a->c == 0 && a->n == 1 && a->kind[0] == AT_TID && a->key[0] == 0 && a->coef[0] == 1;
}

/* Nonzero when v is defined outside the loop node `outer` (or is its region's argument
 * only as a carried value, never the induction variable: then it is not invariant). */
static int
invariant(const Stg *s, int outer, IrValue v)
{
	int n = v > 0 && v < s->k->nvalues ? (s->def[v] >= 0 ? s->def[v] : s->argof[v]) : -1;

	return n < 0 || !(n == outer || stg_is_ancestor(s, outer, n));
}

static int affine_in(const Actx *a, IrValue v, Aff *out, int depth);

static int
affine_compute(const Actx *a, IrValue v, Aff *out, int depth)
{
	const Stg *s = a->s;
	const IrOp *d = stg_def(s, v);
	Aff x, y;
	int64_t c;
	int one_d = s->k->threads[1] == 1 && s->k->threads[2] == 1, i, l;

	memset(out, 0, sizeof *out);
	if (depth > 32 || !ir_is_int(ir_vtype(s->k, v)))
		return 0;
	if (const_int(s, v, &c)) {
		out->c = c;
		return 1;
	}
	if (a->iter) {
		l = stg_loop_of_iv(s, v);
		for (i = 0; l >= 0 && i < a->iter->n; i++)
			if (a->iter->cl[i] == l) {
				single(out, AT_IV, l);
				return 1;
			}
		if (invariant(s, a->outer, v)) {
			single(out, AT_UNI, v);
			return 1;
		}
	} else if (uniform(s, v, 0)) {
		single(out, AT_UNI, v);
		return 1;
	}
	if (!d)
		return 0;
	switch (d->opc) {
	case IR_TID_X: single(out, AT_TID, 0); return 1;
	case IR_TID_Y: single(out, AT_TID, 1); return 1;
	case IR_TID_Z: single(out, AT_TID, 2); return 1;
	case IR_LANEID:
		if (!one_d)
			return 0;
		single(out, AT_MOD, 32);
		return 1;
	case IR_WARPID:
		if (!one_d)
			return 0;
		single(out, AT_DIV, 32);
		return 1;
	case IR_CAST:
		return ir_is_int(ir_vtype(s->k, d->args[0])) && affine_in(a, d->args[0], out, depth + 1);
	case IR_ADD: case IR_SUB:
		return affine_in(a, d->args[0], out, depth + 1) && affine_in(a, d->args[1], &y, depth + 1) &&
		       combine(out, &y, d->opc == IR_ADD ? 1 : -1);
	case IR_MUL: case IR_SHL:
		if (d->opc == IR_MUL && const_int(s, d->args[0], &c))
			return affine_in(a, d->args[1], &x, depth + 1) && combine(out, &x, c);
		if (!const_int(s, d->args[1], &c))
			return 0;
		if (d->opc == IR_SHL) {
			if (c < 0 || c > 30)
				return 0;
			c = (int64_t)1 << c;
		}
		return affine_in(a, d->args[0], &x, depth + 1) && combine(out, &x, c);
	case IR_REM: case IR_AND: case IR_DIV: case IR_SHR:
		if (!const_int(s, d->args[1], &c) || !affine_in(a, d->args[0], &x, depth + 1) || !is_tid_x(&x))
			return 0;
		if (d->opc == IR_AND) {
			if (c < 0 || (c & (c + 1)) != 0)
				return 0;
			c += 1;
		} else if (d->opc == IR_SHR) {
			if (c < 0 || c > 30)
				return 0;
			c = (int64_t)1 << c;
		}
		if (c <= 0)
			return 0;
		single(out, d->opc == IR_REM || d->opc == IR_AND ? AT_MOD : AT_DIV, c);
		return 1;
	default:
		return 0;
	}
}

/* affine_compute, memoized in thread mode (which depends on v alone): the forms found are
 * kept, failures are not (they may come from the depth bound). Index expressions share
 * subexpressions, so without the memo every pointer re-walks them. */
static int
affine_in(const Actx *a, IrValue v, Aff *out, int depth)
{
	const Stg *s = a->s;

	if (a->iter || !s->aff || v <= 0 || v >= s->nuni)
		return affine_compute(a, v, out, depth);
	if (s->aff[v]) {
		memcpy(out, s->aff[v], sizeof *out);
		return 1;
	}
	if (!affine_compute(a, v, out, depth))
		return 0;
	s->aff[v] = xmalloc(sizeof *out);
	memcpy(s->aff[v], out, sizeof *out);
	return 1;
}

/* The element offset of a pointer from its root (a parameter, or a shared buffer's
 * base): the sum of its elemptr indices. */
static int
offset_of(const Actx *a, IrValue p, Aff *out)
{
	int guard;

	memset(out, 0, sizeof *out);
	for (guard = 0; guard < 64; guard++) {
		const IrOp *d = stg_def(a->s, p);
		Aff x;

		if (!d || d->opc == IR_SMEM)
			return 1;
		if (d->opc != IR_ELEMPTR || !affine_in(a, d->args[1], &x, 0) || !combine(out, &x, 1))
			return 0;
		p = d->args[0];
	}
	return 0;
}

/* The digits: each thread term's coefficient (absolute) and range. */
typedef struct Digits {
	int n;
	int64_t coef[MAXT + 1], range[MAXT + 1];
	int thread[MAXT + 1];   /* a thread digit (else the element within an access) */
	int64_t below[MAXT + 1];   /* what the smaller digits span */
} Digits;

static int64_t
digit_range(const IrKernel *k, int kind, int64_t key)
{
	int64_t x = k->threads[0];

	switch (kind) {
	case AT_TID: return k->threads[key];
	case AT_MOD: return key < x ? key : x;
	default: return (x + key - 1) / key;
	}
}

/* The thread digits must determine the thread: thread.x whole, or as % C and / C of one C
 * (either alone when the other is always 0), and y and z whole where the block has them. */
static int
determines_thread(const IrKernel *k, const Aff *a)
{
	int i, tid[3] = {0, 0, 0}, nmod = 0, ndiv = 0;
	int64_t cmod = 0, cdiv = 0;

	for (i = 0; i < a->n; i++) {
		if (a->coef[i] == 0 || a->kind[i] == AT_UNI)
			continue;
		if (a->kind[i] == AT_TID)
			tid[a->key[i]] = 1;
		else if (a->kind[i] == AT_MOD)
			cmod = a->key[i], nmod++;
		else
			cdiv = a->key[i], ndiv++;
	}
	if (nmod > 1 || ndiv > 1 || (tid[0] && (nmod || ndiv)))
		return 0;
	if (k->threads[0] > 1 && !tid[0]) {
		int mod_ok = nmod && (cmod >= k->threads[0] || (ndiv && cdiv == cmod));
		int div_ok = ndiv && cdiv == 1;

		if (!mod_ok && !div_ok)
			return 0;
		if (nmod && ndiv && cdiv != cmod)
			return 0;
	}
	return (k->threads[1] <= 1 || tid[1]) && (k->threads[2] <= 1 || tid[2]);
}

/* Whether delta = sum coef[d] * e[d], |e[d]| < range[d], has a solution with some thread
 * digit non-zero (from digit d down; digits sorted by coefficient, largest last). */
static int
collides(const Digits *g, int d, int64_t delta, int thread_used)
{
	int64_t e0, e;

	if (d < 0)
		return delta == 0 && thread_used;
	if (g->range[d] <= 1)
		return collides(g, d - 1, delta, thread_used);
	e0 = delta / g->coef[d];
	for (e = e0 - 1; e <= e0 + 1; e++) {
		int64_t rest = delta - e * g->coef[d];

		if (e <= -g->range[d] || e >= g->range[d])
			continue;
		if (rest > g->below[d] || rest < -g->below[d])
			continue;
		if (collides(g, d - 1, rest, thread_used || (e != 0 && g->thread[d])))
			return 1;
	}
	return 0;
}

/* Sorts the digits by coefficient and checks the mixed radix: each coefficient larger than
 * what the smaller digits span. */
static int
mixed_radix(Digits *g)
{
	int i, j;

	for (i = 1; i < g->n; i++)
		for (j = i; j > 0 && g->coef[j] < g->coef[j - 1]; j--) {
			int64_t c = g->coef[j], r = g->range[j];
			int th = g->thread[j];

			g->coef[j] = g->coef[j - 1], g->range[j] = g->range[j - 1], g->thread[j] = g->thread[j - 1];
			g->coef[j - 1] = c, g->range[j - 1] = r, g->thread[j - 1] = th;
		}
	for (i = 0; i < g->n; i++) {
		g->below[i] = i ? g->below[i - 1] + g->coef[i - 1] * (g->range[i - 1] - 1) : 0;
		if (g->range[i] > 1 && g->coef[i] <= g->below[i])
			return 0;
	}
	return 1;
}

int
stg_disjoint(const Stg *s, const IrValue *ptr, const int *elems, int n)
{
	Aff *f;
	Digits g;
	int i, j, t, ok = 0, width = 1;
	Actx ac = {s, NULL, -1};

	if (n <= 0)
		return 1;
	f = xcalloc((size_t)n, sizeof *f);
	for (i = 0; i < n; i++) {
		if (!offset_of(&ac, ptr[i], &f[i]))
			goto done;
		if (elems[i] > width)
			width = elems[i];
	}
	/* one uniform part and one set of thread coefficients for all */
	for (i = 1; i < n; i++) {
		if (f[i].n != f[0].n)
			goto done;
		for (t = 0; t < f[0].n; t++) {
			for (j = 0; j < f[i].n; j++)
				if (f[i].kind[j] == f[0].kind[t] && f[i].key[j] == f[0].key[t])
					break;
			if (j == f[i].n || f[i].coef[j] != f[0].coef[t])
				goto done;
		}
	}
	if (!determines_thread(s->k, &f[0]))
		goto done;
	memset(&g, 0, sizeof g);
	for (t = 0; t < f[0].n; t++) {
		if (f[0].kind[t] == AT_UNI || f[0].coef[t] == 0)
			continue;
		g.coef[g.n] = f[0].coef[t] < 0 ? -f[0].coef[t] : f[0].coef[t];
		g.range[g.n] = digit_range(s->k, f[0].kind[t], f[0].key[t]);
		g.thread[g.n] = 1;
		g.n++;
	}
	g.coef[g.n] = 1;
	g.range[g.n] = width;
	g.n++;
	if (!mixed_radix(&g))
		goto done;
	for (i = 0; i < n; i++)
		for (j = i; j < n; j++)
			if (collides(&g, g.n - 1, f[j].c - f[i].c, 0))
				goto done;
	ok = 1;
done:
	free(f);
	return ok;
}

int
stg_iterations_distinct(const Stg *s, const StgMap *m, IrValue ptr, int elems)
{
	Actx ac;
	Aff f;
	Digits g;
	int i, t;

	ac.s = s;
	ac.iter = m;
	ac.outer = m->n ? m->cl[0] : -1;
	if (!m->n)
		return 1;
	if (!offset_of(&ac, ptr, &f))
		return 0;
	memset(&g, 0, sizeof g);
	for (i = 0; i < m->n; i++) {
		const IrOp *loop = s->nodes[m->cl[i]].op;
		int64_t lo, hi, step, trip, coef = 0;

		if (!const_int(s, loop->args[0], &lo) || !const_int(s, loop->args[1], &hi) ||
		    !const_int(s, loop->args[2], &step) || step <= 0)
			return 0;
		trip = hi > lo ? (hi - lo + step - 1) / step : 0;
		for (t = 0; t < f.n; t++)
			if (f.kind[t] == AT_IV && f.key[t] == m->cl[i])
				coef = f.coef[t];
		if (trip <= 1)
			continue;
		if (coef == 0 || g.n == MAXT)
			return 0;       /* every iteration writes the same element */
		g.coef[g.n] = (coef < 0 ? -coef : coef) * step;
		g.range[g.n] = trip;
		g.n++;
	}
	g.coef[g.n] = 1;
	g.range[g.n] = elems > 0 ? elems : 1;
	g.n++;
	return mixed_radix(&g);
}
