/* async.c: the asynchronous machinery of Hopper kernels (docs/interpreter.md, "The async
 * model"): mbarriers, TMA loads and stores, cp.async groups, wgmma and the cluster ops.
 *
 * - An mbarrier (8 bytes of shared memory, state in Block.mbar) counts the arrivals still
 *   missing in its current phase and a transaction count (bytes expected by expect-tx
 *   minus bytes completed by TMA). The phase completes when both reach zero; then the
 *   arrivals are re-armed and the phase number advances. mbar.wait with parity P waits
 *   until the phase of parity P completed, i.e. while the current phase's parity is P.
 * - A TMA load is an agent in flight: at issue it marks its destination bytes pending
 *   (SH_PENDING: a thread that reads them has not waited) and the scheduler completes it
 *   at a step drawn from the seed: it reads the box from the tensor then (out-of-bounds
 *   elements are zero or NaN as the tensor map says), writes it to shared memory in the
 *   swizzled layout and completes its bytes on the mbarrier (for a CTA pair's load, the
 *   one at the same offset in the pair's leader).
 * - wgmma runs at issue for each warp's 16 rows of the m64 tile, reading A and B through
 *   the shared-memory descriptors as the hardware does (start address, stride byte offset,
 *   swizzle mode) and checking the bytes it reads (pending or never written). Its result
 *   is in flight until wgmma.wait retires its group (exec.c, acc_check).
 * - The async proxy (TMA stores, wgmma) reads only shared bytes whose writing thread
 *   executed fence.proxy.async since, ordered before the read (proxy_check).
 *
 * The swizzle of both TMA and wgmma is a function of the shared-memory address: within each
 * span-sized row (span = 32, 64 or 128 bytes), the 16-byte chunk index (address bits 4..)
 * is XORed with the row index mod span / 16 (address bits 7..), so that an 8-row group of
 * rows spreads over all banks. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The PTX limit of an mbarrier's tx-count: 2^20 - 1 either way. */
#define TX_LIMIT ((1 << 20) - 1)

/* "mbarrier 'ld.full'[1]" */
static void
bar_name(const Interp *it, int64_t bar, char *out, size_t size)
{
	int64_t rel;
	const char *name = mem_shared_name(it, bar, &rel);

	snprintf(out, size, "mbarrier '%s'[%lld]", name, (long long)(rel / 8));
}

/* The mbarrier lane l's pointer p points to (its byte offset in *at), or NULL after a
 * finding: p is not an 8-byte-aligned shared address, or mbar.init did not initialize it
 * (unless op is that init). */
static Mbar *
bar_at(Warp *w, const IrOp *op, int l, uint64_t p, int64_t *at)
{
	int64_t off = mem_shared_at(w, op, l, p, 8, 8);
	Mbar *m;
	char nm[160];

	if (off < 0)
		return NULL;
	*at = off;
	m = &w->it->blk->mbar[off / 8];
	if (!m->init && op->opc != IR_MBAR_INIT) {
		bar_name(w->it, off, nm, sizeof nm);
		interp_fail(w, op, 1u << l, "%s on %s, which mbar.init did not initialize", ir_opinfo[op->opc].name, nm);
		return NULL;
	}
	return m;
}

/* The phase completes when every arrival came and every expected byte arrived. Accesses
 * before it are then ordered before those after (the race check's interval ends: coarse,
 * it may hide a race between warps that the barrier does not order). */
static void
bar_progress(Interp *it, Mbar *m)
{
	if (m->pending == 0 && m->tx == 0) {
		m->phase++;
		m->pending = m->count;
		m->arrived_before |= m->arrived;
		m->arrived = 0;
		mem_barrier(it);
		if (m->tc)
			tmem_phase(it, m);
		if (it->trace)
			trace_phase(it, m);
	}
}

/* Adds tx bytes (negative: completed) to m's transaction count; -1 after a finding: the
 * count leaves PTX's range, or goes below zero once the phase has all its arrivals (the
 * bytes of its TMA loads exceed what it expects). Below zero before the last arrival is
 * legal: a multicast load from another CTA, or a CTA pair peer's load, may land before
 * this CTA expects it. */
static int
bar_tx(Warp *w, const IrOp *op, int l, Mbar *m, int64_t bar, int64_t tx, const char *what)
{
	char nm[160];

	m->tx += tx;
	if ((m->tx < 0 && m->pending == 0) || m->tx > TX_LIMIT || m->tx < -TX_LIMIT) {
		bar_name(w->it, bar, nm, sizeof nm);
		interp_fail(w, op, l < 0 ? 0 : 1u << l,
			    "%s of %lld bytes takes the tx-count of %s %s (to %lld): the bytes expected (expect-tx) do not match the bytes the TMA loads bring",
			    what, (long long)(tx < 0 ? -tx : tx), nm, m->tx < 0 ? "below zero" : "past its limit of 2^20 - 1",
			    (long long)m->tx);
		return -1;
	}
	if (m->tx < 0 && tx < 0) {
		m->early = op;
		m->early_warp = w->gid;
		m->early_lane = l;
	}
	return 0;
}

void
ex_mbar(Warp *w, const IrOp *op, uint32_t mask)
{
	const uint64_t *a = reg(w, op->args[0], 0);
	uint64_t *d = reg(w, op->res[0], 0);
	int l;

	LANES(l, mask) d[l] = mem_ptr_make(w->it->mbar_obj0 + (int)op->imm, (int64_t)a[l] * 8);
}

void
ex_mbar_init(Warp *w, const IrOp *op, uint32_t mask)
{
	const uint64_t *a = reg(w, op->args[0], 0);
	int l;

	LANES(l, mask) {
		int64_t off;
		Mbar *m = bar_at(w, op, l, a[l], &off);

		if (!m)
			return;
		memset(m, 0, sizeof *m);
		m->init = 1;
		m->count = m->pending = (int)op->imm;
	}
}

/* One thread's mbar.arrive (tx < 0), mbar.arrive.tx (expect tx bytes, then arrive) or
 * mbar.expect.tx (expect only) on the barrier at p in CTA it->blk; -1 after a finding. */
