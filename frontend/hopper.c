/* hopper.c: sema of the Hopper constructs (docs/language.md, "Hopper"; the design is
 * hopper.md): the kernel clauses min_blocks and cluster, tensor maps, pipelines, raw
 * mbarriers, staged/swizzled/aliased shared buffers, roles, elect, produce and consume,
 * and the calls tma_load, tma_store, mbar_*, remote, wgmma and store. This file holds
 * the helpers, which threads reach a statement, raw expect-tx and the whole-kernel checks;
 * hopper_decl.c the declarations and blocks; hopper_call.c the buffer uses and calls.
 *
 * Besides types, it checks what the frontend can see of the schedule rules (hopper.md
 * section 3): role warp ranges (disjoint, inside the CTA, whole warpgroups where wgmma
 * runs), register budgets, TMA boxes, tma_load destinations and issue by one thread,
 * expect-tx bytes of raw barriers, wgmma operands, pipeline arrival counts, buffers
 * sharing storage across roles, cluster sizes and target gating. Arrival counts and
 * single-thread issue need to know which threads reach a statement: a small abstract
 * domain (a range of warps, threads per warp) follows roles, elect and conditions on
 * warp, warpgroup, lane and thread.x; any other condition that differs between threads
 * makes it unknown, and the checks that need it are left to the schedule-check pass. */
#include "hopper.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "a pipeline", "an mbarrier": the kind of s with its article, for messages. */
const char *
hop_a_what(const Symbol *s)
{
	static char buf[4][48];
	static int next;
	const char *w = sema_sym_what(s);
	char *b = buf[next++ & 3];

	snprintf(b, 48, "%s %s", strchr("aeiou", w[0]) || w[0] == 'm' ? "an" : "a", w);
	return b;
}

/* "role 'p'", or the code outside every role; a few rotating buffers. */
const char *
hop_role_desc(const Node *role)
{
	static char buf[2][96];
	static int next;
	char *b = buf[next++ & 1];

	if (!role)
		return "code outside every role";
	snprintf(b, 96, "role '%s'", role->name);
	return b;
}

/* ---- small helpers ---- */

int
hop_top_level(Sema *S, Node *s, const char *what)
{
	if (S->depth == 1)
		return 1;
	diag_error(s->loc, "%s are declared at the top level of the kernel body", what);
	return 0;
}

/* A compile-time integer in [lo, hi]; `what` names it. */
int
hop_const_in(Sema *S, Node *e, const char *what, int64_t lo, int64_t hi, int64_t *v)
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
hop_i32_value(Sema *S, Node *e, const char *what)
{
	return sema_value(S, e) && fe_convert(e, ir_scalar(IR_I32), what);
}

/* The symbol a name argument names if it is of kind `kind`; reports otherwise. */
Symbol *
hop_name_of(Sema *S, Node *a, SymKind kind, const char *call, const char *what)
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
		diag_error(a->loc, "%s takes %s, but '%s' is %s", call, what, a->name, hop_a_what(s));
		return NULL;
	}
	if (fe_is_error(s->type))
		return NULL;
	return s;
}

int64_t
hop_elem_bytes(IrType t)
{
	return ir_type_bytes(ir_scalar((IrBase)t.base));
}

/* Bytes of one stage of a shared buffer. */
int64_t
hop_stage_bytes(const Symbol *b)
{
	int64_t n = hop_elem_bytes(b->type);
	int i;

	for (i = 0; i < b->rank; i++)
		n *= b->dims[i];
	return n;
}

int64_t
hop_box_bytes(const Symbol *map)
{
	int64_t n = hop_elem_bytes(map->tensor->type);
	int i;

	for (i = 0; i < map->rank; i++)
		n *= map->dims[i];
	return n;
}

/* Splits a call's arguments into positional ones (at most max) and named ones. Returns
 * the number of positional ones, or -1 after reporting a named one that is not allowed. */
