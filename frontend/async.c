/* async.c: sema of the async constructs (docs/language.md, "The async
 * machinery"): the kernel clauses min_blocks and cluster, tensor maps, pipelines, raw
 * mbarriers, staged/swizzled/aliased shared buffers, roles, elect, produce and consume,
 * and the calls tma_load, tma_store, mbar_*, remote, wgmma and store. This file holds
 * the helpers and the clauses; async_decl.c the declarations and blocks; async_call.c
 * the buffer uses and calls; mma_wgmma.c wgmma and its accumulator fragments.
 *
 * The frontend checks names, types, syntax and that each declaration, clause and call is
 * well formed on its own (constant ranges, a tensor map's box against its tensor, a TMA
 * copy's buffer against its box, wgmma operands). The schedule rules, which depend on
 * which threads run what (arrival counts, register budgets, expect-tx bytes, TMA issue by
 * one thread, aliases across roles), have one owner: the schedule-check pass
 * (passes/schedule_check.c), which evaluates them on the IR and reports at .cake lines.
 * The rules on where roles, elect, produce, consume and wgmma run (and target gating) have
 * one owner too, the verifier (ir/verify_async.c), whose first run the driver turns into
 * user errors at .cake lines. */
#include "async.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "a pipeline", "an mbarrier": the kind of s with its article, for messages. */
const char *
asy_a_what(const Symbol *s)
{
	static char buf[4][48];
	static int next;
	const char *w = sema_sym_what(s);
	char *b = buf[next++ & 3];

	snprintf(b, 48, "%s %s", strchr("aeiou", w[0]) || w[0] == 'm' ? "an" : "a", w);
	return b;
}

/* ---- small helpers ---- */

int
asy_top_level(Sema *S, Node *s, const char *what)
{
	if (S->depth == 1)
		return 1;
	diag_error(s->loc, "%s are declared at the top level of the kernel body", what);
	return 0;
}

/* A compile-time integer in [lo, hi]; `what` names it. */
int
asy_const_in(Sema *S, Node *e, const char *what, int64_t lo, int64_t hi, int64_t *v)
{
	if (!sema_const_int(S, e, what, v))
		return 0;
	if (*v >= lo && *v <= hi)
		return 1;
	diag_error(e->loc, "%s must be from %lld to %lld, found %lld", what, (long long)lo,
		   (long long)hi, (long long)*v);
	return 0;
}

/* A run-time or constant i32 value. */
int
asy_i32_value(Sema *S, Node *e, const char *what)
{
	return sema_value(S, e) && fe_convert(e, ir_scalar(IR_I32), what);
}

/* The symbol a name argument names if it is of kind `kind`; reports otherwise. */
Symbol *
asy_name_of(Sema *S, Node *a, SymKind kind, const char *call, const char *what)
{
	Symbol *s;

	if (a->kind != N_NAME) {
		diag_error(a->loc, "%s takes %s", call, what);
		return NULL;
	}
	s = sema_lookup(S, a->name);
	a->sym = s;
	a->ty = fe_ty(TY_NONVALUE);
	if (!s) {
		diag_error(a->loc, "undefined name '%s'", a->name);
		return NULL;
	}
	if (s->kind != kind) {
		diag_error(a->loc, "%s takes %s, but '%s' is %s", call, what, a->name, asy_a_what(s));
		return NULL;
	}
	if (fe_is_error(s->type))
		return NULL;
	return s;
}

int64_t
asy_elem_bytes(IrType t)
{
	return ir_type_bytes(ir_scalar((IrBase)t.base));
}

/* Bytes of one stage of a shared buffer. */
int64_t
asy_stage_bytes(const Symbol *b)
{
	int64_t n = asy_elem_bytes(b->type);
	int i;

	for (i = 0; i < b->rank; i++)
		n *= b->dims[i];
	return n;
}

int64_t
asy_box_bytes(const Symbol *map)
{
	int64_t n = asy_elem_bytes(map->tensor->type);
	int i;

	for (i = 0; i < map->rank; i++)
		n *= map->dims[i];
	return n;
}

/* A named argument that is not allowed, or not last. */
static void
named_error(Node *e, Node *a, const char *const *names)
{
	char list[128] = "";
	size_t len = 0;
	int i;

	if (!names || !names[0]) {
		diag_error(a->loc, "'%s' takes no named arguments, found '%s:'", e->name, a->name);
		return;
	}
	for (i = 0; names[i] && len < sizeof list; i++)
		len += (size_t)snprintf(list + len, sizeof list - len, "%s'%s:'", i == 0 ? "" : names[i + 1] ? ", " : " and ",
					names[i]);
	diag_error(a->loc, "'%s' takes the named argument%s %s last, found '%s:'", e->name, i > 1 ? "s" : "", list,
		   a->name);
}

/* Splits a call's arguments into positional ones (at most max) and named ones: names lists
 * the names allowed (NULL-terminated; NULL for none), named[i] gets the argument called
 * names[i] or NULL. Named arguments come last, each at most once. Returns the number of
 * positional ones, or -1 after reporting a named one that is not allowed. */
