/* async_call.c: sema of the uses of shared arrays (a staged one inside a block of its
 * pipeline), remote(buf, rank)[i] and the async calls: tma_load, tma_store, the mbarrier
 * calls, wgmma and store. See async.c for the whole. */
#include "async.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- buffer uses ---- */

static Node *
async_of(AsyncSema *h, const Symbol *pipe)
{
	int i;

	for (i = h->nasync - 1; i >= 0; i--)
		if (h->async[i]->sym == pipe)
			return h->async[i];
	return NULL;
}

int
asy_buffer_use(Sema *S, Symbol *buf, SrcLoc loc)
{
	AsyncSema *h = S->asy;

	if (!h || fe_is_error(buf->type))
		return 1;
	if (buf->pipe && !async_of(h, buf->pipe)) {
		diag_error(loc, "shared array '%s' is staged in pipeline '%s': use it inside a produce or consume block of '%s', which selects the stage",
			   buf->name, buf->pipe->name, buf->pipe->name);
		return 0;
	}
	return 1;
}

/* A shared array named by argument a, or NULL after an error. */
static Symbol *
buffer_arg(Sema *S, Node *a, const char *call)
{
	Symbol *b = asy_name_of(S, a, SYM_SHARED, call, "a shared array");

	if (b && !asy_buffer_use(S, b, a->loc))
		return NULL;
	return b;
}

int
asy_remote_element(Sema *S, Node *e, int read, int write)
{
	AsyncSema *h = S->asy;
	Node *call = e->lhs, *args[2];
	Symbol *b;
	int n = asy_split_args(call, args, 2, NULL, NULL);

	call->builtin = BI_REMOTE;
	call->ty = fe_ty(TY_NONVALUE);
	fe_set_error(e);
	if (n < 0 || !asy_want_nargs(call, n, 2, 2, "a shared array and a CTA rank (remote(buf, rank)[i])"))
		return 0;
	if (!(b = asy_name_of(S, args[0], SYM_SHARED, "remote(...)", "a shared array first")))
		return 0;
	if (!asy_i32_value(S, args[1], "the CTA rank of remote(...)"))
		return 0;
	if (h && asy_cluster_size(h) == 1) {
		diag_error(call->loc, "remote(...) reaches another CTA's shared memory, but kernel '%s' has no cluster (cluster(1))",
			   h->kernel->name);
		return 0;
	}
	call->sym = b;
	if (!sema_element(S, e, b, read, write))
		return 0;
	e->indexkind = IDX_REMOTE;
	return 1;
}

/* ---- calls ---- */

/* The tensor map argument a. */
static Symbol *
tmap_arg(Sema *S, Node *a, const char *call)
{
	return asy_name_of(S, a, SYM_TMAP, call, "a tensor map");
}

/* coordinates [c0, ...]: one i32 per dimension of map. */
static int
coords_arg(Sema *S, Node *a, int rank, const char *call, const char *whose)
{
	Node *c;
	int ok = 1, i = 0;

	if (a->kind != N_LIST) {
		diag_error(a->loc, "%s takes the coordinates as a list, as in [row, col]", call);
		return 0;
	}
	if (a->list.n != rank) {
		diag_error(a->loc, "%s needs %d coordinate%s (%s), found %d", call, rank,
			   rank == 1 ? "" : "s", whose, a->list.n);
		ok = 0;
	}
	for (c = a->list.head; c; c = c->next, i++) {
		char what[64];

		snprintf(what, sizeof what, "coordinate %d of %s", i + 1, call);
		ok &= asy_i32_value(S, c, what);
	}
	a->ty = fe_ty(TY_NONVALUE);
	return ok;
}