int
hop_split_args(Node *e, Node **pos, int max, const char *named_ok, Node **named)
{
	Node *a;
	int n = 0;

	if (named)
		*named = NULL;
	for (a = e->list.head; a; a = a->next) {
		if (a->kind == N_NAMED) {
			if (!named_ok || strcmp(a->name, named_ok) != 0 || a->next) {
				if (named_ok)
					diag_error(a->loc, "'%s' takes the named argument '%s:' last, found '%s:'",
						   e->name, named_ok, a->name);
				else
					diag_error(a->loc, "'%s' takes no named arguments, found '%s:'", e->name, a->name);
				return -1;
			}
			*named = a;
			continue;
		}
		if (n < max)
			pos[n] = a;
		n++;
	}
	return n;
}

int
hop_want_nargs(Node *e, int n, int lo, int hi, const char *form)
{
	if (n >= lo && n <= hi)
		return 1;
	diag_error(e->loc, "'%s' takes %s, found %d argument%s", e->name, form, n, n == 1 ? "" : "s");
	return 0;
}

/* ---- which threads reach a statement ---- */

static int
reach_warps(Reach r)
{
	if (r.lo < 0)
		return -1;
	return r.hi >= r.lo ? r.hi - r.lo + 1 : 0;
}

int
hop_reach_threads(Reach r)
{
	int w = reach_warps(r);

	if (w < 0 || r.tpw < 0)
		return -1;
	return w * r.tpw;
}

int
hop_varies(Sema *S, Node *e)
{
	Node *c;

	if (!e)
		return 0;
	switch (e->kind) {
	case N_INT: case N_FLOAT: case N_BOOL:
		return 0;
	case N_NAME:
		if (!e->sym)
			return 0;
		switch (e->sym->kind) {
		case SYM_BUILTIN:
			return e->sym->builtin == BI_LANE || e->sym->builtin == BI_WARP ||
			       e->sym->builtin == BI_WARPGROUP;
		case SYM_LET: case SYM_VAR: case SYM_ITER:
			return e->sym->varies;
		default:
			return 0;
		}
	case N_MEMBER:
		return e->builtin == BI_THREAD || (!e->builtin && hop_varies(S, e->lhs));
	case N_CALL:
		if ((e->builtin >= BI_SHFL_XOR && e->builtin <= BI_ATOMIC_CAS) || e->builtin == BI_WGMMA)
			return 1;
		if (hop_varies(S, e->lhs))
			return 1;
		for (c = e->list.head; c; c = c->next)
			if (hop_varies(S, c))
				return 1;
		return 0;
	case N_INDEX: case N_LIST:
		if (hop_varies(S, e->lhs) || hop_varies(S, e->width))
			return 1;
		for (c = e->list.head; c; c = c->next)
			if (hop_varies(S, c))
				return 1;
		return 0;
	default:
		return hop_varies(S, e->lhs) || hop_varies(S, e->rhs) || hop_varies(S, e->cond);
	}
}

static int
negate_cmp(int op)
{
	switch (op) {
	case OP_EQ: return OP_NE;
	case OP_NE: return OP_EQ;
	case OP_LT: return OP_GE;
	case OP_LE: return OP_GT;
	case OP_GT: return OP_LE;
	default: return OP_LT;
	}
}

static int
swap_cmp(int op)
{
	switch (op) {
	case OP_LT: return OP_GT;
	case OP_LE: return OP_GE;
	case OP_GT: return OP_LT;
	case OP_GE: return OP_LE;
	default: return op;
	}
}

/* Restricts the integer range [*lo, *hi] to the x with `x op c`; 0 if the result is not
 * one range (x != c in the middle). */
static int
clip(int *lo, int *hi, int op, int64_t c)
{
	int64_t a = *lo, b = *hi;

	switch (op) {
	case OP_EQ: if (c > a) a = c; if (c < b) b = c; break;
	case OP_LT: if (c - 1 < b) b = c - 1; break;
	case OP_LE: if (c < b) b = c; break;
	case OP_GT: if (c + 1 > a) a = c + 1; break;
	case OP_GE: if (c > a) a = c; break;
	default:
		if (c == a)
			a++;
		else if (c == b)
			b--;
		else if (c > a && c < b)
			return 0;
		break;
	}
	if (b < a) {
		a = 0;
		b = -1;
	}
	*lo = (int)a;
	*hi = (int)b;
	return 1;
}

