/* async_decl.c: sema of the async declarations (tensor maps, pipelines, mbarriers, the
 * attributes of shared arrays) and of roles, elect, produce and consume. See async.c for
 * the whole. */
#include "async.h"

#include <stdio.h>
#include <string.h>

/* ---- declarations ---- */

static void
check_tensormap(Sema *S, Node *s)
{
	AsyncSema *h = S->asy;
	Node *c = s->init, *a, *box = NULL, *tn;
	Symbol *sym, *t = NULL;
	int ok = asy_top_level(S, s, "tensor maps"), i, rank = 0, nswz = 0, noob = 0;
	int64_t v, inner;

	sym = sema_declare(S, SYM_TMAP, s->name, s->loc, s);
	s->sym = sym;
	sym->type = fe_ty(TY_ERROR);
	if (c->kind != N_CALL || c->lhs || strcmp(c->name, "tma") != 0) {
		diag_error(c->loc, "a tensor map is made by tma(TENSOR, box[...], swizzle(N)), as in 'tensormap %s = tma(a, box[128, 64], swizzle(128));'",
			   s->name);
		return;
	}
	c->builtin = BI_TMA;
	tn = c->list.head;
	if (!tn || tn->kind == N_NAMED || !tn->next) {
		diag_error(c->loc, "tma(...) takes a tensor and box[...], then optionally swizzle(N) and oob(nan)");
		return;
	}
	t = asy_name_of(S, tn, SYM_TENSOR, "tma(...)", "a tensor parameter first");
	for (a = tn->next; a; a = a->next) {
		if (a->kind == N_INDEX && a->lhs->kind == N_NAME && strcmp(a->lhs->name, "box") == 0 &&
		    !a->width && !box) {
			box = a;
		} else if (a->kind == N_CALL && !a->lhs && strcmp(a->name, "swizzle") == 0 && a->list.n == 1 && !nswz++) {
			Node *w = a->list.head;

			if (w->kind == N_NAME && strcmp(w->name, "none") == 0) {
				sym->swizzle = 0;
			} else if (sema_const_int(S, w, "the swizzle", &v)) {
				if (v != 0 && v != 32 && v != 64 && v != 128) {
					diag_error(w->loc, "swizzle must be none, 32, 64 or 128 (bytes), found %lld", (long long)v);
					ok = 0;
				}
				sym->swizzle = (int)v;
			} else {
				ok = 0;
			}
		} else if (a->kind == N_CALL && !a->lhs && strcmp(a->name, "oob") == 0 && a->list.n == 1 && !noob++) {
			Node *w = a->list.head;

			if (w->kind == N_NAME && (strcmp(w->name, "nan") == 0 || strcmp(w->name, "zero") == 0)) {
				sym->oob_nan = w->name[0] == 'n';
			} else {
				diag_error(w->loc, "oob(...) takes nan or zero (what reads outside the tensor give)");
				ok = 0;
			}
		} else {
			diag_error(a->loc, "tma(...) takes box[...] once, then swizzle(N) and oob(nan) at most once each");
			ok = 0;
		}
	}
	if (!box) {
		if (ok)
			diag_error(c->loc, "tma(...) needs the box, as in tma(%s, box[64, 64])",
				   tn->kind == N_NAME ? tn->name : "a");
		return;
	}
	rank = box->list.n;
	if (rank < 1 || rank > TMA_MAX_RANK) {
		diag_error(box->loc, "a TMA box has 1 to %d dimensions, found %d", TMA_MAX_RANK, rank);
		return;
	}
	sym->rank = rank;
	for (a = box->list.head, i = 0; a; a = a->next, i++) {
		char what[64];

		snprintf(what, sizeof what, "TMA box dimension %d of '%s'", i + 1, s->name);
		if (!sema_const_int(S, a, what, &v)) {
			ok = 0;
			continue;
		}
		if (v < 1 || v > TMA_MAX_BOX) {
			diag_error(a->loc, "%s is %lld, expected 1 to %d", what, (long long)v, TMA_MAX_BOX);
			ok = 0;
			continue;
		}
		sym->dims[i] = v;
	}
	if (!t || !ok)
		return;
	if (t->rank != rank) {
		diag_error(box->loc, "the box of tensor map '%s' has %d dimension%s but tensor '%s' has %d",
			   s->name, rank, rank == 1 ? "" : "s", t->name, t->rank);
		return;
	}
	inner = sym->dims[rank - 1] * asy_elem_bytes(t->type);
	if (inner % 16) {
		diag_error(box->loc, "TMA box inner dimension of '%s' is %lld bytes (%lld x %s), expected a multiple of 16",
			   s->name, (long long)inner, (long long)sym->dims[rank - 1], fe_tname(t->type));
		return;
	}
	if (sym->swizzle && inner > sym->swizzle) {
		diag_error(box->loc, "TMA box inner dimension of '%s' is %lld bytes but %dB swizzle allows at most %d",
			   s->name, (long long)inner, sym->swizzle, sym->swizzle);
		return;
	}
	if (t->ranks && sym->dims[0] != 1) {
		diag_error(box->list.head->loc, "the box of tensor map '%s' over per_rank tensor '%s' starts with 1 (one rank's tensor at a time: the first coordinate picks it), found %lld",
			   s->name, t->name, (long long)sym->dims[0]);
		return;
	}
	sym->tensor = t;
	sym->ranks = t->ranks;
	sym->param = S->nparams + S->nsyms + h->ntmap_params;
	h->ntmap_params += t->ranks ? t->ranks : 1;
	sym->type = fe_ty(TY_NONVALUE);
	PUSH(h->tmaps, h->ntmaps, h->captmaps, sym);
}