/* A TMA copy between buffer b and the boxes of map: same type, bytes and swizzle. */
static int
tma_match(Node *e, Symbol *b, Symbol *map)
{
	if (b->type.base != map->tensor->type.base) {
		diag_error(e->loc, "%s: tensor map '%s' holds %s elements but shared array '%s' holds %s",
			   e->name, map->name, fe_tname(map->tensor->type), b->name, fe_tname(b->type));
		return 0;
	}
	if (asy_stage_bytes(b) != asy_box_bytes(map)) {
		diag_error(e->loc, "%s: the box of tensor map '%s' is %lld bytes but shared array '%s'%s is %lld bytes",
			   e->name, map->name, (long long)asy_box_bytes(map), b->name,
			   b->pipe ? " (one stage)" : "", (long long)asy_stage_bytes(b));
		return 0;
	}
	if (b->swizzle != map->swizzle) {
		diag_error(e->loc, "%s: tensor map '%s' has swizzle %d but shared array '%s' has swizzle %d",
			   e->name, map->name, map->swizzle, b->name, b->swizzle);
		return 0;
	}
	return 1;
}

static void
check_tma_load(Sema *S, Node *e)
{
	AsyncSema *h = S->asy;
	Node *args[4], *mc;
	Node *prod = h->nasync && h->async[h->nasync - 1]->kind == N_PRODUCE ? h->async[h->nasync - 1] : NULL;
	Symbol *b, *map, *bar = NULL;
	int n = asy_split_args(e, args, 4, "multicast", &mc), ok;

	if (n < 0 || !asy_want_nargs(e, n, 3, 4, "a shared array, a tensor map, [coordinates] and, outside produce blocks, an mbarrier"))
		return;
	b = buffer_arg(S, args[0], "tma_load");
	map = tmap_arg(S, args[1], "tma_load");
	ok = b && map;
	if (map)
		ok &= coords_arg(S, args[2], map->rank, "tma_load", "the tensor map's rank");
	if (n == 4 && !(bar = asy_name_of(S, args[3], SYM_MBARRIER, "tma_load", "an mbarrier last")))
		ok = 0;
	if (mc) {
		ok &= asy_i32_value(S, mc->lhs, "the multicast mask");
		if (asy_cluster_size(h) == 1) {
			diag_error(mc->loc, "multicast sends the box to the CTAs of a cluster, but kernel '%s' has no cluster (cluster(1))",
				   h->kernel->name);
			ok = 0;
		}
	}
	if (!ok)
		return;
	if (prod && bar) {
		diag_error(args[3]->loc, "inside a produce block, tma_load signals the pipeline's full barrier: remove the barrier argument");
		return;
	}
	if (!prod && !bar) {
		diag_error(e->loc, "tma_load outside a produce block needs an mbarrier to signal: tma_load(buf, map, [coords], bar)");
		return;
	}
	if (prod && b->pipe != prod->sym) {
		diag_error(args[0]->loc, "tma_load in a produce block of pipeline '%s' loads into '%s', which is not a buffer of '%s' (declare it 'in %s')",
			   prod->sym->name, b->name, prod->sym->name, prod->sym->name);
		return;
	}
	if (prod && prod->sym->src[0] != PIPE_SRC_TMA) {
		diag_error(e->loc, "tma_load in a produce block of pipeline '%s', whose full source is %s: TMA bytes complete only a 'full: tma' barrier",
			   prod->sym->name, ir_pipe_source_name(prod->sym->src[0]));
		return;
	}
	if (map->tensor->access == ACC_OUT) {
		diag_error(args[1]->loc, "tma_load reads tensor '%s' through '%s', but it is an 'out' tensor",
			   map->tensor->name, map->name);
		return;
	}
	tma_match(e, b, map);
}

static void
check_tma_store(Sema *S, Node *e)
{
	Node *args[3];
	Symbol *b, *map;
	int n = asy_split_args(e, args, 3, NULL, NULL), ok;

	if (n < 0 || !asy_want_nargs(e, n, 3, 3, "a tensor map, [coordinates] and a shared array"))
		return;
	map = tmap_arg(S, args[0], "tma_store");
	b = buffer_arg(S, args[2], "tma_store");
	ok = b && map;
	if (map)
		ok &= coords_arg(S, args[1], map->rank, "tma_store", "the tensor map's rank");
	if (!ok)
		return;
	if (map->tensor->access == ACC_IN) {
		diag_error(args[0]->loc, "tma_store writes tensor '%s' through '%s', but it is an 'in' tensor",
			   map->tensor->name, map->name);
		return;
	}
	tma_match(e, b, map);
}