static int
arrive_one(Warp *w, const IrOp *op, int l, uint64_t p, int64_t tx, int arrive)
{
	int64_t off;
	Mbar *m = bar_at(w, op, l, p, &off);
	char nm[160];

	if (!m)
		return -1;
	if (tx >= 0 && bar_tx(w, op, l, m, off, tx, "expect-tx") != 0)
		return -1;
	if (!arrive)
		return 0;
	if (m->pending == 0) {  /* only a tx-count still open: the phase waits for bytes */
		bar_name(w->it, off, nm, sizeof nm);
		interp_fail(w, op, 1u << l, "more arrivals on %s than its count of %d in one phase", nm, m->count);
		return -1;
	}
	m->pending--;
	if (w->b == w->it->blk && w->id < 32)
		m->arrived |= 1u << w->id;
	if (w->tc.any && w->b->rank >> 1 == w->it->blk->rank >> 1)     /* its CTA pair */
		tmem_arrive(w, m);
	if (m->pending == 0 && m->tx < 0) {
		bar_name(w->it, off, nm, sizeof nm);
		interp_fail(w, op, 1u << l,
			    "the last arrival of the phase on %s finds its tx-count below zero (%lld): the bytes expected (expect-tx) do not match the bytes the TMA loads brought",
			    nm, (long long)m->tx);
		return -1;
	}
	bar_progress(w->it, m);
	return 0;
}

int
async_arrive(Warp *w, const IrOp *op, int l, uint64_t p)
{
	return arrive_one(w, op, l, p, -1, 1);
}

/* mbar.arrive, mbar.arrive.tx, mbar.expect.tx and mbar.arrive.remote (on the barrier at the
 * same offset in the CTA of cluster rank b): each lane of the mask is one thread. */
void
ex_mbar_arrive(Warp *w, const IrOp *op, uint32_t mask)
{
	Interp *it = w->it;
	Block *own = it->blk;
	const uint64_t *a = reg(w, op->args[0], 0), *b = op->nargs > 1 ? reg(w, op->args[1], 0) : NULL;
	int remote = op->opc == IR_MBAR_ARRIVE_REMOTE, l, bad;

	LANES(l, mask) {
		if (remote) {
			if (b[l] >= (uint64_t)it->ncta) {
				interp_fail(w, op, 1u << l, "mbar.arrive.remote to cluster rank %lld of %d", (long long)b[l], it->ncta);
				return;
			}
			if (sched_gone(w, op, l, (int)b[l], "mbar.arrive.remote"))
				return;
			it->blk = &it->ctas[b[l]];
		}
		bad = arrive_one(w, op, l, a[l], b && !remote ? (int64_t)(uint32_t)b[l] : -1, op->opc != IR_MBAR_EXPECT_TX);
		it->blk = own;
		if (bad)
			return;
	}
}

void
ex_mbar_wait(Warp *w, const IrOp *op, uint32_t mask)
{
	const uint64_t *a = reg(w, op->args[0], 0), *p = reg(w, op->args[1], 0);
	int l;

	LANES(l, mask) {
		int64_t off;

		if (!bar_at(w, op, l, a[l], &off))
			return;
		if (p[l] > 1) {
			interp_fail(w, op, 1u << l, "mbar.wait with parity %llu (it is 0 or 1)", (unsigned long long)p[l]);
			return;
		}
		sched_mbar_wait(w, op, off, (int)p[l]);
		if (w->it->failed)
			return;
		if (w->it->blk->mbar[off / 8].tc)
			tmem_acquire(w, &w->it->blk->mbar[off / 8]);
	}
}

int
async_ready(const Interp *it, const Warp *w)
{
	const Mbar *m = &w->b->mbar[w->wait_bar / 8];

	if (w->state == W_TMEM)
		return tmem_ready(it, w);
	return (int)(m->phase & 1) != w->wait_parity;
}

/* ---- the async proxy: fence.proxy.async ---- */

/* fence.proxy.async by the lanes of mask: each thread's shared writes so far are ordered
 * before the async proxy's accesses of its own warp at once, and of other warps once a
 * barrier interval boundary (a barrier, a completed mbarrier phase) passed. */
void
ex_fence_proxy_async(Warp *w, const IrOp *op, uint32_t mask)
{
	Interp *it = w->it;
	int l;

	if (op->imm)
		return;         /* .global: the TMA loads it orders read global memory as it is */
	LANES(l, mask) {
		int t = w->gid * WARP + l;

		if (it->fence_epoch[t] < w->b->epoch)
			it->fence_ordered[t] = it->fence_no[t];
		it->fence_no[t]++;
		it->fence_epoch[t] = w->b->epoch;
	}
}

/* Whether shared byte g's last generic write is not yet ordered before an async-proxy read
 * issued by lane l of warp w: its thread fenced after it (in w itself: at once; another
 * warp: and a barrier interval boundary passed since), or the reading thread fenced after
 * a boundary that followed the write (the barrier made the write visible to it, and its
 * fence is cumulative). */
static int
unfenced(const Interp *it, const Warp *w, int l, const GenWrite *g)
{
	int t, r = w->gid * WARP + l;
	uint32_t done;

	if (!g->thread)
		return 0;
	t = g->thread - 1;
	if (it->warps[t / WARP].b == w->b && it->fence_no[r] && it->fence_epoch[r] > g->epoch)
		return 0;
	if (t / WARP == w->gid || it->fence_epoch[t] < it->warps[t / WARP].b->epoch)
		done = it->fence_no[t];
	else
		done = it->fence_ordered[t];
	return done <= g->fences;
}

/* The async proxy (op: a TMA store, a wgmma) of warp w reads shared bytes [lo, hi) of CTA
 * it->blk: a byte a thread wrote without a fence.proxy.async
 * ordering it first (missing fence) is a finding. 0, or -1 after reporting. */
static int
proxy_check(Warp *w, const IrOp *op, uint32_t lanes, int64_t lo, int64_t n)
{
	int l = lanes ? __builtin_ctz(lanes) : __builtin_ctz(w->exists);
	Interp *it = w->it;
	const GenWrite *gen = it->blk->gen, *first = NULL;
	int64_t i, at = 0, count = 0, rel;
	const char *nm;
	char bytes[96] = "";
	int t;

	for (i = lo; i < lo + n; i++)
		if (unfenced(it, w, l, &gen[i])) {
			if (!first) {
				first = &gen[i];
				at = i;
			}
			count++;
		}
	if (!first)
		return 0;
	nm = mem_shared_name(it, at, &rel);
	t = first->thread - 1;
	if (op->opc == IR_TMA_STORE)
		snprintf(bytes, sizeof bytes, "%lld of its %lld bytes, the first ", (long long)count, (long long)n);
	interp_fail(w, op, lanes,
		    "%s reads shared memory that a thread wrote without a fence.proxy.async since (the async proxy may not see the write: fence_proxy_async() by the writing threads, then a barrier): %sat byte offset %lld of '%s', written by the %s at line %d:%d (warp %d, lane %d)",
		    ir_opinfo[op->opc].name, bytes, (long long)rel, nm, first->op->opc == IR_CP_ASYNC ? "cp.async" : "store",
		    first->op->loc.line, first->op->loc.col, it->warps[t / WARP].id, t % WARP);
	return -1;
}

