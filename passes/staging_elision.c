/* staging_elision.c: removes shared-memory staging that does not pay.
 *
 * A kernel that copies global memory into a shared buffer with cp.async (copy, commit,
 * wait, barrier) and then has every thread read back only the elements it copied itself
 * gains nothing from the buffer: the data could have gone straight into registers. For
 * each shared buffer this pass decides whether that is the case and, if so, rewrites the
 * reads into global loads of the copies' sources, deletes the copies, the commits and
 * waits left without copies, the barriers that only published the staged data, and the
 * buffer itself. Every decision is reported with its reason (cakec --report=staging).
 *
 * The analysis, per buffer (rules in docs/gdp.md):
 * - Every use of the buffer's address is an elemptr chain ending in a cp.async destination
 *   or a load: a plain store, an atomic, TMA, wgmma or a pointer that escapes (select,
 *   loop-carried, bitcast) keeps the buffer, as does a pipeline, stages or an alias, and any
 *   shared access through a pointer whose buffer is unknown keeps them all.
 * - Each read matches exactly one copy: the read's address and the copy's destination are
 *   the same value (after cse) or structurally equal, pure op by pure op, where the copy's
 *   loops that do not enclose the read are paired with loops around the read that have
 *   the same bounds and step, their induction variables standing for each other. Equal
 *   expressions of the same thread name the same element, whatever they compute from the
 *   thread index; a value that is not a pure function (a load, a shuffle) only equals
 *   itself. A read that matches no copy may read another thread's element: kept.
 * - The read comes after the copy in program order, with a commit of the copy's group and
 *   a cp.async.wait[n] that leaves it complete (n later groups committed) on the straight
 *   path between them (waits in nested regions do not count): else kept ("read before the
 *   wait"). It reads at most the bytes copied. No other copy into the buffer runs between
 *   the completing wait and the read (it could replace the element), nor anywhere in a loop
 *   that encloses the read but not the copy (its next iteration would). In paired loops, the
 *   copy's destination must move with the loops: affine in their induction variables
 *   (constant bounds) with coefficients that keep iterations apart.
 * - Rewriting: when the copy dominates the read, the copy becomes a load of the read's type
 *   from the copy's source, at the copy (so the global read happens when the cp.async's
 *   did, before any barrier after it), and the read uses that value. When the copy is in
 *   a loop paired with the read's, the source address is recomputed at the read (its pure
 *   ops cloned with the induction variables swapped) and the read becomes a load there;
 *   that moves the global read later, so it needs a source that nothing in the kernel
 *   writes. Loads from an `in` tensor take the read-only path. The arithmetic is untouched,
 *   so results are bitwise identical.
 * - A barrier between the wait and a rewritten read is removed unless it still orders
 *   something: shared traffic (any remaining shared access before and after it, one of
 *   them a write), global writes before it, or reads before it of global memory that is
 *   written after it, unless each thread writes back exactly addresses it read and the
 *   addresses read are proven disjoint between the threads of a block (staging_disjoint.c).
 *   Commits and waits go when no cp.async is left.
 * The staged program is assumed race free: two threads' cp.async into one shared element
 * without ordering is a race in the source, so the per-thread copies are taken as its
 * meaning.
 *
 * Requires: verified IR without high-level async ops (after expand-async: the barriers
 *   and waits it judges are ops), best after cse (equal addresses are then one value).
 * Guarantees: the same results bit for bit; elided buffers gone from k->bufs (later ones
 *   renumbered in smem and smem.stage ops), their smem/elemptr ops gone.
 * Invalidates: the shared-memory layout (offsets reset to -1, smem_bytes to 0) when a
 *   buffer is removed; dead address arithmetic is left for dce.
 */
#include "staging.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- program order: the straight path from a copy to a read ---- */

/* The node on x's chain of ancestors (x itself included) that lies in region `regno` of
 * node p (p = -1: the body), or -1. */
static int
up_to(const Stg *s, int x, int p, int regno)
{
	while (x >= 0) {
		if (s->nodes[x].parent == p && s->nodes[x].regno == regno)
			return x;
		x = s->nodes[x].parent;
	}
	return -1;
}

/* Where copy c and read r meet: the deepest region containing both, as the two ops of it
 * that contain them (*xc, *xr). 0 when that is no region but two regions of one op (the
 * branches of an if: never both in one run). */