/* A pipeline's arrival source: tma, thread, warp, warpgroup or mma, optionally `* count`. */
static int
pipe_source(Sema *S, Node *v, const char *pipe, int side, int *src, int *mult)
{
	static const char *const side_name[2] = {"full", "empty"};
	Node *name = v;
	int64_t m = 1;

	if (v->kind == N_BINARY && v->op == OP_MUL) {
		name = v->lhs;
		if (!asy_const_in(S, v->rhs, "the arrival multiplier", 1, MBAR_MAX, &m))
			return 0;
	}
	if (name->kind != N_NAME || ir_pipe_source_from_name(name->name) < 0) {
		diag_error(name->loc, "the %s source of pipeline '%s' is tma, thread, warp, warpgroup or mma, optionally times a count (warpgroup * 2)",
			   side_name[side], pipe);
		return 0;
	}
	*src = ir_pipe_source_from_name(name->name);
	*mult = (int)m;
	if (side == 1 && *src == PIPE_SRC_TMA) {
		diag_error(name->loc, "TMA completes only a full barrier; the empty source of pipeline '%s' is thread, warp, warpgroup or mma",
			   pipe);
		return 0;
	}
	if (ir_pipe_source_count(*src, *mult) > MBAR_MAX) {
		diag_error(v->loc, "the %s source of pipeline '%s' makes %lld arrivals, more than an mbarrier counts (%d)",
			   side_name[side], pipe, (long long)ir_pipe_source_count(*src, *mult), MBAR_MAX);
		return 0;
	}
	return 1;
}

static void
check_pipeline(Sema *S, Node *s)
{
	AsyncSema *h = S->asy;
	static const char *const names[3] = {"stages", "full", "empty"};
	Node *args[3] = {0}, *a;
	Symbol *sym;
	int ok = asy_top_level(S, s, "pipelines"), i;
	int64_t v;

	for (a = s->list.head; a; a = a->next) {
		if (a->kind != N_NAMED) {
			diag_error(a->loc, "pipeline takes named arguments: pipeline %s(stages: N, full: SOURCE, empty: SOURCE)",
				   s->name);
			ok = 0;
			continue;
		}
		for (i = 0; i < 3 && strcmp(a->name, names[i]) != 0; i++)
			;
		if (i == 3 || args[i]) {
			diag_error(a->loc, i == 3 ? "pipeline takes stages:, full: and empty:, found '%s:'"
				   : "duplicate '%s:' in pipeline", a->name);
			ok = 0;
			continue;
		}
		args[i] = a;
	}
	sym = sema_declare(S, SYM_PIPELINE, s->name, s->loc, s);
	s->sym = sym;
	sym->type = fe_ty(TY_ERROR);
	for (i = 0; i < 3; i++)
		if (!args[i] && ok) {
			diag_error(s->loc, "pipeline '%s' needs '%s:' (pipeline %s(stages: N, full: SOURCE, empty: SOURCE))",
				   s->name, names[i], s->name);
			ok = 0;
		}
	if (!ok)
		return;
	if (!asy_const_in(S, args[0]->lhs, "the number of stages", 1, MAX_STAGES, &v))
		return;
	sym->stages = (int)v;
	if (!pipe_source(S, args[1]->lhs, s->name, 0, &sym->src[0], &sym->mult[0]) ||
	    !pipe_source(S, args[2]->lhs, s->name, 1, &sym->src[1], &sym->mult[1]))
		return;
	sym->type = fe_ty(TY_NONVALUE);
	sym->index = h->npipes++;
	sym->bar[0] = h->nbars++;
	sym->bar[1] = h->nbars++;
	PUSH(h->hobjs, h->nhobjs, h->caphobjs, sym);
}