/* ---- agents: TMA loads and stores, cp.async ---- */

/* A completed agent leaves an AG_DONE slot (agent_run) and the list is compacted here,
 * when a new agent arrives and half the slots are dead: completing one of n agents in
 * flight no longer moves the n behind it (thousands of 16-byte cp.asyncs made that
 * quadratic), the list keeps issue order, and no index held during a completion moves. */
static void
agents_compact(Block *bk)
{
	int i, n = 0;

	for (i = 0; i < bk->nagents; i++)
		if (bk->agents[i].kind != AG_DONE)
			bk->agents[n++] = bk->agents[i];
	bk->nagents = n;
	bk->ndead = 0;
}

Agent *
async_agent_new(Warp *w, const IrOp *op, int l, int kind)
{
	Block *bk = w->it->blk;
	Agent *a;

	if (2 * bk->ndead >= bk->nagents && bk->ndead)
		agents_compact(bk);
	if (bk->nagents == bk->capagents) {
		bk->capagents = bk->capagents ? 2 * bk->capagents : 16;
		bk->agents = xrealloc(bk->agents, (size_t)bk->capagents * sizeof *bk->agents);
	}
	a = &bk->agents[bk->nagents++];
	memset(a, 0, sizeof *a);
	a->kind = kind;
	a->op = op;
	a->cta = bk;
	a->warp = w->gid;
	a->lane = l;
	a->group = kind == AG_CP_ASYNC ? w->cp_groups[l] : w->bulk_groups[l];
	if (w->it->trace)
		a->t_issue = trace_now(w->it);
	return a;
}

/* Marks n shared bytes from off with shadow state sh (SH_PENDING, SH_READING). */
static void
shadow_mark(Block *bk, int64_t off, int64_t n, int sh)
{
	int64_t i;

	for (i = 0; i < n; i++) {
		unsigned char *b = &bk->shadow[off + i];

		if (*b != SH_PENDING && *b != SH_READING)
			bk->pending_bytes++;
		*b = (unsigned char)sh;
	}
}

static void
shadow_done(Block *bk, int64_t off, int64_t n)
{
	int64_t i;

	for (i = 0; i < n; i++) {
		unsigned char *b = &bk->shadow[off + i];

		if (*b == SH_PENDING || *b == SH_READING) {
			*b = SH_WRITTEN;
			bk->pending_bytes--;
		}
	}
}

/* Whether the scheduler may complete a now: a TMA load at any time, a cp.async or TMA store
 * once its group is committed. */
static int
agent_eligible(const Interp *it, const Agent *a)
{
	const Warp *w = &it->warps[a->warp];
	const Agent *o;

	if (a->kind == AG_TMA_LOAD)
		return 1;
	if (a->kind == AG_DONE)
		return 0;
	if (a->kind == AG_TC_MMA || a->kind == AG_TC_COMMIT) {
		/* a thread's mmas complete in issue order, its commits after them */
		for (o = a->cta->agents; o < a; o++)
			if (o->kind == AG_TC_MMA && o->warp == a->warp && o->lane == a->lane)
				return 0;
		return 1;
	}
	return a->group < (a->kind == AG_CP_ASYNC ? w->cp_groups[a->lane] : w->bulk_groups[a->lane]);
}

/* ---- TMA ---- */

static int64_t
box_bytes(const Interp *it, int tmap)
{
	const IrParam *p = &it->k->params[tmap];
	int64_t n = ir_type_bytes(ir_scalar((IrBase)it->k->params[p->tmap_tensor].type.elem));
	int i;

	for (i = 0; i < p->rank; i++)
		n *= p->dims[i].size;
	return n;
}

/* The mbarrier at p in CTA bk (bar_at there); NULL after a finding. */
static Mbar *
bar_in(Warp *w, const IrOp *op, int l, uint64_t p, Block *bk, int64_t *at)
{
	Interp *it = w->it;
	Block *own = it->blk;
	Mbar *m;

	it->blk = bk;
	m = bar_at(w, op, l, p, at);
	it->blk = own;
	return m;
}

/* tma.load[rank] dst, map, bar, coords...: one load per lane of the mask (an elected
 * thread issues it). The mbarrier must expect the bytes before they can complete; the
 * destination is pending until the scheduler completes the load. */
/* One lane's TMA load into the shared memory of CTA it->blk, completing on the mbarrier
 * at bar's offset in CTA barcta; -1 after a finding. */
