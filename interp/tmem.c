/* tmem.c: tensor memory and the ordering of its asynchronous accesses (docs/interpreter.md,
 * "Tensor memory and tcgen05").
 *
 * - Each CTA has 128 lanes x 512 columns of 32-bit cells, allocated by columns:
 *   tmem.alloc (a warp; n a power of two, 32..512, at a multiple of n) blocks while no
 *   room is free (W_TMEM), tmem.dealloc frees exactly an allocation of the same warp, and
 *   after tmem.relinquish the CTA allocates no more. Columns still allocated when the
 *   block finishes are a finding at their tmem.alloc. With cta_group::2 one warp of each
 *   CTA of a pair allocates: the first waits, the second allocates in both.
 * - tcgen05.ld/st (the 32x32b shape) move a warp's 32 lanes, those of its quarter
 *   32 * (warp % 4), one cell per column; with f16 registers (.pack::16b, .unpack::16b:
 *   an f16 accumulator) the low half of each cell, a store zeroing the high half. The
 *   values of an ld are defined only after tcgen05.wait.ld (its results are tagged until
 *   then: exec.c, acc_check).
 * - Ordering is a happens-before relation over numbered accesses: each warp (of the CTA
 *   pair: tc_id) numbers its
 *   tcgen05.mma, ld and st; a TcClock holds per warp and kind the last number ordered.
 *   tcgen05.fence.before publishes the warp's completed ld/st (wait.ld, wait.st) and what
 *   it knows into `rel`; an mbarrier arrival (tcgen05.commit: with its mmas, once they
 *   completed) carries `rel` into the barrier, whose completed phase hands it to the
 *   warps whose wait returns (`acq`), as a block barrier hands every warp's `rel` to all;
 *   tcgen05.fence.after makes `acq` known (`kn`). Every (quarter, column) keeps its last
 *   write (mma or st) and last read (ld, or an mma's A in tensor memory) with their
 *   numbers: an ld (or mma) of a write not known to the reader is a read before commit; an
 *   mma, st or dealloc over a read (or another warp's write) not known to the writer is
 *   the accumulator WAR race, or for A a store over an operand an mma still reads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define TM_LANES 128
#define TM_COLS 512

/* The last write and read of one column of one lane quarter. */
typedef struct TmemMeta {
	const IrOp *w_op, *r_op;
	uint32_t w_seq, r_seq;          /* the writer's (reader's) number of that access */
	int8_t w_kind;                  /* TC_MMA, TC_ST, or -1: nothing wrote it since alloc */
	int8_t r_kind;                  /* TC_LD, or TC_MMA: an mma's A operand */
	int8_t w_warp, r_warp;          /* warp ids; r_warp -1: no read since the write */
} TmemMeta;

/* An mbarrier's clocks: what its arrivals carried so far, and up to its last completed phase. */
typedef struct BarClock {
	TcClock cur, done;
} BarClock;

typedef struct Tmem {
	uint32_t cells[TM_LANES * TM_COLS];
	TmemMeta meta[4][TM_COLS];
	int8_t owner[TM_COLS];          /* the allocating warp + 1, 0: free */
	int16_t alloc_n[TM_COLS];       /* at an allocation's first column: its columns */
	const IrOp *alloc_op[TM_COLS];
	const IrOp *freed_op[TM_COLS];  /* the last dealloc of the column */
	int8_t freed_warp[TM_COLS];
	const IrOp *relinquish;         /* the CTA's tmem.relinquish, or NULL */
	int relinquish_warp;
	BarClock *clocks;
	int nclocks, capclocks;
	/* the pair's even CTA: a cta_group::2 alloc whose warp waits for the peer CTA's */
	Warp *pair_w;
	int pair_n, pair_lane;
	uint64_t pair_slot;
} Tmem;

static Tmem *
tm_get(Block *b)
{
	if (!b->tm) {   /* freed with the block (mem_free) */
		b->tm = xcalloc(1, sizeof *b->tm);
		tmem_block_start(NULL, b);
	}
	return b->tm;
}

uint32_t *
tmem_cell(Block *b, int lane, int col)
{
	return &b->tm->cells[lane * TM_COLS + col];
}

