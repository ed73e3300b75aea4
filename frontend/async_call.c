/* async_call.c: sema of the uses of shared arrays (a staged one inside a block of its
 * pipeline), remote(buf, rank)[i] and the async calls: tma_load, tma_store and the
 * mbarrier calls (wgmma and store are mma_wgmma.c's). See async.c for the whole. */
#include "async.h"

#include <stdio.h>
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
Symbol *
asy_buffer_arg(Sema *S, Node *a, const char *call)
{
	Symbol *b = asy_name_of(S, a, SYM_SHARED, call, "a shared array");

	if (b && !asy_buffer_use(S, b, a->loc))
		return NULL;
	return b;
}

int
asy_remote_element(Sema *S, Node *e, int read, int write)
{
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
	/* that the kernel has a cluster and the rank names one of its CTAs is the verifier's rule */
	if (!asy_i32_value(S, args[1], "the CTA rank of remote(...)"))
		return 0;
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
int
asy_coords_arg(Sema *S, Node *a, int rank, const char *call, const char *whose)
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
tma_match(Node *e, Symbol *b, Symbol *map, int parts)
{
	if (b->type.base != map->tensor->type.base) {
		diag_error(e->loc, "%s: tensor map '%s' holds %s elements but shared array '%s' holds %s",
			   e->name, map->name, fe_tname(map->tensor->type), b->name, fe_tname(b->type));
		return 0;
	}
	if (!parts && asy_stage_bytes(b) != asy_box_bytes(map)) {
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

/* "[d0, d1, ...]" into buf. */
static const char *
dims_str(char *buf, size_t size, const int64_t *d, int rank)
{
	size_t len = (size_t)snprintf(buf, size, "[");
	int i;

	for (i = 0; i < rank && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%lld", i ? ", " : "", (long long)d[i]);
	if (len < size)
		snprintf(buf + len, size - len, "]");
	return buf;
}

/* tma_load(..., part: P): the stage of b is boxes of map stacked along the first dimension
 * (the box's other dimensions are b's; leading box dimensions of 1 beyond b's rank, as a
 * tile of one head of a [B, H, S, D] tensor has, do not count, nor do dimensions of 1
 * elsewhere where b's shape needs them dropped) and P picks one; each part
 * starts on the TMA's alignment, 128 bytes, or a whole swizzle atom (8 rows of the span)
 * when swizzled, so the swizzle pattern stays the buffer's. A constant P is below the
 * number of parts. */
static int64_t
part_rows(const Symbol *b, const int64_t *md, int mr)
{
	int i, off = mr - b->rank, same = off >= 0;

	for (i = 0; same && i < off; i++)
		same = md[i] == 1;
	same = same && md[off] > 0 && b->dims[0] % md[off] == 0;
	for (i = 1; same && i < b->rank; i++)
		same = b->dims[i] == md[off + i];
	return same ? md[off] : 0;
}

static int
tma_part(Node *e, Node *part, Symbol *b, Symbol *map)
{
	int64_t box = asy_box_bytes(map), align = map->swizzle ? 8 * map->swizzle : 128, rows, sq[8];
	char bd[96], md[96];
	int i, n = 0;

	/* a box dimension of 1 anywhere does not change the layout TMA writes ([1, 64, 1, 64]
	 * of x[B, L, H, P] is a 64 x 64 matrix): failing the exact shape, try without them */
	for (i = 0; i < map->rank; i++)
		if (map->dims[i] != 1)
			sq[n++] = map->dims[i];
	if (!(rows = part_rows(b, map->dims, map->rank)) && n)
		rows = part_rows(b, sq, n);
	if (!rows) {
		diag_error(part->loc, "%s with part: %s one of the boxes that make up shared array '%s' along its first dimension, but its %s%s is not a whole number of boxes %s of '%s'",
			   e->name, strcmp(e->name, "tma_store") == 0 ? "stores" : "loads", b->name, b->pipe ? "stage " : "", dims_str(bd, sizeof bd, b->dims, b->rank),
			   dims_str(md, sizeof md, map->dims, map->rank), map->name);
		return 0;
	}
	if (box % align) {
		diag_error(part->loc, "%s with part: a box of '%s' is %lld bytes, so the parts of '%s' would not start on the %lld-byte alignment %s",
			   e->name, map->name, (long long)box, b->name, (long long)align, map->swizzle ? "of the swizzle pattern" : "TMA needs");
		return 0;
	}
	if (part->lhs->isconst && (part->lhs->cv.i < 0 || part->lhs->cv.i >= b->dims[0] / rows)) {
		diag_error(part->lhs->loc, "%s: part %lld of shared array '%s', which holds %lld boxes of '%s' (parts 0 to %lld)",
			   e->name, (long long)part->lhs->cv.i, b->name, (long long)(b->dims[0] / rows), map->name,
			   (long long)(b->dims[0] / rows - 1));
		return 0;
	}
	return 1;
}

static void
check_tma_load(Sema *S, Node *e)
{
	AsyncSema *h = S->asy;
	Node *args[4], *named[2], *mc, *part;
	Node *prod = h->nasync && h->async[h->nasync - 1]->kind == N_PRODUCE ? h->async[h->nasync - 1] : NULL;
	Symbol *b, *map, *bar = NULL;
	int n = asy_split_args(e, args, 4, ASY_NAMES("multicast", "part"), named), ok;

	if (n < 0 || !asy_want_nargs(e, n, 3, 4, "a shared array, a tensor map, [coordinates] and, outside produce blocks, an mbarrier"))
		return;
	b = asy_buffer_arg(S, args[0], "tma_load");
	map = tmap_arg(S, args[1], "tma_load");
	ok = b && map;
	if (map)
		ok &= asy_coords_arg(S, args[2], map->rank, "tma_load", "the tensor map's rank");
	if (n == 4 && !(bar = asy_name_of(S, args[3], SYM_MBARRIER, "tma_load", "an mbarrier last")))
		ok = 0;
	/* that a multicast (or remote) needs a cluster is the verifier's rule, on the IR op */
	mc = named[0];
	part = named[1];
	if (mc)
		ok &= asy_i32_value(S, mc->lhs, "the multicast mask");
	if (part)
		ok &= asy_i32_value(S, part->lhs, "the part");
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
	/* that the pipeline's full source is tma is the verifier's rule, on the IR's produce */
	if (map->tensor->access == ACC_OUT) {
		diag_error(args[1]->loc, "tma_load reads tensor '%s' through '%s', but it is an 'out' tensor",
			   map->tensor->name, map->name);
		return;
	}
	if (tma_match(e, b, map, part != NULL) && part)
		tma_part(e, part, b, map);
	if (prod && mc)
		prod->sym->multicast = 1;
}

/* tma_store(map, [coords], buf, part: p): with part, box p of buf (as tma_load's part). */
static void
check_tma_store(Sema *S, Node *e)
{
	Node *args[3], *named[1];
	Symbol *b, *map;
	int n = asy_split_args(e, args, 3, ASY_NAMES("part"), named), ok;

	if (n < 0 || !asy_want_nargs(e, n, 3, 3, "a tensor map, [coordinates] and a shared array"))
		return;
	map = tmap_arg(S, args[0], "tma_store");
	b = asy_buffer_arg(S, args[2], "tma_store");
	ok = b && map;
	if (map)
		ok &= asy_coords_arg(S, args[1], map->rank, "tma_store", "the tensor map's rank");
	if (named[0])
		ok &= asy_i32_value(S, named[0]->lhs, "the part");
	if (!ok)
		return;
	if (map->tensor->access == ACC_IN) {
		diag_error(args[0]->loc, "tma_store writes tensor '%s' through '%s', but it is an 'in' tensor",
			   map->tensor->name, map->name);
		return;
	}
	if (tma_match(e, b, map, named[0] != NULL) && named[0])
		tma_part(e, named[0], b, map);
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

int
asy_call(Sema *S, Node *e)
{
	AsyncSema *h = S->asy;
	Node *args[1];

	e->ty = ir_scalar(IR_VOID);
	if (e->lhs) {
		if (strcmp(e->name, "rows") == 0)
			diag_error(e->loc, "'.rows(start, n)' selects rows of a shared array as an operand of wgmma; it is not a value");
		else if (strcmp(e->name, "cols") == 0)
			diag_error(e->loc, "'.cols(start, k)' selects columns of a register A fragment as operand A of wgmma; it is not a value");
		else
			diag_error(e->loc, "unknown method '.%s(...)' (wgmma's operands take buf.rows(start, n) and a.cols(start, k))",
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
	case BI_WGMMA: asy_wgmma(S, e); break;
	case BI_STORE: asy_wgmma_store(S, e); break;
	case BI_FRAGMENT: asy_wgmma_fragment(S, e); break;
	case BI_ROW_MAX: case BI_ROW_SUM: case BI_BY_ROW: case BI_MASK_COLS: case BI_MASK_ABOVE:
		asy_frag_rows(S, e);
		break;
	case BI_STORE_ROWS: asy_store_rows(S, e); break;
	case BI_BF16A: case BI_F16A: case BI_F32ACC: asy_wgmma_afrag(S, e); break;
	case BI_TCGEN05_MMA: asy_tcgen05_mma(S, e); break;
	case BI_TMEM_STORE: asy_tmem_store(S, e); break;
	case BI_TMEM_LOAD:
		diag_error(e->loc, "tmem_load(...) initialises a register array: var r: f32[32] = tmem_load(acc, lane0, col0);");
		fe_set_error(e);
		return 1;
	case BI_LOAD:
		diag_error(e->loc, "load(...) initialises a register array: var r: f32[8] = load(buf, [i, j]);");
		fe_set_error(e);
		return 1;
	case BI_TAKE_TURN: case BI_PASS_TURN: asy_turn_call(S, e); break;
	case BI_FENCE_PROXY_ASYNC:
		if (e->list.n == 1 && e->list.head->kind == N_NAME && strcmp(e->list.head->name, "global") == 0)
			e->ival = 1;    /* .global: TMA reads of what flags published */
		else if (e->list.n != 0)
			diag_error(e->loc, "'fence_proxy_async' takes no argument (shared memory) or global");
		break;
	case BI_TMA_STORE_WAIT: case BI_CLUSTER_SYNC:
		if (asy_split_args(e, args, 1, NULL, NULL) != 0)
			diag_error(e->loc, "'%s' takes no arguments, found %d", e->name, e->list.n);
		if (e->builtin == BI_CLUSTER_SYNC && asy_cluster_size(h) == 1)
			diag_error(e->loc, "cluster_sync() synchronizes the CTAs of a cluster, but kernel '%s' has no cluster (cluster(1)); use barrier()",
				   h->kernel->name);
		break;
	default:
		return 0;
	}
	if (((e->builtin == BI_WGMMA || e->builtin == BI_FRAGMENT || e->builtin == BI_F32ACC) && !asy_is_acc(e->ty)) ||
	    ((e->builtin == BI_BF16A || e->builtin == BI_F16A) && !ir_is_afrag(e->ty)))
		fe_set_error(e);
	return 1;
}