static int
tma_load_one(Warp *w, const IrOp *op, int l, int first_coord, Block *barcta)
{
	Interp *it = w->it;
	int tmap = (int)reg(w, op->args[1], 0)[l], rank = IR_TMA_RANK(op->imm), i;
	const IrParam *p = &it->k->params[tmap];
	int64_t bytes = box_bytes(it, tmap), inner, d, b;
	int eb = ir_type_bytes(ir_scalar((IrBase)it->k->params[p->tmap_tensor].type.elem));
	Agent *a;

	inner = p->dims[p->rank - 1].size * eb;
	if (p->swizzle && inner != p->swizzle) {
		interp_fail(w, op, 1u << l, "not yet supported by the interpreter: a TMA box whose rows (%lld bytes) are not the swizzle span (%d bytes)",
			    (long long)inner, p->swizzle);
		return -1;
	}
	if ((d = mem_shared_at(w, op, l, reg(w, op->args[0], 0)[l], (int)bytes, p->swizzle ? 1024 : 128)) < 0 ||
	    !bar_in(w, op, l, reg(w, op->args[2], 0)[l], barcta, &b))
		return -1;
	if (rank != p->rank) {
		interp_fail(w, op, 1u << l, "%s of rank %d through the tensor map '%s' of rank %d", ir_opinfo[op->opc].name, rank,
			    p->name, p->rank);
		return -1;
	}
	for (i = 0; i < it->blk->nreads; i++) {
		const WgmmaRead *r = &it->blk->reads[i];
		int64_t rel;
		const char *nm;

		if (r->lo < d + bytes && d < r->hi && r->group == TC_READ) {
			nm = mem_shared_name(it, r->lo > d ? r->lo : d, &rel);
			interp_fail(w, op, 1u << l,
				    "TMA load into shared memory that a tcgen05.mma of warp %d (line %d:%d) still reads: byte offset %lld of '%s'; it has not completed (no tcgen05.commit that tracks it has arrived), so the stage was released too early",
				    it->warps[r->warp].id, r->op->loc.line, r->op->loc.col, (long long)rel, nm);
			return -1;
		}
		if (r->lo < d + bytes && d < r->hi) {
			nm = mem_shared_name(it, r->lo > d ? r->lo : d, &rel);
			interp_fail(w, op, 1u << l,
				    "TMA load into shared memory that a wgmma of warp %d (line %d:%d) still reads: byte offset %lld of '%s'; it has not retired (wgmma.wait), so the stage was released too early",
				    it->warps[r->warp].id, r->op->loc.line, r->op->loc.col, (long long)rel, nm);
			return -1;
		}
	}
	for (i = 0; it->blk->pending_bytes && i < it->blk->nagents; i++) {
		const Agent *o = &it->blk->agents[i];
		int64_t rel;
		const char *nm;

		if (o->kind != AG_DONE && o->smem < d + bytes && d < o->smem + o->bytes) {
			nm = mem_shared_name(it, o->smem > d ? o->smem : d, &rel);
			interp_fail(w, op, 1u << l,
				    "TMA load into shared memory that the %s at line %d:%d still %s: byte offset %lld of '%s'; the bytes are reused before that completed (a producer overrunning its ring, or a load issued twice)",
				    o->kind == AG_TMA_STORE ? "TMA store" : o->kind == AG_CP_ASYNC ? "cp.async" : "TMA load", o->op->loc.line,
				    o->op->loc.col, o->kind == AG_TMA_STORE ? "reads" : "writes (in flight)", (long long)rel, nm);
			return -1;
		}
	}
	a = async_agent_new(w, op, l, AG_TMA_LOAD);
	a->tmap = tmap;
	for (i = 0; i < rank; i++)
		a->coord[i] = (int64_t)(int32_t)reg(w, op->args[first_coord + i], 0)[l];
	a->smem = d;
	a->bar = b;
	a->bar_cta = barcta;
	a->bytes = bytes;
	shadow_mark(it->blk, d, bytes, SH_PENDING);
	return 0;
}

/* With IR_TMA_PAIR (cta_group::2) the box lands here but the bytes complete on the barrier
 * at the same offset in the pair's leader, cluster rank & ~1 (this CTA when it leads). */
void
ex_tma_load(Warp *w, const IrOp *op, uint32_t mask)
{
	Interp *it = w->it;
	Block *barcta = op->imm & IR_TMA_PAIR ? &it->ctas[it->blk->rank & ~1] : it->blk;
	int l;

	LANES(l, mask) if (tma_load_one(w, op, l, 3, barcta) != 0)
		return;
}

/* tma.load.mc: the box lands at the same offset in every CTA of the mask, each completing
 * its bytes on its own mbarrier at the same offset; with IR_TMA_PAIR on the one of its
 * pair's leader (the even CTA, as the mbarrier operand is the leader's). */
void
ex_tma_load_mc(Warp *w, const IrOp *op, uint32_t mask)
{
	Interp *it = w->it;
	Block *own = it->blk;
	int l, r;

	LANES(l, mask) {
		uint64_t ranks = reg(w, op->args[3], 0)[l] & 0xffff;

		if (ranks >> it->ncta) {
			interp_fail(w, op, 1u << l, "tma.load.mc to CTA mask 0x%llx in a cluster of %d CTAs", (unsigned long long)ranks,
				    it->ncta);
			return;
		}
		for (r = 0; r < it->ncta; r++) {
			int bad;

			if (!(ranks >> r & 1))
				continue;
			if (sched_gone(w, op, l, r, "tma.load.mc"))
				return;
			it->blk = &it->ctas[r];
			bad = tma_load_one(w, op, l, 4, op->imm & IR_TMA_PAIR ? &it->ctas[r & ~1] : it->blk);
			it->blk = own;
			if (bad)
				return;
		}
	}
}

/* tma.store[rank] map, src, coords...: joins the thread's current bulk group; reads the
 * source when the scheduler (or tma.wait) completes it, writing the box's elements that lie
 * inside the tensor. Until then a store to the source is a finding. */
void
ex_tma_store(Warp *w, const IrOp *op, uint32_t mask)
{
	Interp *it = w->it;
	const uint64_t *map = reg(w, op->args[0], 0), *src = reg(w, op->args[1], 0);
	int rank = (int)op->imm, l, i;

	LANES(l, mask) {
		int tmap = (int)map[l];
		const IrParam *p = &it->k->params[tmap];
		int64_t bytes = box_bytes(it, tmap), d, j;
		Agent *a;

		if ((d = mem_shared_at(w, op, l, src[l], (int)bytes, p->swizzle ? 1024 : 128)) < 0)
			return;
		if (rank != p->rank) {
			interp_fail(w, op, 1u << l, "tma.store of rank %d through the tensor map '%s' of rank %d", rank, p->name, p->rank);
			return;
		}
		for (j = 0; j < bytes; j++) {
			int sh = it->blk->shadow[d + j];
			int64_t rel;
			const char *nm;

			if (sh == SH_PENDING || (sh == SH_UNWRITTEN && it->o->check_uninit)) {
				nm = mem_shared_name(it, d + j, &rel);
				interp_fail(w, op, 1u << l, sh == SH_PENDING
					    ? "tma.store reads shared memory that an asynchronous copy in flight will write: byte offset %lld of '%s'"
					    : "tma.store reads uninitialized shared memory: byte offset %lld of '%s', which nothing wrote",
					    (long long)rel, nm);
				return;
			}
		}
		if (proxy_check(w, op, 1u << l, d, bytes) != 0)
			return;
		a = async_agent_new(w, op, l, AG_TMA_STORE);
		a->tmap = tmap;
		for (i = 0; i < rank; i++)
			a->coord[i] = (int64_t)(int32_t)reg(w, op->args[2 + i], 0)[l];
		a->smem = d;
		a->bytes = bytes;
		shadow_mark(it->blk, d, bytes, SH_READING);
	}
}

/* cp.async: the checks of a thread's store to the destination and a load of the source at
 * issue (bounds, alignment, races); the copy itself when the scheduler completes the
 * committed group, or cp.async.wait does. Until then the destination is pending. */