void
tmem_block_start(Interp *it, Block *b)
{
	Tmem *tm = b->tm;
	int q, c;

	(void)it;
	if (!tm)
		return;
	memset(tm->owner, 0, sizeof tm->owner);
	memset(tm->alloc_n, 0, sizeof tm->alloc_n);
	memset(tm->alloc_op, 0, sizeof tm->alloc_op);
	memset(tm->freed_op, 0, sizeof tm->freed_op);
	for (q = 0; q < 4; q++)
		for (c = 0; c < TM_COLS; c++) {
			memset(&tm->meta[q][c], 0, sizeof tm->meta[q][c]);
			tm->meta[q][c].w_kind = -1;
			tm->meta[q][c].r_warp = -1;
		}
	tm->relinquish = NULL;
	tm->nclocks = 0;
	tm->pair_w = NULL;
}

void
tmem_free(Block *b)
{
	if (b->tm)
		free(b->tm->clocks);
	free(b->tm);
	b->tm = NULL;
}

int
tmem_block_end(Interp *it, Block *b)
{
	Tmem *tm = b->tm;
	int c;

	if (!tm)
		return 0;
	for (c = 0; c < TM_COLS; c++)
		if (tm->alloc_n[c]) {
			Warp *w = &it->warps[b->rank * it->nwarps + tm->owner[c] - 1];

			interp_fail(w, tm->alloc_op[c], 0,
				    "the block finished with columns %d-%d of tensor memory that this tmem.alloc allocated still allocated: tmem.dealloc them before the kernel exits (a leak)",
				    c, c + tm->alloc_n[c] - 1);
			return -1;
		}
	return 0;
}

/* ---- the ordering clocks ---- */

/* A warp's index in the clocks: its place in its CTA pair. */
static int
tc_id(const Warp *w)
{
	return (w->b->rank & 1) * w->it->nwarps + w->id;
}

/* The warp of clock index i in the pair of CTA b, as the reports name it: "warp 1", or
 * "warp 1 of CTA rank 1" in a cluster. */
static const char *
tc_who(const Interp *it, const Block *b, int i, char *buf, size_t size)
{
	const Warp *o = &it->warps[(b->rank & ~1) * it->nwarps + i];

	if (it->ncta > 1)
		snprintf(buf, size, "warp %d of CTA rank %d", o->id, o->b->rank);
	else
		snprintf(buf, size, "warp %d", o->id);
	return buf;
}

static const Warp *
tc_warp(const Interp *it, const Block *b, int i)
{
	return &it->warps[(b->rank & ~1) * it->nwarps + i];
}

static void
clock_max(TcClock *d, const TcClock *s)
{
	int k, i;

	for (k = 0; k < TC_KINDS; k++)
		for (i = 0; i < 32; i++)
			if (d->v[k][i] < s->v[k][i])
				d->v[k][i] = s->v[k][i];
}

/* tcgen05.fence.before (also implied by tcgen05.commit): the warp's completed lds and sts,
 * and what it knows, are ordered before its next arrive or barrier. */
void
tmem_fence_before(Warp *w)
{
	TcWarp *t = &w->tc;

	clock_max(&t->rel, &t->kn);
	if (t->rel.v[TC_LD][tc_id(w)] < t->done[TC_LD])
		t->rel.v[TC_LD][tc_id(w)] = t->done[TC_LD];
	if (t->rel.v[TC_ST][tc_id(w)] < t->done[TC_ST])
		t->rel.v[TC_ST][tc_id(w)] = t->done[TC_ST];
	t->any = 1;
}

static BarClock *
bar_clock(Block *b, Mbar *m)
{
	Tmem *tm = tm_get(b);

	if (!m->tc) {
		if (tm->nclocks == tm->capclocks) {
			tm->capclocks = tm->capclocks ? 2 * tm->capclocks : 8;
			tm->clocks = xrealloc(tm->clocks, (size_t)tm->capclocks * sizeof *tm->clocks);
		}
		memset(&tm->clocks[tm->nclocks], 0, sizeof *tm->clocks);
		m->tc = ++tm->nclocks;
	}
	return &tm->clocks[m->tc - 1];
}

void
tmem_arrive(Warp *w, Mbar *m)
{
	clock_max(&bar_clock(w->it->blk, m)->cur, &w->tc.rel);
}

void
tmem_phase(Interp *it, Mbar *m)
{
	BarClock *c = bar_clock(it->blk, m);

	clock_max(&c->done, &c->cur);
}