static int
meet(const Stg *s, int c, int r, int *xc, int *xr)
{
	int x;

	for (x = c; x >= 0; x = s->nodes[x].parent) {
		int y = up_to(s, r, s->nodes[x].parent, s->nodes[x].regno);

		if (y >= 0) {
			*xc = x;
			*xr = y;
			return x != y;
		}
	}
	return 0;
}

/* The state of the walk along the path: has the copy's group been committed, how many
 * groups were committed after it, has a wait completed it. */
typedef struct Walk {
	int buf;                /* the buffer */
	int committed, later, complete;
	int bars[64];           /* barriers met after the completing wait */
	int nbars;
	int overwrite;          /* a copy into the buffer after the completing wait, or -1 */
	int carried;            /* overwrite is in a loop around the read, not the copy */
} Walk;

/* Steps over the ops [from, to) of the region that node `first` (at position from) starts.
 * Commits and waits inside nested regions may not run: not counting them keeps `later` a
 * lower bound and never completes a group that might not be. */
static void
walk_ops(const Stg *s, Walk *w, int first, int from, int to)
{
	int i, n = first;

	for (i = from; i < to; i++, n = s->nodes[n].end + 1) {
		const IrOp *op = s->nodes[n].op;
		int d;

		/* once the copy is complete, another copy into the buffer (here or nested) may
		 * replace what the read sees */
		for (d = n; w->complete && w->overwrite < 0 && d <= s->nodes[n].end; d++)
			if (s->nodes[d].op->opc == IR_CP_ASYNC &&
			    stg_shared_root(s, s->nodes[d].op->args[0]) == w->buf)
				w->overwrite = d;
		if (op->opc == IR_CP_ASYNC_COMMIT) {
			if (w->committed)
				w->later++;
			w->committed = 1;
		} else if (op->opc == IR_CP_ASYNC_WAIT) {
			if (w->committed && w->later >= op->imm)
				w->complete = 1;
		} else if (op->opc == IR_BARRIER && w->complete && w->nbars < 64) {
			w->bars[w->nbars++] = n;
		}
	}
}

/* A loop around the read but not the copy runs all of its body between the copy and the
 * read of its next iteration, the part after the read included (a prefetch of the next
 * item into the buffer): a copy into the buffer anywhere in it may replace the element. */
static void
loop_carried(const Stg *s, Walk *w, int x)
{
	int d;

	if (s->nodes[x].op->opc != IR_FOR && s->nodes[x].op->opc != IR_WHILE)
		return;
	for (d = x; d <= s->nodes[x].end; d++)
		if (s->nodes[d].op->opc == IR_CP_ASYNC && stg_shared_root(s, s->nodes[d].op->args[0]) == w->buf) {
			w->overwrite = d;
			w->carried = 1;
			return;
		}
}

/* The first node of the region node x is in: the owner's regions follow it in order. */
static int
region_first(const Stg *s, int x)
{
	int n = s->nodes[x].parent + 1;

	while (n < x && s->nodes[n].regno != s->nodes[x].regno)
		n = s->nodes[n].end + 1;
	return n;
}

/* Walks the straight path from copy c to read r (meeting at xc, xr), then the loops around
 * the read that the copy is outside (loop_carried). 1 when a wait on the path completes the
 * copy's group. */
static int
walk_path(const Stg *s, int c, int r, int xc, int xr, Walk *w)
{
	int chain[256], n = 0, x, i, buf = w->buf;

	memset(w, 0, sizeof *w);
	w->buf = buf;
	w->overwrite = -1;
	for (x = c; ; x = s->nodes[x].parent) {
		const StgNode *nd = &s->nodes[x];

		if (x == xc) {
			walk_ops(s, w, nd->end + 1, nd->pos + 1, s->nodes[xr].pos);
			break;
		}
		walk_ops(s, w, nd->end + 1, nd->pos + 1, nd->region->nops);
	}
	for (x = r; x != xr && n < 256; x = s->nodes[x].parent)
		chain[n++] = x;
	if (n == 256)
		return 0;
	for (i = n - 1; i >= 0; i--) {
		const StgNode *nd = &s->nodes[chain[i]];

		walk_ops(s, w, region_first(s, chain[i]), 0, nd->pos);
	}
	chain[n++] = xr;
	for (i = 0; i < n && w->complete && w->overwrite < 0; i++)
		loop_carried(s, w, chain[i]);
	return w->complete;
}

/* ---- per buffer ---- */