void
ex_cp_async(Warp *w, const IrOp *op, uint32_t mask)
{
	const uint64_t *dst = reg(w, op->args[0], 0), *src = reg(w, op->args[1], 0);
	int n = (int)op->imm, l;

	LANES(l, mask) {
		unsigned char *s = mem_access(w, op, l, src[l], n, n, 0), *d;
		int64_t off;
		Agent *a;

		if (!s || !(d = mem_access(w, op, l, dst[l], n, n, 1)))
			return;
		off = d - w->it->blk->smem;
		a = async_agent_new(w, op, l, AG_CP_ASYNC);
		a->smem = off;
		a->bytes = n;
		a->global = s;
		shadow_mark(w->it->blk, off, n, SH_PENDING);
	}
}

void
ex_async_commit(Warp *w, const IrOp *op, uint32_t mask)
{
	int l;

	LANES(l, mask) {
		if (op->opc == IR_CP_ASYNC_COMMIT)
			w->cp_groups[l]++;
		else
			w->bulk_groups[l]++;
	}
}

static int agent_run(Interp *it, int k);

void
ex_async_wait(Warp *w, const IrOp *op, uint32_t mask)
{
	Interp *it = w->it;
	int kind = op->opc == IR_CP_ASYNC_WAIT ? AG_CP_ASYNC : AG_TMA_STORE, l, k;

	LANES(l, mask) {
		uint32_t groups = kind == AG_CP_ASYNC ? w->cp_groups[l] : w->bulk_groups[l];

		if (groups <= (uint32_t)op->imm)
			continue;
		for (k = 0; k < it->blk->nagents;) {
			const Agent *a = &it->blk->agents[k];

			if (a->kind == kind && a->warp == w->gid && a->lane == l && a->group < groups - (uint32_t)op->imm) {
				if (agent_run(it, k) != 0)
					return;
			} else {
				k++;
			}
		}
	}
}

/* What TMA writes for a box element outside the tensor: zero, or NaN (the map's oob nan). */
static uint64_t
oob_fill(const IrParam *p, int eb)
{
	if (!p->oob_nan)
		return 0;
	return eb == 2 ? 0x7fff : eb == 4 ? NUM_F32_NAN : NUM_F64_NAN;
}

/* The tensor offset (elements) of box element f of a, or -1 when it lies outside. */
static int64_t
box_src(const Interp *it, const Agent *a, int64_t f)
{
	const IrParam *p = &it->k->params[a->tmap];
	const InterpArg *t = &it->args[p->tmap_tensor];
	int64_t c[IR_MAX_RANK], at = 0;
	int i;

	for (i = p->rank - 1; i >= 0; i--) {
		c[i] = a->coord[i] + f % p->dims[i].size;
		f /= p->dims[i].size;
		if (c[i] < 0 || c[i] >= t->shape[i])
			return -1;
	}
	for (i = 0; i < p->rank; i++)
		at = at * t->shape[i] + c[i];
	return at;
}

/* Completes agent k of the list of it->blk (its slot becomes AG_DONE). */
static int
agent_run(Interp *it, int k)
{
	Block *bk = it->blk;
	Agent a = bk->agents[k];
	const IrParam *p;
	Mbar *m;
	int eb, bad;
	unsigned char *g;
	int64_t f, n;

	if (it->trace)
		trace_agent(it, &a);
	bk->agents[k].kind = AG_DONE;
	bk->ndead++;
	if (a.kind == AG_TC_MMA || a.kind == AG_TC_COMMIT)
		return tcgen05_complete(it, &a);
	if (a.kind == AG_CP_ASYNC) {
		memcpy(bk->smem + a.smem, a.global, (size_t)a.bytes);
		shadow_done(bk, a.smem, a.bytes);
		return 0;
	}
	p = &it->k->params[a.tmap];
	eb = ir_type_bytes(ir_scalar((IrBase)it->k->params[p->tmap_tensor].type.elem));
	g = it->args[p->tmap_tensor].data;
	n = a.bytes / eb;
	for (f = 0; f < n; f++) {
		int64_t s = box_src(it, &a, f), at = ir_swizzle(a.smem + f * eb, p->swizzle);

		if (a.kind == AG_TMA_STORE) {
			if (s >= 0)     /* elements outside the tensor are not written */
				memcpy(g + s * eb, bk->smem + at, (size_t)eb);
		} else if (s >= 0) {
			memcpy(bk->smem + at, g + s * eb, (size_t)eb);
		} else {
			uint64_t v = oob_fill(p, eb);

			memcpy(bk->smem + at, &v, (size_t)eb);
		}
	}
	shadow_done(bk, a.smem, a.bytes);
	if (a.kind == AG_TMA_STORE)
		return 0;
	memset(bk->gen + a.smem, 0, (size_t)a.bytes * sizeof *bk->gen);    /* the async proxy wrote it */
	it->blk = a.bar_cta;    /* a CTA pair's load completes in the leader */
	m = &it->blk->mbar[a.bar / 8];
	bad = bar_tx(&it->warps[a.warp], a.op, a.lane, m, a.bar, -a.bytes, "the complete-tx of a TMA load");
	if (!bad)
		bar_progress(it, m);
	it->blk = bk;
	return bad;
}

int
async_complete(Interp *it, uint64_t r)
{
	int c, k, n = 0, pick;

	for (c = 0; c < it->ncta; c++)
		for (k = 0; k < it->ctas[c].nagents; k++)
			n += agent_eligible(it, &it->ctas[c].agents[k]);
	if (!n)
		return 0;
	pick = (int)(r % (uint64_t)n);
	for (c = 0; c < it->ncta; c++)
		for (k = 0; k < it->ctas[c].nagents; k++)
			if (agent_eligible(it, &it->ctas[c].agents[k]) && pick-- == 0) {
				it->blk = &it->ctas[c];
				return agent_run(it, k) != 0 ? -1 : 1;
			}
	return 0;
}