void
tmem_acquire(Warp *w, const Mbar *m)
{
	clock_max(&w->tc.acq, &w->it->blk->tm->clocks[m->tc - 1].done);
}

/* A barrier over the n warps from ws: each takes what all of them published. */
static void
merge_rel(Warp *ws, int n)
{
	TcClock all;
	int i;

	memset(&all, 0, sizeof all);
	for (i = 0; i < n; i++)
		if (ws[i].tc.any)
			clock_max(&all, &ws[i].tc.rel);
	for (i = 0; i < n; i++)
		clock_max(&ws[i].tc.acq, &all);
}

void
tmem_cluster_barrier(Interp *it)
{
	int p;

	for (p = 0; p < it->ncta; p += 2)       /* the clocks order the warps of a CTA pair */
		merge_rel(&it->warps[p * it->nwarps], (p + 1 < it->ncta ? 2 : 1) * it->nwarps);
}

void
tmem_barrier(Interp *it, Block *b)
{
	merge_rel(&it->warps[b->rank * it->nwarps], it->nwarps);
}

void
ex_tcgen05_fence(Warp *w, const IrOp *op, uint32_t mask)
{
	(void)mask;
	if (op->opc == IR_TCGEN05_FENCE_BEFORE)
		tmem_fence_before(w);
	else
		clock_max(&w->tc.kn, &w->tc.acq);
}

/* Whether warp w knows access number seq of kind k by warp `by` happened before (its own
 * ld and st: once waited for). */
static int
known(const Warp *w, int k, int by, uint32_t seq)
{
	if (by == tc_id(w) && k != TC_MMA)
		return seq <= w->tc.done[k];
	return seq <= w->tc.kn.v[k][by];
}

/* ---- allocation ---- */

/* The first free run of n columns at a multiple of n, or -1. */
static int
fit(const Tmem *tm, int n)
{
	int s, c;

	for (s = 0; s + n <= TM_COLS; s += n) {
		for (c = s; c < s + n && !tm->owner[c]; c++)
			;
		if (c == s + n)
			return s;
	}
	return -1;
}

/* The pair state of w's CTA pair (in the even CTA). */
static Tmem *
pair_tm(Warp *w)
{
	return tm_get(&w->it->ctas[w->b->rank & ~1]);
}

int
tmem_ready(const Interp *it, const Warp *w)
{
	if (w->wait_bar < 0)    /* cta_group::2: until the peer's warp allocated for both */
		return it->ctas[w->b->rank & ~1].tm->pair_w != w;
	return fit(w->b->tm, (int)w->wait_bar) >= 0;
}

void
tmem_wait_str(const Interp *it, const Warp *w, Buf *msg)
{
	int c, used = 0;

	(void)it;
	if (w->wait_bar < 0) {
		buf_printf(msg, "in tmem.alloc with cta_group::2 for the warp of the peer CTA (rank %d) to allocate too",
			   w->b->rank ^ 1);
		return;
	}
	for (c = 0; c < TM_COLS; c++)
		used += w->b->tm->owner[c] != 0;
	buf_printf(msg, "in tmem.alloc for %lld columns of tensor memory (%d of 512 allocated)", (long long)w->wait_bar,
		   used);
}

/* The column count of an alloc or dealloc: a power of two 32..512, else a finding (-1). */
static int
ncols(Warp *w, const IrOp *op)
{
	int n = (int)(op->imm & 0xffff);

	if (n >= 32 && n <= TM_COLS && !(n & (n - 1)))
		return n;
	interp_fail(w, op, 0, "%s of %d columns (a power of two from 32 to 512)", ir_opinfo[op->opc].name, n);
	return -1;
}

/* The warp-uniform operand of a warp-collective op: every lane gives the same value. */
static int
uniform(Warp *w, const IrOp *op, uint32_t mask, int arg, uint64_t *v)
{
	const uint64_t *a = reg(w, op->args[arg], 0);
	int l, f = __builtin_ctz(mask);

	LANES(l, mask) if (a[l] != a[f]) {
		interp_fail(w, op, (1u << f) | (1u << l), "%s with different addresses in lanes %d and %d (it takes one for the warp)",
			    ir_opinfo[op->opc].name, f, l);
		return -1;
	}
	*v = a[f];
	return 0;
}