/* The barrier calls: mbar_arrive(b), mbar_expect_tx(b, bytes), mbar_wait(b, parity). */
static void
check_mbar_call(Sema *S, Node *e)
{
	Node *args[2];
	int n = asy_split_args(e, args, 2, NULL, NULL), want = e->builtin == BI_MBAR_ARRIVE ? 1 : 2;

	if (n < 0 || !asy_want_nargs(e, n, want, want, e->builtin == BI_MBAR_ARRIVE ? "an mbarrier"
				 : e->builtin == BI_MBAR_WAIT ? "an mbarrier and a parity (0 or 1)"
				 : "an mbarrier and a byte count"))
		return;
	if (!asy_name_of(S, args[0], SYM_MBARRIER, e->name, "an mbarrier first"))
		return;
	if (want == 2 && !asy_i32_value(S, args[1], e->builtin == BI_MBAR_WAIT ? "the parity" : "the byte count"))
		return;
	if (e->builtin == BI_MBAR_WAIT) {
		if (args[1]->isconst && args[1]->cv.i != 0 && args[1]->cv.i != 1)
			diag_error(args[1]->loc, "the parity of mbar_wait is 0 or 1, found %lld", (long long)args[1]->cv.i);
		return;
	}
	if (e->builtin == BI_MBAR_EXPECT_TX && args[1]->isconst && (args[1]->cv.i < 0 || args[1]->cv.i > MBAR_MAX))
		diag_error(args[1]->loc, "mbar_expect_tx announces 0 to %d bytes, found %lld", MBAR_MAX,
			   (long long)args[1]->cv.i);
}

/* wgmma and the fragment store run in whole warpgroups. */
static int
whole_warpgroups(Sema *S, Node *e)
{
	AsyncSema *h = S->asy;
	Node *r = h->role;

	if (h->in_elect) {
		diag_error(e->loc, "%s inside an elect block: it needs all 128 threads of the warpgroup", e->name);
		return 0;
	}
	if (r && (r->wlo % 4 || (r->whi - r->wlo + 1) % 4)) {
		diag_error(e->loc, "%s in role '%s' of warps %d .. %d, which is not whole warpgroups (a role that issues wgmma starts at a multiple of 4 warps and spans a multiple of 4)",
			   e->name, r->name, r->wlo, r->whi);
		return 0;
	}
	if (!r && h->threads % 128) {
		diag_error(e->loc, "%s outside any role needs whole warpgroups, but the CTA has %d threads",
			   e->name, h->threads);
		return 0;
	}
	return 1;
}

/* An accumulator fragment value; its N (columns), or 0 after an error. */
static int
frag_arg(Sema *S, Node *e, Node *a)
{
	if (!sema_value(S, a))
		return 0;
	if (ir_is_frag(a->ty))
		return a->ty.lanes * 2;
	diag_error(a->loc, "%s takes an accumulator fragment (f32acc[64, N]) here, found %s", e->name,
		   fe_tname(a->ty));
	return 0;
}

/* A wgmma operand: K-major (K = the inner dimension), swizzled, bf16 or f16. */
static int
wgmma_operand(Node *e, Node *a, Symbol *b, const char *which)
{
	int64_t k = b->rank == 2 ? b->dims[1] : 0, span;

	if (b->rank != 2) {
		diag_error(a->loc, "wgmma operand %s '%s' must have 2 dimensions (rows, K), found %d", which,
			   b->name, b->rank);
		return 0;
	}
	if (b->type.base != IR_BF16 && b->type.base != IR_F16) {
		diag_error(a->loc, "wgmma operand %s '%s' holds %s; wgmma takes bf16 or f16", which, b->name,
			   fe_tname(b->type));
		return 0;
	}
	if (!b->swizzle) {
		diag_error(a->loc, "wgmma operand %s '%s' is not swizzled: declare it swizzle(32), swizzle(64) or swizzle(128)",
			   which, b->name);
		return 0;
	}
	if (k % 16) {
		diag_error(a->loc, "wgmma operand %s '%s' has K = %lld, expected a multiple of 16 (one k16 step each)",
			   which, b->name, (long long)k);
		return 0;
	}
	span = k * asy_elem_bytes(b->type);
	if (span != b->swizzle) {
		diag_error(a->loc, "wgmma operand %s '%s' has rows of %lld bytes (K = %lld), but its swizzle(%d) needs rows of %d bytes",
			   which, b->name, (long long)span, (long long)k, b->swizzle, b->swizzle);
		return 0;
	}
	(void)e;
	return 1;
}