void
async_block_start(Interp *it, Block *b)
{
	int i;

	size_t nt = (size_t)it->ncta * (size_t)it->nwarps * WARP, at = (size_t)b->rank * (size_t)it->nwarps * WARP;

	if (!it->fence_no) {    /* freed by mem_free */
		it->fence_no = xcalloc(nt, sizeof *it->fence_no);
		it->fence_epoch = xcalloc(nt, sizeof *it->fence_epoch);
		it->fence_ordered = xcalloc(nt, sizeof *it->fence_ordered);
	}
	memset(it->fence_no + at, 0, (size_t)it->nwarps * WARP * sizeof *it->fence_no);
	memset(it->fence_epoch + at, 0, (size_t)it->nwarps * WARP * sizeof *it->fence_epoch);
	memset(it->fence_ordered + at, 0, (size_t)it->nwarps * WARP * sizeof *it->fence_ordered);
	memset(b->mbar, 0, ((size_t)it->k->smem_bytes / 8 + 1) * sizeof *b->mbar);
	if (b->rank == 0)
		it->run++;
	b->nagents = 0;
	b->ndead = 0;
	b->nreads = 0;
	tmem_block_start(it, b);
	b->pending_bytes = 0;
	for (i = 0; i < it->nwarps; i++) {
		Warp *w = &it->warps[b->rank * it->nwarps + i];

		memset(w->cp_groups, 0, sizeof w->cp_groups);
		memset(w->bulk_groups, 0, sizeof w->bulk_groups);
		w->wgmma_groups = 0;
		w->wgmma_retired = 0;
		w->csyncs = 0;
		w->acc_hi = 0;
		memset(w->tc.issued, 0, sizeof w->tc.issued);
		memset(w->tc.done, 0, sizeof w->tc.done);
		memset(&w->tc.kn, 0, sizeof w->tc.kn);
		memset(&w->tc.acq, 0, sizeof w->tc.acq);
		memset(&w->tc.rel, 0, sizeof w->tc.rel);
		w->tc.any = 0;
		w->tc.ld_hi = 0;
		if (w->tc.ld_tag)
			memset(w->tc.ld_tag, 0, ((size_t)it->k->nvalues + 1) * sizeof *w->tc.ld_tag);
		if (w->acc_group) {
			memset(w->acc_group, 0, ((size_t)it->k->nvalues + 1) * sizeof *w->acc_group);
			memset(w->acc_op, 0, ((size_t)it->k->nvalues + 1) * sizeof *w->acc_op);
		}
	}
}

/* A barrier that ends the block below tx zero got bytes that no expect-tx announced:
 * legal for a moment (a peer's or a multicast load may land before the expect), but at
 * the end they mean an earlier phase completed without all of its bytes (an expect-tx
 * too small), or a load whose bytes nobody expects. -1 after the finding. */
static int
early_bytes(Interp *it, Block *b)
{
	int64_t i, n = it->k->smem_bytes / 8 + 1;
	char nm[160];

	for (i = 0; i < n; i++) {
		const Mbar *m = &b->mbar[i];

		if (!m->init || m->tx >= 0 || !m->early)
			continue;
		bar_name(it, i * 8, nm, sizeof nm);
		interp_fail(&it->warps[m->early_warp], m->early, m->early_lane < 0 ? 0 : 1u << m->early_lane,
			    "the block finished with %s at tx-count %lld: TMA loads (the last of them this one) completed %lld bytes on it that no expect-tx announced (an expect-tx too small lets a phase complete before all of its loads land)",
			    nm, (long long)m->tx, (long long)-m->tx);
		return -1;
	}
	return 0;
}

int
async_block_end(Interp *it, Block *b)
{
	int k;

	it->blk = b;
	for (k = 0; k < it->blk->nagents; k++) {
		const Agent *a = &it->blk->agents[k];

		if (a->kind == AG_TMA_LOAD) {
			interp_fail(&it->warps[a->warp], a->op, 1u << a->lane,
				    "the block finished with this TMA load still in flight (no thread waited for its mbarrier)");
			return -1;
		}
	}
	/* stores, copies and mmas nobody waited for still happen */
	for (k = 0; k < it->blk->nagents; k++)
		if (it->blk->agents[k].kind != AG_DONE && agent_run(it, k) != 0)
			return -1;
	if (early_bytes(it, b) != 0)
		return -1;
	return tmem_block_end(it, b);
}

/* Every unfinished warp is blocked, nothing in flight: one line per group of warps that
 * wait at the same op for the same thing. */
void
async_deadlock(Interp *it, const Warp *blocked)
{
	Buf msg = {0};
	Warp *first = NULL, *ws = &it->warps[blocked->b->rank * it->nwarps];
	uint32_t seen = 0, done = 0;
	int i, j;

	for (i = 0; i < it->nwarps && i < 32; i++)
		done |= (uint32_t)(ws[i].state == W_DONE) << i;

	for (i = 0; i < it->nwarps; i++) {
		Warp *w = &ws[i];
		uint32_t group = 0;
		char wn[160], nm[160];

		if (w->state == W_DONE || seen >> i & 1)
			continue;
		for (j = i; j < it->nwarps; j++) {
			Warp *o = &ws[j];

			if (o->state == w->state && o->wait_op == w->wait_op &&
			    (w->state != W_MBAR || (o->wait_bar == w->wait_bar && o->wait_parity == w->wait_parity)))
				group |= 1u << j;
		}
		seen |= group;
		if (!first)
			first = w;
		mask_str(wn, sizeof wn, group, "warp");
		if (w->state == W_MBAR) {
			const Mbar *m = &w->b->mbar[w->wait_bar / 8];
			uint32_t owed = m->pending ? m->arrived_before & ~m->arrived & done : 0;
			char on[160];

			bar_name(it, w->wait_bar, nm, sizeof nm);
			buf_printf(&msg, "; %s wait%s at line %d:%d for the phase of parity %d of %s (phase %llu, %d of %d arrivals and %lld tx bytes missing)",
				   wn, group & (group - 1) ? "" : "s", w->wait_op->loc.line, w->wait_op->loc.col, w->wait_parity, nm,
				   (unsigned long long)m->phase, m->pending, m->count, (long long)m->tx);
			if (owed) {     /* it arrived in every phase before, then exited */
				mask_str(on, sizeof on, owed, "warp");
				buf_printf(&msg, ": an arrival owed at exit: %s finished without arriving in this phase, having arrived in the earlier ones",
					   on);
			}
		} else if (w->state == W_TMEM) {
			buf_printf(&msg, "; %s wait%s at line %d:%d ", wn, group & (group - 1) ? "" : "s", w->wait_op->loc.line,
				   w->wait_op->loc.col);
			tmem_wait_str(it, w, &msg);
		} else {
			buf_printf(&msg, "; %s wait%s at the %sbarrier at line %d:%d", wn, group & (group - 1) ? "" : "s",
				   w->state == W_CLUSTER ? "cluster " : "",
				   w->wait_op->loc.line, w->wait_op->loc.col);
		}
	}
	for (i = 0, j = 0; i < it->nwarps; i++)
		j |= ws[i].state == W_DONE;
	if (j)
		buf_printf(&msg, "; the others finished");
	if (first)
		interp_fail(first, first->wait_op, 0, "deadlock: every unfinished warp of the block is blocked and no TMA load is in flight%s",
			    msg.s);
	buf_free(&msg);
}

/* ---- wgmma ---- */