/* The CTA b may still allocate: else (after tmem.relinquish) a finding (-1). */
static int
permit(Warp *w, const IrOp *op, Block *b)
{
	Tmem *tm = tm_get(b);

	if (!tm->relinquish)
		return 0;
	interp_fail(w, op, 0, "tmem.alloc after the tmem.relinquish at line %d:%d (warp %d%s): the CTA gave up its permit to allocate tensor memory",
		    tm->relinquish->loc.line, tm->relinquish->loc.col, tm->relinquish_warp, b == w->b ? "" : " of the peer CTA");
	return -1;
}

/* Columns [s, s + n) of w's CTA become w's; their address goes to the slot (lane l's
 * store, in CTA it->blk). 0, or -1 after a finding. */
static int
alloc_at(Warp *w, const IrOp *op, int l, uint64_t slot, int s, int n)
{
	Tmem *tm = w->b->tm;
	unsigned char *p = mem_access(w, op, l, slot, 4, 4, 1);
	uint32_t addr = (uint32_t)s;
	int c;

	if (!p)
		return -1;
	for (c = s; c < s + n; c++)
		tm->owner[c] = (int8_t)(w->id + 1);
	tm->alloc_n[s] = (int16_t)n;
	tm->alloc_op[s] = op;
	memcpy(p, &addr, 4);
	return 0;
}

/* The first run of n columns free in both CTAs of w's pair, or -1. */
static int
pair_fit(const Interp *it, const Warp *w, int n)
{
	const Tmem *a = it->ctas[w->b->rank & ~1].tm, *b = it->ctas[w->b->rank | 1].tm;
	int s, c;

	for (s = 0; s + n <= TM_COLS; s += n) {
		for (c = s; c < s + n && !a->owner[c] && !b->owner[c]; c++)
			;
		if (c == s + n)
			return s;
	}
	return -1;
}

/* tmem.alloc with cta_group::2: one warp in each CTA of the pair; the first waits for the
 * second, which allocates the same columns in both and writes both slots. */
static void
pair_alloc(Warp *w, const IrOp *op, int l, int n, uint64_t slot)
{
	Interp *it = w->it;
	Tmem *pt;
	Warp *first;
	int s;

	if (it->ncta < 2 || it->ncta % 2) {
		interp_fail(w, op, 0, "tmem.alloc with cta_group::2 in a cluster of %d CTA%s (the pair is two CTAs of a cluster)", it->ncta,
			    it->ncta == 1 ? "" : "s");
		return;
	}
	tm_get(&it->ctas[w->b->rank ^ 1]);
	pt = pair_tm(w);
	if (!pt->pair_w || pt->pair_w->b == w->b) {
		if (pt->pair_w) {
			interp_fail(w, op, 0, "tmem.alloc with cta_group::2 by warps %d and %d of one CTA (one warp of each CTA of the pair allocates)",
				    pt->pair_w->id, w->id);
			return;
		}
		pt->pair_w = w;
		pt->pair_n = n;
		pt->pair_lane = l;
		pt->pair_slot = slot;
		w->wait_bar = -1;
		sched_barrier(w, op, W_TMEM);
		return;
	}
	first = pt->pair_w;
	if (pt->pair_n != n) {
		interp_fail(w, op, 0, "tmem.alloc with cta_group::2 of %d columns, while the peer CTA's warp %d asks for %d", n, first->id,
			    pt->pair_n);
		return;
	}
	if (permit(w, op, first->b) != 0)
		return;
	if ((s = pair_fit(it, w, n)) < 0) {
		interp_fail(w, op, 0, "not yet supported by the interpreter: a tmem.alloc with cta_group::2 that waits for room (%d columns free in neither CTA of the pair)",
			    n);
		return;
	}
	if (alloc_at(w, op, l, slot, s, n) != 0)
		return;
	it->blk = first->b;
	alloc_at(first, first->wait_op, pt->pair_lane, pt->pair_slot, s, n);
	it->blk = w->b;
	pt->pair_w = NULL;
}