/* Narrows r by the condition c being `truth`. */
static void
narrow(Sema *S, Reach *r, Node *c, int truth)
{
	HopSema *h = S->hop;
	Node *var, *k;
	int op, b;

	if (!c || fe_is_error(c->ty) || !hop_varies(S, c))
		return;   /* every thread takes the same branch */
	if (c->kind == N_BINARY && c->op == OP_LAND && truth) {
		narrow(S, r, c->lhs, 1);
		narrow(S, r, c->rhs, 1);
		return;
	}
	if (c->kind == N_BINARY && c->op == OP_LOR && !truth) {
		narrow(S, r, c->lhs, 0);
		narrow(S, r, c->rhs, 0);
		return;
	}
	if (c->kind != N_BINARY || !fe_is_compare(c->op))
		goto unknown;
	op = c->op;
	if (c->rhs->isconst && !c->lhs->isconst) {
		var = c->lhs;
		k = c->rhs;
	} else if (c->lhs->isconst && !c->rhs->isconst) {
		var = c->rhs;
		k = c->lhs;
		op = swap_cmp(op);
	} else {
		goto unknown;
	}
	if (!truth)
		op = negate_cmp(op);
	if (!fe_intnum(k->ty))
		goto unknown;
	b = var->kind == N_NAME && var->sym && var->sym->kind == SYM_BUILTIN ? var->sym->builtin :
	    var->kind == N_MEMBER ? (var->builtin == BI_THREAD && var->lane == 0 ? BI_THREAD : 0) : 0;
	switch (b) {
	case BI_WARP:
		if (r->lo >= 0 && !clip(&r->lo, &r->hi, op, k->cv.i))
			r->lo = -1;
		return;
	case BI_WARPGROUP: {
		/* warpgroup g is warps 4g .. 4g+3 */
		int lo = r->lo, hi = r->hi;
		int64_t g = k->cv.i;

		if (lo < 0)
			return;
		switch (op) {
		case OP_EQ: clip(&lo, &hi, OP_GE, 4 * g); clip(&lo, &hi, OP_LE, 4 * g + 3); break;
		case OP_LT: clip(&lo, &hi, OP_LT, 4 * g); break;
		case OP_LE: clip(&lo, &hi, OP_LE, 4 * g + 3); break;
		case OP_GT: clip(&lo, &hi, OP_GT, 4 * g + 3); break;
		case OP_GE: clip(&lo, &hi, OP_GE, 4 * g); break;
		default:
			if (hi < 4 * g || lo > 4 * g + 3)
				break;
			if (lo >= 4 * g)
				clip(&lo, &hi, OP_GT, 4 * g + 3);
			else if (hi <= 4 * g + 3)
				clip(&lo, &hi, OP_LT, 4 * g);
			else
				lo = -1;
			break;
		}
		r->lo = lo;
		r->hi = hi;
		return;
	}
	case BI_LANE: {
		int lo = 0, hi = 31;

		if (r->tpw != 32 || !clip(&lo, &hi, op, k->cv.i))
			r->tpw = -1;
		else
			r->tpw = hi >= lo ? hi - lo + 1 : 0;
		return;
	}
	case BI_THREAD:
		/* thread.x == c in a one-dimensional block: one thread of warp c / 32 */
		if (op == OP_EQ && h->ki->threads[1] == 1 && h->ki->threads[2] == 1 && r->lo >= 0 &&
		    r->tpw == 32) {
			clip(&r->lo, &r->hi, OP_EQ, k->cv.i / 32);
			r->tpw = 1;
			return;
		}
		break;
	default:
		break;
	}
unknown:
	r->lo = -1;
	r->tpw = -1;
}

void
hop_if_begin(Sema *S, Node *s, int branch, void **saved)
{
	HopSema *h = S->hop;
	Reach *old;

	*saved = NULL;
	if (!h)
		return;
	old = xmalloc(sizeof *old);
	*old = h->reach;
	*saved = old;
	if (s->kind == N_IF)
		narrow(S, &h->reach, s->cond, !branch);
	else if (s->kind == N_WHILE ? hop_varies(S, s->cond)
		 : hop_varies(S, s->lo) || hop_varies(S, s->hi) || hop_varies(S, s->step))
		/* threads that iterate differently arrive different numbers of times */
		h->reach.lo = h->reach.tpw = -1;
}