void
ex_wgmma_desc(Warp *w, const IrOp *op, uint32_t mask)
{
	const uint64_t *a = reg(w, op->args[0], 0);
	uint64_t *d = reg(w, op->res[0], 0);
	/* tcgen05's descriptor is wgmma's with the version field (bits 46..48) 0b001; its
	 * layout codes 2, 4, 6 in bits 61..63 are wgmma's 1, 2, 3 in bits 62..63 */
	uint64_t fixed = ir_matrix_desc_bits(op->imm, op->opc == IR_TCGEN05_DESC ? (uint64_t)1 << 46 : 0);
	int l;

	if (!fixed) {
		interp_fail(w, op, 0, "not yet supported by the interpreter: %s with swizzle %d", ir_opinfo[op->opc].name,
			    IR_DESC_SWIZZLE(op->imm));
		return;
	}
	LANES(l, mask) {
		int64_t off = mem_shared_at(w, op, l, a[l], 1, 16);

		if (off < 0)
			return;
		d[l] = (((uint64_t)off & 0x3ffff) >> 4) | fixed;
	}
}

void
async_read_record(Warp *w, const IrOp *op, uint32_t group, uint32_t seq, int64_t lo, int64_t hi)
{
	Block *bk = w->it->blk;
	WgmmaRead *r;

	if (bk->nreads == bk->capreads) {
		bk->capreads = bk->capreads ? 2 * bk->capreads : 16;
		bk->reads = xrealloc(bk->reads, (size_t)bk->capreads * sizeof *bk->reads);
	}
	r = &bk->reads[bk->nreads++];
	r->warp = w->gid;
	r->group = group;
	r->seq = seq;
	r->lo = lo;
	r->hi = hi;
	r->op = op;
}

void
ex_wgmma_commit(Warp *w, const IrOp *op, uint32_t mask)
{
	(void)op;
	(void)mask;
	w->wgmma_groups++;
}

/* wgmma.wait N: the warp's groups but the N newest retire (their reads end); the operands
 * pass through. */
void
ex_wgmma_wait(Warp *w, const IrOp *op, uint32_t mask)
{
	Block *bk = w->it->blk;
	int i, j;

	if (w->wgmma_groups > (uint32_t)op->imm && w->wgmma_groups - (uint32_t)op->imm > w->wgmma_retired)
		w->wgmma_retired = w->wgmma_groups - (uint32_t)op->imm;
	if (w->it->trace)
		trace_wgmma(w, op);
	for (i = 0, j = 0; i < bk->nreads; i++) {
		const WgmmaRead *r = &bk->reads[i];

		if (!(r->warp == w->gid && r->group != TC_READ && r->group + (uint32_t)op->imm < w->wgmma_groups))
			bk->reads[j++] = *r;
	}
	bk->nreads = j;
	ex_wgmma_pass(w, op, mask);
}

/* Reads rows [r0, r0 + nrows) of the operand that descriptor desc describes, 32 bytes
 * (one K step) each, as wgmma and tcgen05.mma do: element k of row r at start + (r / 8) *
 * SBO + (r % 8) * span + k * size when K-major; N-major (mn: wgmma's imm-trans-b), at
 * start + (r / W) * LBO + (k / 8) * SBO + (k % 8) * span + (r % W) * size, W the elements of
 * a span; swizzled (the layout field: bits 62..63 of a wgmma descriptor, the same bits of
 * tcgen05's 61..63 field). */
int
async_desc_read(Warp *w, const IrOp *op, uint64_t desc, int mn, int r0, int nrows, IrBase et, double *out,
		int64_t *lo_, int64_t *hi_)
{
	int64_t lo = INT64_MAX, hi = -1;
	Interp *it = w->it;
	int64_t start = (int64_t)(desc & 0x3fff) << 4, sbo = (int64_t)((desc >> 32) & 0x3fff) << 4;
	int64_t lbo = (int64_t)((desc >> 16) & 0x3fff) << 4;
	int layout = (int)(desc >> 62), span = layout == 1 ? 128 : layout == 2 ? 64 : layout == 3 ? 32 : 0;
	int eb = ir_type_bytes(ir_scalar(et)), nk = 32 / eb, r, k;

	if (!span || desc >> 61 & 1) {
		interp_fail(w, op, 0, "not yet supported by the interpreter: a %s descriptor without swizzle (or with a 32-byte atom)",
			    ir_opinfo[op->opc].name);
		return -1;
	}
	for (r = 0; r < nrows; r++)
		for (k = 0; k < nk; k++) {
			int64_t rr = r0 + r, wn = span / eb, rel;
			int64_t at = ir_swizzle(mn ? start + rr / wn * lbo + k / 8 * sbo + k % 8 * span + rr % wn * eb
					     : start + rr / 8 * sbo + rr % 8 * span + eb * k, span);
			uint32_t v = 0;     /* eb <= 4 bytes, little-endian */
			const char *nm;

			if (at < 0 || at + eb > it->k->smem_bytes) {
				interp_fail(w, op, 0, "%s reads past shared memory (byte %lld of %lld)", ir_opinfo[op->opc].name,
					    (long long)at, (long long)it->k->smem_bytes);
				return -1;
			}
			if (it->blk->shadow[at] != SH_WRITTEN &&
			    (it->blk->shadow[at] == SH_PENDING || it->o->check_uninit)) {
				char cta[48] = "";

				nm = mem_shared_name(it, at, &rel);
				if (it->blk != w->b)    /* tcgen05 with cta_group::2: the peer's */
					snprintf(cta, sizeof cta, " in CTA rank %d", it->blk->rank);
				interp_fail(w, op, 0, it->blk->shadow[at] == SH_PENDING
					    ? "%s reads shared memory that an asynchronous copy in flight will write (wait for it first: its mbarrier, or cp.async.wait): byte offset %lld of '%s'%s"
					    : "%s reads uninitialized shared memory: byte offset %lld of '%s'%s, which nothing wrote",
					    ir_opinfo[op->opc].name, (long long)rel, nm, cta);
				return -1;
			}
			if ((it->blk->gen[at].thread || it->blk->gen[at + eb - 1].thread) && proxy_check(w, op, 0, at, eb) != 0)
				return -1;
			memcpy(&v, it->blk->smem + at, (size_t)eb);
			if (out)
				out[r * nk + k] = num_to_double(et, v);
			lo = at < lo ? at : lo;
			hi = at + eb > hi ? at + eb : hi;
		}
	*lo_ = lo;
	*hi_ = hi;
	return 0;
}