void
ex_tmem_alloc(Warp *w, const IrOp *op, uint32_t mask)
{
	Tmem *tm;
	int n, s, l = __builtin_ctz(mask);
	uint64_t slot;

	if (!exec_full_warp(w, op, mask) || (n = ncols(w, op)) < 0 || uniform(w, op, mask, 0, &slot) ||
	    permit(w, op, w->b) != 0)
		return;
	if (op->imm >> 16 & 1) {
		pair_alloc(w, op, l, n, slot);
		return;
	}
	tm = w->b->tm;
	while ((s = fit(tm, n)) < 0) {  /* blocks until another warp frees columns */
		w->wait_bar = n;
		sched_barrier(w, op, W_TMEM);
		if (w->it->failed)
			return;
	}
	alloc_at(w, op, l, slot, s, n);
}

void
ex_tmem_relinquish(Warp *w, const IrOp *op, uint32_t mask)
{
	Tmem *tm;

	if (!exec_full_warp(w, op, mask))
		return;
	tm = tm_get(w->b);
	if (!tm->relinquish) {
		tm->relinquish = op;
		tm->relinquish_warp = w->id;
	}
}

/* The allocation holding column c: its first column, or -1 when c is free. */
static int
alloc_start(const Tmem *tm, int c)
{
	if (c < 0 || c >= TM_COLS || !tm->owner[c])
		return -1;
	while (!tm->alloc_n[c])
		c--;
	return c;
}

/* Columns [c, c + n) are one allocation of warp w's; else a finding (-1). */
static int
dealloc_check(Warp *w, const IrOp *op, const Tmem *tm, int c, int n)
{
	int s = alloc_start(tm, c);
	const IrOp *a;

	if (s < 0 && c < TM_COLS && tm->freed_op[c]) {
		interp_fail(w, op, 0, "tmem.dealloc of columns %d-%d, which the tmem.dealloc at line %d:%d (warp %d) freed already (a double free)",
			    c, c + n - 1, tm->freed_op[c]->loc.line, tm->freed_op[c]->loc.col, tm->freed_warp[c]);
		return -1;
	}
	if (s < 0) {
		interp_fail(w, op, 0, "tmem.dealloc of columns %d-%d, which are not allocated", c, c + n - 1);
		return -1;
	}
	a = tm->alloc_op[s];
	if (s != c || tm->alloc_n[s] != n) {
		interp_fail(w, op, 0, "tmem.dealloc of columns %d-%d, which are not the allocation of columns %d-%d by the tmem.alloc at line %d:%d",
			    c, c + n - 1, s, s + tm->alloc_n[s] - 1, a->loc.line, a->loc.col);
		return -1;
	}
	if (tm->owner[s] != w->id + 1) {
		interp_fail(w, op, 0, "tmem.dealloc by warp %d of columns %d-%d, which warp %d allocated (the tmem.alloc at line %d:%d): the warp that allocates tensor memory must free it",
			    w->id, c, c + n - 1, tm->owner[s] - 1, a->loc.line, a->loc.col);
		return -1;
	}
	return 0;
}

/* ---- access checks ---- */

/* Columns [c, c + n) lie inside allocations; else a finding (-1). */
static int
cols_allocated(Warp *w, const IrOp *op, const Block *bk, int c, int n)
{
	const Tmem *tm = bk->tm;
	int i;

	for (i = c; i < c + n; i++)
		if (i >= TM_COLS || !tm || !tm->owner[i]) {
			interp_fail(w, op, 0, "%s of tensor memory columns %d-%d, which are not allocated (column %d)", ir_opinfo[op->opc].name,
				    c, c + n - 1, i);
			return -1;
		}
	return 0;
}

/* A read (ld, or the accumulator of an mma) of column c of quarter q by warp w: the last
 * write must be ordered before it. 0, or -1 after a finding. */