static void
refuse(StgBuf *b, const char *fmt, ...)
{
	va_list ap;

	if (b->refused)
		return;
	b->refused = 1;
	va_start(ap, fmt);
	vsnprintf(b->why, sizeof b->why, fmt, ap);
	va_end(ap);
}

/* Records the reads and copies of every buffer, and refuses the buffers whose address
 * goes anywhere else. */
static void
classify(Stg *s)
{
	int n, i;

	for (n = 0; n < s->nnodes; n++) {
		IrOp *op = s->nodes[n].op;

		for (i = 0; i < op->nargs; i++) {
			IrType t = ir_vtype(s->k, op->args[i]);
			StgBuf *b;
			int root;

			if (t.base != IR_PTR || (t.space != IR_SHARED && t.space != IR_CLUSTER))
				continue;
			root = stg_shared_root(s, op->args[i]);
			if (root == ROOT_BARRIER || (op->opc == IR_ELEMPTR && i == 0))
				continue;
			if (root < 0) {
				if (s->unknown_at < 0 && !(ir_opinfo[op->opc].flags & OPF_PURE))
					s->unknown_at = n;
				continue;
			}
			b = &s->bufs[root];
			if (op->opc == IR_LOAD)
				PUSH(b->reads, b->nreads, b->capreads, n);
			else if (op->opc == IR_CP_ASYNC && i == 0)
				PUSH(b->copies, b->ncopies, b->capcopies, n);
			else if ((op->opc == IR_STORE || op->opc == IR_STORE_IF) && i == 0)
				refuse(b, "a plain store writes it (at %s)", stg_where(op->loc));
			else if (ir_is_atomic(op->opc))
				refuse(b, "an atomic updates it (%s at %s)", ir_opinfo[op->opc].name,
				       stg_where(op->loc));
			else
				refuse(b, "its address goes to %s (at %s)", ir_opinfo[op->opc].name,
				       stg_where(op->loc));
		}
	}
}

/* Pairs the copy's loops (cl, outermost first, all `for`) with loops around the read (rl)
 * of the same bounds and step, in order. */
static int
pair_loops(const Stg *s, StgMap *m, const int *cl, int ncl, const int *rl, int nrl)
{
	int i, j = 0;

	m->n = 0;
	for (i = 0; i < ncl; i++) {
		const IrOp *c = s->nodes[cl[i]].op;

		if (c->opc != IR_FOR)
			return 0;
		for (; j < nrl; j++) {
			const IrOp *r = s->nodes[rl[j]].op;

			if (r->opc == IR_FOR && stg_equal(s, m, r->args[0], c->args[0], 0) &&
			    stg_equal(s, m, r->args[1], c->args[1], 0) &&
			    stg_equal(s, m, r->args[2], c->args[2], 0))
				break;
		}
		if (j == nrl)
			return 0;
		m->cl[m->n] = cl[i];
		m->rl[m->n] = rl[j];
		m->n++;
		j++;
	}
	return 1;
}

/* Whether the copy-side value v can be recomputed at the read: defined outside the copy's
 * unpaired loops (the outermost is `outer`, so v dominates the read), a paired induction
 * variable, or a pure op of such values. */
static int
clonable(const Stg *s, const StgMap *m, int outer, IrValue v, int depth)
{
	const IrOp *d;
	int i, n, l = stg_loop_of_iv(s, v);

	if (depth > 64)
		return 0;
	for (i = 0; l >= 0 && i < m->n; i++)
		if (m->cl[i] == l)
			return 1;
	n = v > 0 && v < s->k->nvalues ? (s->def[v] >= 0 ? s->def[v] : s->argof[v]) : -1;
	if (n < 0 || !(n == outer || stg_is_ancestor(s, outer, n)))
		return 1;
	if (s->def[v] < 0)
		return 0;       /* an argument of a copy loop's region: a carried value */
	d = stg_def(s, v);
	if (!(ir_opinfo[d->opc].flags & OPF_PURE) || d->nregions || d->nres != 1)
		return 0;
	for (i = 0; i < d->nargs; i++)
		if (!clonable(s, m, outer, d->args[i], depth + 1))
			return 0;
	return 1;
}