void
hop_if_end(Sema *S, void *saved)
{
	if (S->hop && saved)
		S->hop->reach = *(Reach *)saved;
	free(saved);
}

/* ---- blocks and raw expect-tx ---- */

void
hop_block_enter(Sema *S)
{
	if (S->hop)
		S->hop->depth++;
}

void
hop_finish_expect(Expect *x)
{
	char bar[96];

	if (x->done)
		return;
	x->done = 1;
	if (x->unsure || x->nloads == 0 || x->got == x->bytes)
		return;
	snprintf(bar, sizeof bar, "%s", x->bar->name);
	diag_error(x->call->loc, "mbar_expect_tx(%s, %lld) announces %lld bytes, but the %d tma_load%s on '%s' after it bring %lld",
		   bar, (long long)x->bytes, (long long)x->bytes, x->nloads, x->nloads == 1 ? "" : "s", bar,
		   (long long)x->got);
}

void
hop_block_leave(Sema *S)
{
	HopSema *h = S->hop;
	int i;

	if (!h)
		return;
	for (i = 0; i < h->nexpects; i++)
		if (h->expects[i].depth == h->depth)
			hop_finish_expect(&h->expects[i]);
	h->depth--;
}

/* The latest unfinished expect-tx on bar. */
Expect *
hop_pending_expect(HopSema *h, Symbol *bar)
{
	int i;

	for (i = h->nexpects - 1; i >= 0; i--)
		if (h->expects[i].bar == bar && !h->expects[i].done)
			return &h->expects[i];
	return NULL;
}

/* ---- kernels and clauses ---- */

void
hop_kernel_begin(Sema *S, Node *k, KernelInfo *ki)
{
	HopSema *h = xcalloc(1, sizeof *h);

	h->ki = ki;
	h->kernel = k;
	h->threads = ki->threads[0] * ki->threads[1] * ki->threads[2];
	h->nwarps = (h->threads + 31) / 32;
	h->reach.lo = 0;
	h->reach.hi = h->nwarps - 1;
	h->reach.tpw = h->threads < 32 ? h->threads : 32;
	S->hop = h;
}