static int
read_check(Warp *w, const IrOp *op, const Block *bk, int q, int c)
{
	const TmemMeta *m = &bk->tm->meta[q][c];
	const Warp *by;
	char who[64];

	if (m->w_kind < 0 && op->opc == IR_TCGEN05_MMA) {
		interp_fail(w, op, 0, "tcgen05.mma accumulates (enable-input-d) into tensor memory that nothing wrote since tmem.alloc: lane %d column %d (the first mma of a tile must not accumulate)",
			    32 * q, c);
		return -1;
	}
	if (m->w_kind < 0) {
		interp_fail(w, op, 0, "%s reads tensor memory that nothing wrote since tmem.alloc: lane %d column %d", ir_opinfo[op->opc].name,
			    32 * q, c);
		return -1;
	}
	if (known(w, m->w_kind, m->w_warp, m->w_seq) || (op->opc == IR_TCGEN05_MMA && m->w_kind == TC_MMA && m->w_warp == tc_id(w)))
		return 0;
	by = tc_warp(w->it, bk, m->w_warp);
	tc_who(w->it, bk, m->w_warp, who, sizeof who);
	if (m->w_kind == TC_MMA) {
		interp_fail(w, op, 0,
			    "%s reads tensor memory that the tcgen05.mma at line %d:%d (%s) writes, and no tcgen05.commit that tracks it ordered the write before this read (read before commit: wait on the commit's mbarrier, then tcgen05.fence.after)%s: lane %d column %d",
			    ir_opinfo[op->opc].name, m->w_op->loc.line, m->w_op->loc.col, who,
			    m->w_seq > by->tc.done[TC_MMA] ? "; the mma is still in flight" : "", 32 * q, c);
		return -1;
	}
	if (m->w_warp == tc_id(w)) {
		interp_fail(w, op, 0, "%s reads tensor memory that this warp's tcgen05.st at line %d:%d writes before tcgen05.wait.st completed it: lane %d column %d",
			    ir_opinfo[op->opc].name, m->w_op->loc.line, m->w_op->loc.col, 32 * q, c);
		return -1;
	}
	interp_fail(w, op, 0,
		    "%s reads tensor memory that the tcgen05.st at line %d:%d (%s) writes, and nothing orders the write before this read (the writer's tcgen05.wait.st and tcgen05.fence.before, then an arrive this warp waits for, then tcgen05.fence.after): lane %d column %d",
		    ir_opinfo[op->opc].name, m->w_op->loc.line, m->w_op->loc.col, who, 32 * q, c);
	return -1;
}

/* A write (mma, st) or dealloc of column c of quarter q by warp w: the last read and
 * another warp's last write must be ordered before it. 0, or -1 after a finding. */
static int
write_check(Warp *w, const IrOp *op, const Block *bk, int q, int c)
{
	const TmemMeta *m = &bk->tm->meta[q][c];
	const Warp *by;
	char who[64];

	if (m->r_warp >= 0 && m->r_kind == TC_MMA && !(op->opc == IR_TCGEN05_MMA && m->r_warp == tc_id(w)) &&
	    !known(w, TC_MMA, m->r_warp, m->r_seq)) {
		by = tc_warp(w->it, bk, m->r_warp);
		interp_fail(w, op, 0,
			    "%s overwrites tensor memory that the tcgen05.mma at line %d:%d (%s) reads as its A operand, and no tcgen05.commit that tracks that mma ordered its read before this write (wait on the commit's mbarrier, then tcgen05.fence.after)%s: lane %d column %d",
			    ir_opinfo[op->opc].name, m->r_op->loc.line, m->r_op->loc.col, tc_who(w->it, bk, m->r_warp, who, sizeof who),
			    m->r_seq > by->tc.done[TC_MMA] ? "; the mma is still in flight" : "", 32 * q, c);
		return -1;
	}
	if (m->r_warp >= 0 && m->r_kind == TC_LD && !known(w, TC_LD, m->r_warp, m->r_seq)) {
		interp_fail(w, op, 0,
			    "%s overwrites tensor memory that %s read with the tcgen05.ld at line %d:%d, and nothing orders that read before this write (accumulator WAR: the reader's tcgen05.wait.ld and tcgen05.fence.before, then an arrive this thread waits for, then tcgen05.fence.after): lane %d column %d",
			    ir_opinfo[op->opc].name, tc_who(w->it, bk, m->r_warp, who, sizeof who), m->r_op->loc.line, m->r_op->loc.col,
			    32 * q, c);
		return -1;
	}
	if (m->w_kind < 0 || known(w, m->w_kind, m->w_warp, m->w_seq))
		return 0;
	by = tc_warp(w->it, bk, m->w_warp);
	tc_who(w->it, bk, m->w_warp, who, sizeof who);
	if (m->w_kind == TC_MMA && m->w_warp == tc_id(w) && op->opc != IR_TMEM_DEALLOC)
		return 0;       /* a thread's mmas and sts are pipelined in order */
	if (m->w_kind == TC_MMA && m->w_seq > by->tc.done[TC_MMA] && op->opc == IR_TMEM_DEALLOC) {
		interp_fail(w, op, 0, "tmem.dealloc of tensor memory that the tcgen05.mma at line %d:%d (%s) still writes (in flight: no tcgen05.commit that tracks it was waited for): lane %d column %d",
			    m->w_op->loc.line, m->w_op->loc.col, who, 32 * q, c);
		return -1;
	}
	interp_fail(w, op, 0, "%s of tensor memory that the %s at line %d:%d (%s) writes, and nothing orders that write before this one: lane %d column %d",
		    ir_opinfo[op->opc].name, m->w_kind == TC_MMA ? "tcgen05.mma" : "tcgen05.st", m->w_op->loc.line, m->w_op->loc.col,
		    who, 32 * q, c);
	return -1;
}