static void
check_wgmma(Sema *S, Node *e)
{
	AsyncSema *h = S->asy;
	Node *args[3], *a;
	Symbol *ba, *bb;
	unsigned missing = h->ki->targets & ~ir_op_targets(IR_WGMMA);
	int n = asy_split_args(e, args, 3, NULL, NULL), cols, t;
	int64_t rows, start;

	if (missing) {
		for (t = 0; t < TARGET_COUNT && !(missing & (1u << t)); t++)
			;
		diag_error(e->loc, "wgmma needs sm_90a; kernel '%s' also targets %s", h->kernel->name,
			   ir_target_name(t));
		return;
	}
	if (n < 0 || !asy_want_nargs(e, n, 3, 3, "an accumulator, operand A and operand B: acc = wgmma(acc, a, b)"))
		return;
	if (!(cols = frag_arg(S, e, args[0])))
		return;
	a = args[1];
	if (a->kind == N_CALL && a->lhs && strcmp(a->name, "rows") == 0) {
		Node *ra[2];
		int m = asy_split_args(a, ra, 2, NULL, NULL);

		a->builtin = BI_ROWS;
		a->ty = fe_ty(TY_NONVALUE);
		if (m < 0 || !asy_want_nargs(a, m, 2, 2, "a first row and a count: buf.rows(start, 64)"))
			return;
		if (!(ba = buffer_arg(S, a->lhs, "wgmma")))
			return;
		a->sym = ba;
		if (!asy_i32_value(S, ra[0], "the first row of rows(...)") ||
		    !sema_const_int(S, ra[1], "the row count of rows(...)", &rows))
			return;
		if (rows != 64) {
			diag_error(ra[1]->loc, "wgmma operand A has 64 rows (m64), found rows(..., %lld)", (long long)rows);
			return;
		}
		if (ra[0]->isconst && ((start = ra[0]->cv.i) % 8 || start < 0 || start + 64 > ba->dims[0])) {
			diag_error(ra[0]->loc, "rows(%lld, 64) of '%s': the first row must be a multiple of 8 (a swizzle atom) and the rows inside its %lld",
				   (long long)start, ba->name, (long long)ba->dims[0]);
			return;
		}
	} else {
		if (!(ba = buffer_arg(S, a, "wgmma")))
			return;
		if (ba->rank == 2 && ba->dims[0] != 64) {
			diag_error(a->loc, "wgmma operand A '%s' has %lld rows; it takes 64 (m64): pass %s.rows(start, 64)",
				   ba->name, (long long)ba->dims[0], ba->name);
			return;
		}
	}
	if (args[2]->kind == N_CALL && args[2]->lhs) {
		diag_error(args[2]->loc, "wgmma operand B is a whole shared array of N rows; only operand A takes buf.rows(start, 64)");
		return;
	}
	if (!(bb = buffer_arg(S, args[2], "wgmma")))
		return;
	if (!wgmma_operand(e, a->lhs && a->kind == N_CALL ? a->lhs : a, ba, "A") ||
	    !wgmma_operand(e, args[2], bb, "B"))
		return;
	if (ba->type.base != bb->type.base) {
		diag_error(e->loc, "wgmma operands must have one type: A '%s' is %s but B '%s' is %s", ba->name,
			   fe_tname(ba->type), bb->name, fe_tname(bb->type));
		return;
	}
	if (ba->dims[1] != bb->dims[1]) {
		diag_error(e->loc, "wgmma operands must share K: A '%s' has K = %lld but B '%s' has K = %lld",
			   ba->name, (long long)ba->dims[1], bb->name, (long long)bb->dims[1]);
		return;
	}
	if (bb->dims[0] != cols) {
		diag_error(args[2]->loc, "wgmma operand B '%s' has %lld rows but the accumulator has N = %d columns",
			   bb->name, (long long)bb->dims[0], cols);
		return;
	}
	if (!whole_warpgroups(S, e))
		return;
	e->ty = args[0]->ty;
}