int
hop_clause(Sema *S, Node *n, KernelInfo *ki)
{
	int64_t v, total = 1;
	Node *a;
	int i = 0;

	if (n->kind == N_MIN_BLOCKS) {
		if (n->list.n != 1) {
			diag_error(n->loc, "min_blocks(...) takes one count, found %d", n->list.n);
			return 1;
		}
		if (hop_const_in(S, n->list.head, "min_blocks", 1, 32, &v))
			ki->min_blocks = (int)v;
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
		if (!hop_const_in(S, a, what, 1, MAX_CLUSTER, &v))
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
hop_cluster_size(const HopSema *h)
{
	return h->ki->cluster[0] * h->ki->cluster[1] * h->ki->cluster[2];
}

/* Arrival counts: the threads that run a pipeline's produce (consume) blocks must be as
 * many as its full (empty) barrier counts per phase. */
static void
check_arrivals(HopSema *h)
{
	static const char *const side_name[2] = {"full", "empty"};
	static const char *const block_name[2] = {"produce", "consume"};
	int i, j, r, side;

	for (i = 0; i < h->nhobjs; i++) {
		Symbol *p = h->hobjs[i];

		if (p->kind != SYM_PIPELINE || fe_is_error(p->type))
			continue;
		for (side = 0; side < 2; side++) {
			int want = ir_pipe_source_count(p->src[side], p->mult[side]);
			int total = 0, unknown = 0, any = 0;

			for (r = 0; r < h->nroles && !unknown; r++) {
				int most = 0;

				for (j = 0; j < h->nsites; j++) {
					Site *st = &h->sites[j];

					if (st->pipe != p || st->side != side || st->role != h->roles[r])
						continue;
					any = 1;
					if (st->arrivals < 0)
						unknown = 1;
					else if (st->arrivals > most)
						most = st->arrivals;
				}
				total += most;
			}
			if (!any || unknown || total == want)
				continue;
			diag_error(p->loc, "pipeline '%s': its %s barrier expects %d arrival%s per phase (%s * %d), but its %s blocks are run by %d thread%s",
				   p->name, side_name[side], want, want == 1 ? "" : "s",
				   ir_pipe_source_name(p->src[side]), p->mult[side], block_name[side], total,
				   total == 1 ? "" : "s");
			for (r = 0; r < h->nroles; r++) {
				Site *most = NULL;

				for (j = 0; j < h->nsites; j++) {
					Site *st = &h->sites[j];

					if (st->pipe == p && st->side == side && st->role == h->roles[r] &&
					    (!most || st->arrivals > most->arrivals))
						most = st;
				}
				if (most)
					diag_note(most->node->loc, "in role '%s' (warps %d .. %d), %d thread%s run%s this %s block",
						  h->roles[r]->name, h->roles[r]->wlo, h->roles[r]->whi,
						  most->arrivals, most->arrivals == 1 ? "" : "s",
						  most->arrivals == 1 ? "s" : "", block_name[side]);
			}
		}
	}
}

/* The register budget: setmaxnreg budgets (and the entry budget of warps in no role with
 * one) must fit the register file for min_blocks CTAs. */
static void
check_registers(HopSema *h)
{
	Node *first = NULL;
	int64_t sum = 0, entry, budget;
	int covered = 0, i;
	Buf detail = {0};

	for (i = 0; i < h->nroles; i++)
		if (h->roles[i]->regs && !first)
			first = h->roles[i];
	if (!first)
		return;
	if (h->ki->min_blocks == 0) {
		diag_error(first->loc, "role '%s' sets regs(%d), but kernel '%s' has no min_blocks(...) clause: setmaxnreg needs the register count at entry that min_blocks(1) fixes",
			   first->name, first->regs, h->kernel->name);
		return;
	}
	budget = REGFILE / h->ki->min_blocks;
	entry = REGFILE / ((int64_t)h->threads * h->ki->min_blocks);
	if (entry > 255)
		entry = 255;
	entry &= ~7;
	for (i = 0; i < h->nroles; i++) {
		Node *r = h->roles[i];
		int n = r->whi - r->wlo + 1;
		int64_t regs = r->regs ? r->regs : entry;

		covered += n;
		sum += regs * 32 * n;
		buf_printf(&detail, "%srole '%s' %lld x %d threads", detail.len ? ", " : "", r->name,
			   (long long)regs, 32 * n);
	}
	if (covered < h->nwarps) {
		sum += entry * 32 * (h->nwarps - covered);
		buf_printf(&detail, ", other warps %lld x %d threads", (long long)entry,
			   32 * (h->nwarps - covered));
	}
	if (sum > budget)
		diag_error(first->loc, "the register budgets of kernel '%s' add up to %lld registers (%s), but %lld fit (%d / min_blocks(%d))",
			   h->kernel->name, (long long)sum, detail.s, (long long)budget, REGFILE,
			   h->ki->min_blocks);
	buf_free(&detail);
}

void
hop_kernel_end(Sema *S, Node *k, KernelInfo *ki)
{
	HopSema *h = S->hop;
	int i;

	(void)k;
	if (!h)
		return;
	for (i = 0; i < h->nexpects; i++)
		hop_finish_expect(&h->expects[i]);
	check_registers(h);
	check_arrivals(h);
	ki->ntmaps = h->ntmaps;
	ki->tmaps = arena_alloc(S->p->arena, sizeof(Symbol *) * (size_t)(h->ntmaps + 1));
	if (h->ntmaps)
		memcpy(ki->tmaps, h->tmaps, sizeof(Symbol *) * (size_t)h->ntmaps);
	ki->nhobjs = h->nhobjs;
	ki->hobjs = arena_alloc(S->p->arena, sizeof(Symbol *) * (size_t)(h->nhobjs + 1));
	if (h->nhobjs)
		memcpy(ki->hobjs, h->hobjs, sizeof(Symbol *) * (size_t)h->nhobjs);
	free(h->hobjs);
	free(h->tmaps);
	free(h->roles);
	free(h->sites);
	free(h->expects);
	free(h->uses);
	free(h);
	S->hop = NULL;
}