/* One wgmma operand tile (16 k) read through its descriptor; its bytes stay read until the
 * warp's current group retires. */
static int
desc_read(Warp *w, const IrOp *op, uint64_t desc, int mn, int r0, int nrows, IrBase et, double *out)
{
	int64_t lo, hi;

	if (async_desc_read(w, op, desc, mn, r0, nrows, et, out, &lo, &hi) != 0)
		return -1;
	async_read_record(w, op, w->wgmma_groups, 0, lo, hi);
	return 0;
}

/* An element of a tf32 operand: the f32 bits with the low 13 mantissa bits dropped (the
 * tensor cores read 19 of the 32 bits; the ISA leaves how to the hardware, modelled here as
 * truncation). Other kinds are their element type. */
static void
tf32_round(int kind, double *x, int count)
{
	int i;

	if (kind != IR_MMA_TF32)
		return;
	for (i = 0; i < count; i++)
		x[i] = num_f32(num_f32_bits((float)x[i]) & ~0x1fffu);
}

/* wgmma m64nNk(16|32|8) for this warp's 16 rows of the tile (warp w % 4 of its
 * warpgroup): per accumulator element, the k products (exact in double) summed in k order
 * in double, added to the f32 accumulator and rounded once to f32. */
void
ex_wgmma(Warp *w, const IrOp *op, uint32_t mask)
{
	int n = (int)(op->imm & 0xffff), kind = (int)(op->imm >> 16 & 0xf), step = IR_WGMMA_STEP(op->imm);
	IrBase et = ir_mma_kind_base(kind);
	int nk = ir_mma_kind_k(kind);
	IrType at = ir_vtype(w->it->k, op->args[1]);
	const uint64_t *descb = reg(w, op->args[2], 0), *scale = reg(w, op->args[3], 0);
	double a[16 * 32], *b = xmalloc((size_t)n * 32 * sizeof *b);
	int wq = w->id % 4, l, i, k;

	if (mask != w->exists) {
		char in[128];

		lanes_str(in, sizeof in, mask);
		interp_fail(w, op, mask, "divergent wgmma: executed by %s of the warp (it needs the whole warpgroup)", in);
		goto out;
	}
	if (at.base == IR_I64) {
		if (desc_read(w, op, reg(w, op->args[1], 0)[__builtin_ctz(mask)], 0, 16 * wq, 16, et, a) != 0)
			goto out;
	} else {
		/* the register A fragment (16-bit kinds, k16): element e of k16 slice `step` in
		 * lane l is row l / 4 + 8 ((e / 2) % 2), column 8 (e / 4) + 2 (l % 4) + e % 2 */
		LANES(l, mask) for (i = 0; i < 8; i++)
			a[(l / 4 + 8 * (i / 2 % 2)) * 16 + 8 * (i / 4) + 2 * (l % 4) + i % 2] =
				num_to_double(et, reg(w, op->args[1], 8 * step + i)[l]);
	}
	if (desc_read(w, op, descb[__builtin_ctz(mask)], (op->imm & IR_WGMMA_BT) != 0, 0, n, et, b) != 0)
		goto out;
	tf32_round(kind, a, 16 * nk);
	tf32_round(kind, b, n * nk);
	LANES(l, mask) for (i = 0; i < n / 2; i++) {
		int row = l / 4 + 8 * (i / 2 % 2), col = 8 * (i / 4) + 2 * (l % 4) + i % 2;
		double s = 0;
		float r;

		for (k = 0; k < nk; k++)
			s += a[row * nk + k] * b[col * nk + k];
		r = (float)((scale[l] & 1 ? (double)num_f32(reg(w, op->args[0], i)[l]) : 0.0) + s);
		reg(w, op->res[0], i)[l] = r == r ? num_f32_bits(r) : NUM_F32_NAN;
	}
	/* the accumulator, and the A fragment of the RS form, belong to the wgmma until its
	 * group retires */
	exec_acc_tag(w, op->res[0], op);
	if (at.base != IR_I64)
		exec_acc_tag(w, op->args[1], op);
	if (w->it->trace)
		trace_wgmma(w, op);
out:
	free(b);
}

/* wgmma.fence and wgmma.wait return their operands (the wgmma ran at issue). */
void
ex_wgmma_pass(Warp *w, const IrOp *op, uint32_t mask)
{
	int i, e, l;

	for (i = 0; i < op->nres; i++) {
		exec_acc_copy(w, op->res[i], op->args[i]);
		for (e = 0; e < w->it->width[op->res[i]]; e++) {
			uint64_t *d = reg(w, op->res[i], e), *s = reg(w, op->args[i], e);

			LANES(l, mask) d[l] = s[l];
		}
	}
}

/* setmaxnreg changes nothing the interpreter models; it checks the count (24 to 256, a
 * multiple of 8, as ptxas demands) and that the whole warp executes it. */
void
ex_setmaxnreg(Warp *w, const IrOp *op, uint32_t mask)
{
	int64_t n = op->imm < 0 ? -op->imm : op->imm;

	if (mask != w->exists) {
		interp_fail(w, op, mask, "divergent setmaxnreg: executed by part of the warp (it needs the whole warpgroup)");
		return;
	}
	if (n < 24 || n > 256 || n % 8)
		interp_fail(w, op, 0, "setmaxnreg to %lld registers (it takes 24 to 256, a multiple of 8)", (long long)n);
}

/* ---- clusters ---- */

/* cluster.rank: the CTA's rank; mapa: the pointer into the shared memory of rank b. */
void
ex_cluster(Warp *w, const IrOp *op, uint32_t mask)
{
	uint64_t *d = reg(w, op->res[0], 0);
	int l;

	LANES(l, mask) {
		if (op->opc == IR_CLUSTER_RANK) {
			d[l] = (uint64_t)w->b->rank;
			continue;
		}
		uint64_t r = reg(w, op->args[1], 0)[l];

		if (r >= (uint64_t)w->it->ncta) {
			interp_fail(w, op, 1u << l, "mapa to cluster rank %lld of %d", (long long)r, w->it->ncta);
			return;
		}
		d[l] = mem_ptr_at_rank(reg(w, op->args[0], 0)[l], (int)r);
	}
}

void
ex_cluster_sync(Warp *w, const IrOp *op, uint32_t mask)
{
	char in[128];

	if (mask != w->exists) {
		lanes_str(in, sizeof in, mask);
		interp_fail(w, op, mask, "divergent cluster.sync: executed by %s of the warp (it needs every thread of the cluster)", in);
		return;
	}
	w->csyncs++;
	sched_barrier(w, op, W_CLUSTER);
}