int
tmem_mma_issue(Warp *w, const IrOp *op, Block *bk, uint32_t taddr, int mrows, int n, int accum)
{
	int c0 = (int)(taddr & 0xffff), q, c;
	TmemMeta *m;

	if (taddr >> 16) {
		interp_fail(w, op, 0, "tcgen05.mma into tensor memory at lane %u (an M = %d accumulator starts at lane 0)", taddr >> 16, mrows);
		return -1;
	}
	if (cols_allocated(w, op, bk, c0, n) != 0)
		return -1;
	for (q = 0; q < mrows / 32; q++)
		for (c = c0; c < c0 + n; c++)
			if (write_check(w, op, bk, q, c) != 0 || (accum && read_check(w, op, bk, q, c) != 0))
				return -1;
	for (q = 0; q < mrows / 32; q++)
		for (c = c0; c < c0 + n; c++) {
			m = &bk->tm->meta[q][c];
			m->w_kind = TC_MMA;
			m->w_warp = (int8_t)tc_id(w);
			m->w_seq = w->tc.issued[TC_MMA];
			m->w_op = op;
			m->r_warp = -1;
		}
	return 0;
}

int
tmem_mma_read_a(Warp *w, const IrOp *op, Block *bk, uint32_t taddr, int mrows, int ncols)
{
	int c0 = (int)(taddr & 0xffff), q, c;
	TmemMeta *m;

	if (taddr >> 16) {
		interp_fail(w, op, 0, "tcgen05.mma reads A from tensor memory at lane %u (an M = %d operand starts at lane 0)", taddr >> 16,
			    mrows);
		return -1;
	}
	if (cols_allocated(w, op, bk, c0, ncols) != 0)
		return -1;
	for (q = 0; q < mrows / 32; q++)
		for (c = c0; c < c0 + ncols; c++) {
			if (bk->tm->meta[q][c].w_kind < 0) {
				interp_fail(w, op, 0, "tcgen05.mma reads A from tensor memory that nothing wrote since tmem.alloc: lane %d column %d",
					    32 * q, c);
				return -1;
			}
			if (read_check(w, op, bk, q, c) != 0)
				return -1;
		}
	for (q = 0; q < mrows / 32; q++)
		for (c = c0; c < c0 + ncols; c++) {
			m = &bk->tm->meta[q][c];
			m->r_kind = TC_MMA;
			m->r_warp = (int8_t)tc_id(w);
			m->r_seq = w->tc.issued[TC_MMA];
			m->r_op = op;
		}
	return 0;
}

void
ex_tmem_dealloc(Warp *w, const IrOp *op, uint32_t mask)
{
	Tmem *tm = w->b->tm;
	uint64_t a;
	int n, c0, q, c;

	if (!exec_full_warp(w, op, mask) || (n = ncols(w, op)) < 0 || uniform(w, op, mask, 0, &a))
		return;
	c0 = (int)(a & 0xffff);
	if (a >> 16) {
		interp_fail(w, op, 0, "tmem.dealloc of the address %#llx (lane %llu: an allocation's address has lane 0)", (unsigned long long)a,
			    (unsigned long long)(a >> 16));
		return;
	}
	if (!tm) {
		interp_fail(w, op, 0, "tmem.dealloc of columns %d-%d, which are not allocated", c0, c0 + n - 1);
		return;
	}
	if (dealloc_check(w, op, tm, c0, n) != 0)
		return;
	for (q = 0; q < 4; q++)
		for (c = c0; c < c0 + n; c++)
			if (write_check(w, op, w->b, q, c) != 0)
				return;
	tm->alloc_n[c0] = 0;
	for (c = c0; c < c0 + n; c++) {
		tm->owner[c] = 0;
		tm->freed_op[c] = op;
		tm->freed_warp[c] = (int8_t)w->id;
		for (q = 0; q < 4; q++) {
			tm->meta[q][c].w_kind = -1;
			tm->meta[q][c].r_warp = -1;
		}
	}
}