static void
check_mbarrier(Sema *S, Node *s)
{
	AsyncSema *h = S->asy;
	Node *a = s->list.head;
	Symbol *sym;
	int ok = asy_top_level(S, s, "mbarriers");
	int64_t v;

	sym = sema_declare(S, SYM_MBARRIER, s->name, s->loc, s);
	s->sym = sym;
	sym->type = fe_ty(TY_ERROR);
	if (s->list.n != 1 || a->kind != N_NAMED || strcmp(a->name, "count") != 0) {
		diag_error(s->loc, "mbarrier takes its arrival count: mbarrier %s(count: N)", s->name);
		return;
	}
	if (!asy_const_in(S, a->lhs, "the arrival count", 1, MBAR_MAX, &v) || !ok)
		return;
	sym->count = (int)v;
	sym->type = fe_ty(TY_NONVALUE);
	sym->index = h->nbars++;
	PUSH(h->hobjs, h->nhobjs, h->caphobjs, sym);
}

void
asy_shared(Sema *S, Node *s, Symbol *sym)
{
	Node *a;
	Symbol *t;
	int64_t v;

	sym->stages = 1;
	for (a = s->attrs.head; a; a = a->next) {
		if (strcmp(a->name, "in") == 0) {
			t = asy_name_of(S, a->lhs, SYM_PIPELINE, "'in'", "a pipeline");
			if (t) {
				sym->pipe = t;
				sym->stages = t->stages;
			}
		} else if (strcmp(a->name, "swizzle") == 0) {
			if (a->lhs->kind == N_NAME && strcmp(a->lhs->name, "none") == 0)
				continue;
			if (!sema_const_int(S, a->lhs, "the swizzle", &v))
				continue;
			if (v != 0 && v != 32 && v != 64 && v != 128)
				diag_error(a->lhs->loc, "swizzle must be none, 32, 64 or 128 (bytes), found %lld", (long long)v);
			else
				sym->swizzle = (int)v;
		} else if (strcmp(a->name, "alias") == 0) {
			t = asy_name_of(S, a->lhs, SYM_SHARED, "alias(...)", "a shared array declared before");
			if (!t || t == sym)
				continue;
			if (t->alias)
				diag_error(a->lhs->loc, "'%s' is an alias of '%s'; write alias(%s)", t->name,
					   t->alias->name, t->alias->name);
			else
				sym->alias = t;
		}
	}
	if (sym->alias && sym->pipe) {
		diag_error(s->loc, "shared array '%s' cannot both be in a pipeline and alias '%s'", s->name,
			   sym->alias->name);
		sym->alias = NULL;
	}
}

/* ---- roles, elect, produce, consume ---- */

/* role NAME(warps, leader): the role runs in the even CTA of each pair, which issues the
 * pair's MMAs (the schedule checks hold the pair pipelines' sides to it). */
static int
check_leader(Sema *S, Node *s, const Node *a)
{
	if (a->kind != N_RANGE || a->lo || strcmp(a->name, "leader") != 0) {
		diag_error(a->loc, "the second argument of role '%s' is 'leader' (the role runs in the leader CTA of "
			   "each CTA pair)", s->name);
		return 0;
	}
	if (S->asy->ki->cta_group != 2) {
		diag_error(a->loc, "role '%s' is for the leader CTA of each CTA pair, but the kernel has no cta_group(2) "
			   "clause", s->name);
		return 0;
	}
	s->leader = 1;
	return 1;
}