/* Nonzero when an op of the kernel may write the global tensor `p` (or an unknown one). */
static int
global_written(const Stg *s, int p)
{
	int n;

	for (n = 0; n < s->nnodes; n++) {
		const IrOp *op = s->nodes[n].op;
		IrType t;
		int q;

		if (op->opc == IR_TMA_STORE || op->opc == IR_WGMMA_STORE || op->opc == IR_STORE_ROW)
			return 1;
		if (op->opc != IR_STORE && op->opc != IR_STORE_IF
		    && !ir_is_atomic(op->opc))
			continue;
		t = ir_vtype(s->k, op->args[0]);
		if (t.base != IR_PTR || t.space != IR_GLOBAL)
			continue;
		q = stg_global_param(s, op->args[0]);
		if (q < 0 || p < 0 || q == p)
			return 1;
	}
	return 0;
}

static void
add_barrier(Stg *s, int n)
{
	StgBarrier b;
	int i;

	for (i = 0; i < s->nbars; i++)
		if (s->bars[i].node == n)
			return;
	memset(&b, 0, sizeof b);
	b.node = n;
	b.loc = s->nodes[n].op->loc;
	PUSH(s->bars, s->nbars, s->capbars, b);
}

/* The loop and if nodes between node x and the op xtop of the meeting region (xtop
 * included when it is not x itself), outermost first. */
static int
enclosing(const Stg *s, int x, int xtop, int *out)
{
	int n = 0, y, i;

	for (y = s->nodes[x].parent; x != xtop && y >= 0 && n < STG_MAXLOOPS; y = s->nodes[y].parent) {
		out[n++] = y;
		if (y == xtop)
			break;
	}
	for (i = 0; i < n / 2; i++) {
		int t = out[i];

		out[i] = out[n - 1 - i];
		out[n - 1 - i] = t;
	}
	return n;
}

/* Decides one read: finds its copy, checks the order and picks where the load goes. */
static void
plan_read(Stg *s, StgBuf *b, int r)
{
	const IrOp *rop = s->nodes[r].op, *cop;
	int cl[STG_MAXLOOPS], rl[STG_MAXLOOPS], ncl, nrl, i, found = -1, nfound = 0, xc = -1, xr = -1;
	int unpaired = -1, apart = -1, rbytes;
	StgMap m, mf;
	StgRead rd;
	Walk w;

	memset(&mf, 0, sizeof mf);
	for (i = 0; i < b->ncopies; i++) {
		int c = b->copies[i];

		if (!meet(s, c, r, &xc, &xr)) {
			if (apart < 0 && stg_equal(s, NULL, rop->args[0], s->nodes[c].op->args[0], 0))
				apart = c;
			continue;
		}
		ncl = enclosing(s, c, xc, cl);
		nrl = enclosing(s, r, xr, rl);
		if (!pair_loops(s, &m, cl, ncl, rl, nrl)) {
			if (unpaired < 0 && stg_equal(s, NULL, rop->args[0], s->nodes[c].op->args[0], 0))
				unpaired = c;
			if (unpaired < 0)
				unpaired = ncl ? c : -1;
			continue;
		}
		if (!stg_equal(s, &m, rop->args[0], s->nodes[c].op->args[0], 0))
			continue;
		if (nfound++ == 0) {
			found = c;
			mf = m;
		}
	}
	if (nfound == 0 && unpaired >= 0) {
		refuse(b, "the read at %s and the copy at %s are in different loops or ifs (a copy may run in a loop only when the read runs in one of the same bounds)",
		       stg_where(rop->loc), stg_where(s->nodes[unpaired].op->loc));
		return;
	}
	if (nfound == 0 && apart >= 0) {
		refuse(b, "the read at %s and the copy at %s are in different branches: the read may see no copy",
		       stg_where(rop->loc), stg_where(s->nodes[apart].op->loc));
		return;
	}
	if (nfound == 0) {
		refuse(b, "the read at %s matches no copy of the reading thread's own: it may read an element another thread copied",
		       stg_where(rop->loc));
		return;
	}
	if (nfound > 1) {
		refuse(b, "the read at %s matches %d copies: which one it sees is not known", stg_where(rop->loc),
		       nfound);
		return;
	}
	cop = s->nodes[found].op;
	rbytes = ir_type_bytes(ir_vtype(s->k, rop->res[0]));
	if (rbytes > cop->imm) {
		refuse(b, "the read at %s takes %d bytes but its copy (at %s) brings %d", stg_where(rop->loc),
		       rbytes, stg_where(cop->loc), (int)cop->imm);
		return;
	}
	meet(s, found, r, &xc, &xr);
	if (s->nodes[xc].pos > s->nodes[xr].pos) {
		refuse(b, "the read at %s comes before its copy (at %s) in program order", stg_where(rop->loc),
		       stg_where(cop->loc));
		return;
	}
	w.buf = (int)(b - s->bufs);
	if (!walk_path(s, found, r, xc, xr, &w)) {
		refuse(b, "the read at %s comes before the cp.async.wait that completes its copy (at %s)",
		       stg_where(rop->loc), stg_where(cop->loc));
		return;
	}
	if (w.overwrite >= 0 && w.carried) {
		refuse(b, "the copy at %s is in a loop around the read at %s: it runs again after the copy at %s is complete and before the read's next iteration, and may replace the element read",
		       stg_where(s->nodes[w.overwrite].op->loc), stg_where(rop->loc), stg_where(cop->loc));
		return;
	}
	if (w.overwrite >= 0) {
		refuse(b, "the copy at %s runs after the copy at %s is complete and before the read at %s: it may replace the element read",
		       stg_where(s->nodes[w.overwrite].op->loc), stg_where(cop->loc), stg_where(rop->loc));
		return;
	}
	memset(&rd, 0, sizeof rd);
	rd.node = r;
	rd.copy = found;
	rd.map = mf;
	rd.early = xc == found;
	if (!rd.early) {
		if (!stg_iterations_distinct(s, &mf, cop->args[0], (int)cop->imm /
					     ir_type_bytes(ir_scalar((IrBase)s->k->bufs[w.buf].elem)))) {
			refuse(b, "the copy at %s may write one element in two iterations of its loops: which one the read at %s sees is not known",
			       stg_where(cop->loc), stg_where(rop->loc));
			return;
		}
		if (!clonable(s, &mf, xc, cop->args[1], 0)) {
			refuse(b, "the source address of the copy at %s cannot be recomputed at the read at %s",
			       stg_where(cop->loc), stg_where(rop->loc));
			return;
		}
		if (global_written(s, stg_global_param(s, cop->args[1]))) {
			refuse(b, "the copy at %s runs in a loop apart from the read at %s, so the load would move to the read, but the kernel writes the copy's source",
			       stg_where(cop->loc), stg_where(rop->loc));
			return;
		}
	}
	for (i = 0; i < w.nbars; i++)
		add_barrier(s, w.bars[i]);
	PUSH(b->rds, b->nrds, b->caprds, rd);
}