/* store(tensor, acc, [row0, col0]): the fragment's elements at their (row, col). */
static void
check_store(Sema *S, Node *e)
{
	Node *args[3];
	Symbol *t;
	int n = asy_split_args(e, args, 3, NULL, NULL);

	if (n < 0 || !asy_want_nargs(e, n, 3, 3, "a tensor, an accumulator and [row, col]: store(c, acc, [r, c])"))
		return;
	if (!(t = asy_name_of(S, args[0], SYM_TENSOR, "store", "a tensor first")))
		return;
	if (!frag_arg(S, e, args[1]))
		return;
	if (t->rank != 2) {
		diag_error(args[0]->loc, "store writes a 2-dimensional tensor, but '%s' has %d dimension%s",
			   t->name, t->rank, t->rank == 1 ? "" : "s");
		return;
	}
	if (t->access == ACC_IN) {
		diag_error(args[0]->loc, "cannot write to '%s': it is an 'in' tensor (declare it 'out' or 'inout')",
			   t->name);
		return;
	}
	if (t->type.base != IR_F32 && t->type.base != IR_BF16 && t->type.base != IR_F16) {
		diag_error(args[0]->loc, "store converts the accumulator to f32, bf16 or f16, but '%s' holds %s",
			   t->name, fe_tname(t->type));
		return;
	}
	if (!coords_arg(S, args[2], 2, "store", "a row and a column"))
		return;
	whole_warpgroups(S, e);
}

int
asy_call(Sema *S, Node *e)
{
	AsyncSema *h = S->asy;
	Node *args[1];

	e->ty = ir_scalar(IR_VOID);
	if (e->lhs) {
		if (strcmp(e->name, "rows") == 0)
			diag_error(e->loc, "'.rows(start, 64)' selects rows of a shared array as operand A of wgmma; it is not a value");
		else
			diag_error(e->loc, "unknown method '.%s(...)' (only wgmma's operand A takes buf.rows(start, 64))",
				   e->name);
		fe_set_error(e);
		return 1;
	}
	if (!h) {
		diag_error(e->loc, "'%s' is only available in a kernel body", e->name);
		fe_set_error(e);
		return 1;
	}
	switch (e->builtin) {
	case BI_TMA:
		diag_error(e->loc, "tma(...) makes a tensor map: tensormap NAME = tma(TENSOR, box[...], swizzle(N));");
		fe_set_error(e);
		return 1;
	case BI_REMOTE:
		diag_error(e->loc, "remote(buf, rank) must be indexed, as in remote(buf, rank)[i]");
		fe_set_error(e);
		return 1;
	case BI_TMA_LOAD: check_tma_load(S, e); break;
	case BI_TMA_STORE: check_tma_store(S, e); break;
	case BI_MBAR_ARRIVE: case BI_MBAR_EXPECT_TX: case BI_MBAR_WAIT: check_mbar_call(S, e); break;
	case BI_WGMMA: check_wgmma(S, e); break;
	case BI_STORE: check_store(S, e); break;
	case BI_TMA_STORE_WAIT: case BI_FENCE_PROXY_ASYNC: case BI_CLUSTER_SYNC:
		if (asy_split_args(e, args, 1, NULL, NULL) != 0)
			diag_error(e->loc, "'%s' takes no arguments, found %d", e->name, e->list.n);
		if (e->builtin == BI_CLUSTER_SYNC && asy_cluster_size(h) == 1)
			diag_error(e->loc, "cluster_sync() synchronizes the CTAs of a cluster, but kernel '%s' has no cluster (cluster(1)); use barrier()",
				   h->kernel->name);
		break;
	default:
		return 0;
	}
	if (e->builtin == BI_WGMMA && !ir_is_frag(e->ty))
		fe_set_error(e);
	return 1;
}