static void
check_role(Sema *S, Node *s)
{
	AsyncSema *h = S->asy;
	Node *r = s->list.head, *a;
	Node *saved_role = h->role;
	int64_t lo, hi = -1, v;
	int ok = asy_top_level(S, s, "roles"), i, group;

	if (s->list.n < 1 || s->list.n > 2 || r->kind != N_RANGE || !r->lo) {
		diag_error(s->loc, "role '%s' takes its warps: warps a .. b, warp a, warpgroup g or warpgroups a .. b (then "
			   "', leader' in a CTA-pair kernel)", s->name);
		ok = 0;
	} else if (s->list.n == 2 && !check_leader(S, s, r->next)) {
		ok = 0;
	} else {
		group = strcmp(r->name, "warpgroup") == 0 || strcmp(r->name, "warpgroups") == 0;
		if (!group && strcmp(r->name, "warp") != 0 && strcmp(r->name, "warps") != 0) {
			diag_error(r->loc, "expected warps, warp, warpgroup or warpgroups, found '%s'", r->name);
			ok = 0;
		} else if (r->hi && (strcmp(r->name, "warp") == 0 || strcmp(r->name, "warpgroup") == 0)) {
			diag_error(r->loc, "'%s' takes one number; write '%ss a .. b' for a range", r->name, r->name);
			ok = 0;
		} else if (!asy_const_in(S, r->lo, "the first warp of a role", 0, 1023, &lo) ||
			   (r->hi && !asy_const_in(S, r->hi, "the last warp of a role", 0, 1023, &hi))) {
			ok = 0;
		} else {
			if (!r->hi)
				hi = lo;
			s->wlo = (int)(group ? 4 * lo : lo);
			s->whi = (int)(group ? 4 * hi + 3 : hi);
		}
	}
	/* the warps' order, the CTA's size, overlap and the budget's value are the verifier's
	 * rules (ir/verify_async.c); here only names, and what the role op's operands need */
	for (i = 0; ok && i < h->nroles; i++) {
		Node *o = h->roles[i];

		if (strcmp(o->name, s->name) == 0) {
			diag_error(s->loc, "duplicate role '%s'", s->name);
			diag_note(o->loc, "the first role '%s' is here", o->name);
			ok = 0;
		}
	}
	for (a = s->attrs.head; a; a = a->next) {
		if (a != s->attrs.head || a->list.n != 1) {
			diag_error(a->loc, a == s->attrs.head ? "regs(...) takes one register count"
				   : "duplicate regs(...) on role '%s'", s->name);
			continue;
		}
		/* the role op's budget is an i32 where 0 means none */
		if (asy_const_in(S, a->list.head, "the register budget", 1, INT32_MAX, &v))
			s->regs = (int)v;
	}
	if (ok) {
		PUSH(h->roles, h->nroles, h->caproles, s);
	} else {
		s->wlo = 0;     /* reported: no further complaints about its warps */
		s->whi = -1;
	}
	/* each pipeline gets a hidden stage and phase, starting at (0, 0) in this role */
	s->hslot = S->nslots;
	s->ival = h->npipes;
	S->nslots += 2 * h->npipes;
	h->role = s;
	sema_check_block(S, s->body);
	asy_turn_role(S, s);
	h->role = saved_role;
}

static void
check_elect(Sema *S, Node *s)
{
	AsyncSema *h = S->asy;

	h->in_elect++;
	sema_check_block(S, s->body);
	h->in_elect--;
}

static void
check_async(Sema *S, Node *s)
{
	AsyncSema *h = S->asy;
	const char *what = s->kind == N_PRODUCE ? "produce" : "consume";
	Symbol *p = sema_lookup(S, s->lhs->name);

	s->lhs->sym = p;
	if (!p || p->kind != SYM_PIPELINE) {
		if (!p)
			diag_error(s->lhs->loc, "%s of an undeclared pipeline '%s'", what, s->lhs->name);
		else
			diag_error(s->lhs->loc, "%s takes a pipeline, but '%s' is %s", what, s->lhs->name,
				   asy_a_what(p));
		sema_check_block(S, s->body);
		return;
	}
	if (fe_is_error(p->type)) {
		sema_check_block(S, s->body);
		return;
	}
	/* the verifier has this rule too, but the block's hidden stage and phase live in its
	 * role's slots, so without a role there is no IR to build */
	if (!h->role) {
		diag_error(s->loc, "%s of pipeline '%s' outside any role: produce and consume blocks run in a role (role NAME(warps a .. b) { ... })",
			   what, p->name);
		sema_check_block(S, s->body);
		return;
	}
	if (h->nasync == FE_MAX_ASYNC) {
		diag_error(s->loc, "produce and consume blocks nest at most %d deep", FE_MAX_ASYNC);
		return;
	}
	s->sym = p;
	s->hslot = h->role->hslot + 2 * p->index;
	h->async[h->nasync++] = s;
	sema_check_block(S, s->body);
	h->nasync--;
}

int
asy_stmt(Sema *S, Node *s)
{
	AsyncSema *h = S->asy;

	if (!h)
		return 0;
	switch (s->kind) {
	case N_TENSORMAP: check_tensormap(S, s); return 1;
	case N_PIPELINE: check_pipeline(S, s); return 1;
	case N_MBARRIER: check_mbarrier(S, s); return 1;
	case N_TMEM: asy_tmem(S, s); return 1;
	case N_ROLE: check_role(S, s); return 1;
	case N_ELECT: check_elect(S, s); return 1;
	case N_PRODUCE: case N_CONSUME: check_async(S, s); return 1;
	default: return 0;
	}
}