/* ---- ld, st, wait ---- */

/* The warp's ld/st address: uniform, in its lane quarter, over allocated columns; its
 * quarter and first column. 0, or -1 after a finding. */
static int
ldst_at(Warp *w, const IrOp *op, uint32_t mask, int n, int *q, int *c0)
{
	uint64_t a;
	int lane, want = 32 * (w->id % 4);

	if (!exec_full_warp(w, op, mask) || uniform(w, op, mask, 0, &a))
		return -1;
	lane = (int)(a >> 16 & 0xffff);
	*c0 = (int)(a & 0xffff);
	if (lane != want) {
		interp_fail(w, op, 0, "%s by warp %d of tensor memory lanes %d-%d: a warp reaches only the 32 lanes of its quarter, 32 * (warp %% 4) = %d-%d (lane-quarter rule)",
			    ir_opinfo[op->opc].name, w->id, lane, lane + 31, want, want + 31);
		return -1;
	}
	*q = lane / 32;
	return cols_allocated(w, op, w->b, *c0, n);
}

void
ex_tcgen05_ld(Warp *w, const IrOp *op, uint32_t mask)
{
	int n = (int)op->imm, q, c0, c, l;
	/* f16 results: the low halves of the cells (.pack::16b; an f16 D's elements) */
	uint32_t low = ir_vtype(w->it->k, op->res[0]).base == IR_F16 ? 0xffff : 0xffffffff;
	TmemMeta *m;

	if (ldst_at(w, op, mask, n, &q, &c0) != 0)
		return;
	for (c = c0; c < c0 + n; c++)
		if (read_check(w, op, w->b, q, c) != 0)
			return;
	w->tc.issued[TC_LD]++;
	for (c = c0; c < c0 + n; c++) {
		uint64_t *d = reg(w, op->res[0], c - c0);

		LANES(l, mask) d[l] = *tmem_cell(w->b, 32 * q + l, c) & low;
		m = &w->b->tm->meta[q][c];
		m->r_kind = TC_LD;
		m->r_warp = (int8_t)tc_id(w);
		m->r_seq = w->tc.issued[TC_LD];
		m->r_op = op;
	}
	w->tc.ld_tag[op->res[0]] = w->tc.issued[TC_LD];
	w->tc.ld_op[op->res[0]] = op;
	w->tc.ld_hi = w->tc.issued[TC_LD];
}

void
ex_tcgen05_st(Warp *w, const IrOp *op, uint32_t mask)
{
	int n = (int)op->imm, q, c0, c, l;
	TmemMeta *m;

	if (ldst_at(w, op, mask, n, &q, &c0) != 0)
		return;
	for (c = c0; c < c0 + n; c++)
		if (write_check(w, op, w->b, q, c) != 0)
			return;
	w->tc.issued[TC_ST]++;
	for (c = c0; c < c0 + n; c++) {
		const uint64_t *s = reg(w, op->args[1], c - c0);

		LANES(l, mask) *tmem_cell(w->b, 32 * q + l, c) = (uint32_t)s[l];   /* f16: zero-extended */
		m = &w->b->tm->meta[q][c];
		m->w_kind = TC_ST;
		m->w_warp = (int8_t)tc_id(w);
		m->w_seq = w->tc.issued[TC_ST];
		m->w_op = op;
		m->r_warp = -1;
	}
}

/* tcgen05.wait.ld, tcgen05.wait.st: the warp's lds (sts) completed; wait.ld passes the ld
 * results through (defined from here on). */
void
ex_tcgen05_wait(Warp *w, const IrOp *op, uint32_t mask)
{
	int k = op->opc == IR_TCGEN05_WAIT_LD ? TC_LD : TC_ST;

	if (!exec_full_warp(w, op, mask))
		return;
	w->tc.done[k] = w->tc.issued[k];
	ex_wgmma_pass(w, op, mask);
}