static void
plan_buffer(Stg *s, int bi)
{
	StgBuf *b = &s->bufs[bi];
	const IrBuffer *ib = &s->k->bufs[bi];
	int i;

	if (!b->ncopies)
		refuse(b, "not filled from global memory by cp.async");
	if (ib->stages > 1 || ib->pipeline >= 0)
		refuse(b, "it has stages (%d%s)", ib->stages, ib->pipeline >= 0 ? ", in a pipeline" : "");
	if (ib->alias >= 0)
		refuse(b, "it shares its storage with buffer '%s'",
		       ib->alias < s->k->nbufs ? s->k->bufs[ib->alias].name : "?");
	for (i = 0; i < s->k->nbufs; i++)
		if (s->k->bufs[i].alias == bi)
			refuse(b, "buffer '%s' shares its storage", s->k->bufs[i].name);
	if (s->unknown_at >= 0)
		refuse(b, "a shared access at %s goes through a pointer whose buffer is not known",
		       stg_where(s->nodes[s->unknown_at].op->loc));
	for (i = 0; i < b->nreads && !b->refused; i++)
		plan_read(s, b, b->reads[i]);
	if (b->refused)
		b->nrds = 0;
}

/* ---- the report ---- */

/* The shared memory a kernel with k's buffers (less those in drop) and barriers lays out:
 * smem-layout on a scratch copy of the tables. -1 when it might not fit (the real layout
 * reports that). */