int
asy_split_args(Node *e, Node **pos, int max, const char *const *names, Node **named)
{
	Node *a;
	int n = 0, i;

	for (i = 0; names && names[i]; i++)
		named[i] = NULL;
	for (a = e->list.head; a; a = a->next) {
		if (a->kind != N_NAMED) {
			if (n < max)
				pos[n] = a;
			n++;
			continue;
		}
		for (i = 0; names && names[i] && strcmp(a->name, names[i]) != 0; i++)
			;
		if (!names || !names[i] || (a->next && a->next->kind != N_NAMED)) {
			named_error(e, a, names);
			return -1;
		}
		if (named[i]) {
			diag_error(a->loc, "'%s' takes '%s:' once", e->name, a->name);
			return -1;
		}
		named[i] = a;
	}
	return n;
}

int
asy_want_nargs(Node *e, int n, int lo, int hi, const char *form)
{
	if (n >= lo && n <= hi)
		return 1;
	diag_error(e->loc, "'%s' takes %s, found %d argument%s", e->name, form, n, n == 1 ? "" : "s");
	return 0;
}

/* ---- kernels and clauses ---- */

void
asy_kernel_begin(Sema *S, Node *k, KernelInfo *ki)
{
	AsyncSema *h = xcalloc(1, sizeof *h);

	h->ki = ki;
	h->kernel = k;
	h->threads = ki->threads[0] * ki->threads[1] * ki->threads[2];
	h->nwarps = (h->threads + 31) / 32;
	S->asy = h;
}

/* A clause of one constant count in lo..hi (min_blocks, cta_group); hint follows "takes
 * one count" in the arity error. */
static void
count_clause(Sema *S, Node *n, const char *name, const char *hint, int64_t lo, int64_t hi, int *out)
{
	int64_t v;

	if (n->list.n != 1)
		diag_error(n->loc, "%s(...) takes one count%s, found %d", name, hint, n->list.n);
	else if (asy_const_in(S, n->list.head, name, lo, hi, &v))
		*out = (int)v;
}

int
asy_clause(Sema *S, Node *n, KernelInfo *ki)
{
	int64_t v, total = 1;
	Node *a;
	int i = 0;

	if (n->kind == N_MIN_BLOCKS) {
		count_clause(S, n, "min_blocks", "", 1, 32, &ki->min_blocks);
		return 1;
	}
	/* cta_group(2): tcgen05 on CTA pairs (docs/language.md, "CTA pairs"); the cluster and
	 * the tensor memory it needs are checked at the kernel's end (asy_tmem_end) */
	if (n->kind == N_CTA_GROUP) {
		count_clause(S, n, "cta_group", ", 1 or 2", 1, 2, &ki->cta_group);
		return 1;
	}
	if (n->kind != N_CLUSTER)
		return 0;
	if (n->list.n > 3) {
		diag_error(n->loc, "cluster(...) takes 1 to 3 sizes (x, y, z), found %d", n->list.n);
		return 1;
	}
	for (a = n->list.head; a; a = a->next, i++) {
		char what[48];

		snprintf(what, sizeof what, "the cluster size in %c", "xyz"[i]);
		if (!asy_const_in(S, a, what, 1, MAX_CLUSTER, &v))
			return 1;
		ki->cluster[i] = (int)v;
		total *= v;
	}
	if (total > MAX_CLUSTER)
		diag_error(n->loc, "cluster(%d, %d, %d) makes %lld CTAs; at most %d are allowed (16 needs a non-portable opt-in, not supported)",
			   ki->cluster[0], ki->cluster[1], ki->cluster[2], (long long)total, MAX_CLUSTER);
	return 1;
}

int
asy_cluster_size(const AsyncSema *h)
{
	return h->ki->cluster[0] * h->ki->cluster[1] * h->ki->cluster[2];
}

void
asy_kernel_end(Sema *S, Node *k, KernelInfo *ki)
{
	AsyncSema *h = S->asy;

	(void)k;
	if (!h)
		return;
	ki->ntmaps = h->ntmaps;
	ki->tmaps = arena_alloc(S->p->arena, sizeof(Symbol *) * (size_t)(h->ntmaps + 1));
	if (h->ntmaps)
		memcpy(ki->tmaps, h->tmaps, sizeof(Symbol *) * (size_t)h->ntmaps);
	ki->nhobjs = h->nhobjs;
	ki->hobjs = arena_alloc(S->p->arena, sizeof(Symbol *) * (size_t)(h->nhobjs + 1));
	if (h->nhobjs)
		memcpy(ki->hobjs, h->hobjs, sizeof(Symbol *) * (size_t)h->nhobjs);
	asy_tmem_end(S, ki);
	free(h->hobjs);
	free(h->tmaps);
	free(h->roles);
	free(h);
	S->asy = NULL;
}