static int64_t
layout_bytes(const IrKernel *k, const unsigned char *drop, PassContext *cx)
{
	IrKernel *t;
	int64_t bound = 1024 + 8 * (int64_t)k->nbarriers, r;
	int i, j;

	for (i = 0; i < k->nbarriers; i++)
		bound += 8 * (int64_t)k->barriers[i].n;
	for (i = 0; i < k->nbufs; i++) {
		const IrBuffer *b = &k->bufs[i];
		int64_t e = ir_type_bytes(ir_scalar((IrBase)b->elem)), st = b->stages > 1 ? b->stages : 1;

		if (b->count < 0 || b->count > ((int64_t)1 << 40) / e / st)
			return -1;
		bound += b->count * e * st + (b->align > 1024 ? b->align : 1024);
	}
	if (bound > ir_kernel_smem_limit(k))
		return -1;
	t = ir_kernel_new(k->name, -1);
	for (i = 0; i < k->nbarriers; i++)
		ir_add_barrier(t, k->barriers[i]);
	for (i = 0; i < k->npipelines; i++)
		ir_add_pipeline(t, k->pipelines[i]);
	for (i = 0; i < k->nbufs; i++) {
		IrBuffer b = k->bufs[i];

		if (drop && drop[i]) {
			/* an empty stand-in keeps the other buffers' numbers */
			b.count = 0;
			for (j = 0; j < b.rank; j++)
				b.dims[j] = 0;
		}
		ir_add_buffer(t, b);
	}
	pass_smem_layout(t, cx);
	r = t->smem_bytes;
	ir_kernel_free(t);
	return r;
}

static int64_t
buffer_bytes(const IrBuffer *b)
{
	return b->count * ir_type_bytes(ir_scalar((IrBase)b->elem)) * (b->stages > 1 ? b->stages : 1);
}

static void
report(const Stg *s, Buf *out, int64_t before, int64_t after)
{
	const IrKernel *k = s->k;
	int i, j;

	for (i = 0; i < k->nbufs; i++) {
		const StgBuf *b = &s->bufs[i];
		const IrBuffer *ib = &k->bufs[i];
		int late = 0;

		if (b->refused) {
			buf_printf(out, "staging: %s: buffer %s (%lld bytes): kept: %s\n", k->name, ib->name,
				   (long long)buffer_bytes(ib), b->why);
			continue;
		}
		for (j = 0; j < b->nrds; j++)
			late += !b->rds[j].early;
		buf_printf(out, "staging: %s: buffer %s (%lld bytes): elided, saves %lld bytes: every thread reads back only elements it copied itself; %d cp.async removed, %d reads became global loads",
			   k->name, ib->name, (long long)buffer_bytes(ib), (long long)buffer_bytes(ib), b->ncopies,
			   b->nrds);
		if (late)
			buf_printf(out, " (%d at the copy, %d at the read)", b->nrds - late, late);
		buf_puts(out, "\n");
	}
	for (i = 0; i < s->nbars; i++) {
		if (s->bars[i].why[0])
			buf_printf(out, "staging: %s: barrier at %s: kept: %s\n", k->name, stg_where(s->bars[i].loc),
				   s->bars[i].why);
		else
			buf_printf(out, "staging: %s: barrier at %s: removed: it only published staged data\n",
				   k->name, stg_where(s->bars[i].loc));
	}
	if (s->removed_commits || s->removed_waits)
		buf_printf(out, "staging: %s: removed %d cp.async.commit and %d cp.async.wait: no cp.async is left\n",
			   k->name, s->removed_commits, s->removed_waits);
	if (before >= 0 && after >= 0)
		buf_printf(out, "staging: %s: shared memory per block: %lld bytes before, %lld after (%lld saved)\n",
			   k->name, (long long)before, (long long)after, (long long)(before - after));
	else
		buf_printf(out, "staging: %s: shared memory per block: past the limit before the pass (see --report=smem)\n",
			   k->name);
}

/* ---- the entry point ---- */

void
pass_staging_elision(IrKernel *k, PassContext *cx)
{
	Buf *out = cx->opt->staging_report;
	Stg s;
	unsigned char *drop;
	int64_t before = 0, after = 0;
	int i, any = 0, nbufs = k->nbufs;

	stg_init(&s, k);
	drop = xcalloc((size_t)nbufs + 1, 1);
	classify(&s);
	for (i = 0; i < nbufs; i++) {
		plan_buffer(&s, i);
		drop[i] = !s.bufs[i].refused;
		any |= drop[i];
	}
	if (out) {
		before = layout_bytes(k, NULL, cx);
		after = layout_bytes(k, drop, cx);
	}
	if (any) {
		stg_decide_barriers(&s);
		stg_rewrite(&s);
	}
	if (out && nbufs)
		report(&s, out, before, after);
	if (any)
		stg_remove_buffers(k, drop);
	free(drop);
	stg_free(&s);
}
