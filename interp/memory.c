/* memory.c: global tensors and the CTA's shared memory behind checked pointers.
 *
 * A pointer value is (object << 48) | (byte offset & (2^48 - 1)): object 1..nparams is
 * tensor parameter object-1 (its host array), object shared_obj0 + i is shared buffer i
 * (its offset in the CTA's memory, all stages). elemptr only moves the offset, so a
 * pointer may wander out of its object; an access through it is checked against the
 * object's extent (a tensor's elements; a shared buffer's elements over all its stages),
 * the access's natural alignment, and, for shared reads, a shadow byte per byte of shared
 * memory that says whether any thread of the block wrote it.
 *
 * Races: the warps of a block run one at a time from barrier to barrier, so two accesses
 * to a shared byte by different warps between the same two barriers, one of them a write,
 * are unordered on the GPU whatever order the interpreter picked. Each byte keeps the
 * interval's last write and its readers (Access); atomics are ordered and not checked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define OFF_BITS 48
#define OFF_MASK ((((uint64_t)1) << OFF_BITS) - 1)

#define MAX_OBJS 255

uint64_t
mem_ptr_make(int obj, int64_t off)
{
	return (uint64_t)obj << OFF_BITS | ((uint64_t)off & OFF_MASK);
}

static int
ptr_obj(uint64_t p)
{
	return (int)(p >> OFF_BITS & MAX_OBJS);
}

/* 0: the accessing warp's own CTA; r + 1: the cluster's CTA of rank r (from mapa) */
static int
ptr_cta(uint64_t p)
{
	return (int)(p >> 56 & 0x7f);
}

uint64_t
mem_ptr_at_rank(uint64_t p, int r)
{
	return (p & ~((uint64_t)0x7f << 56)) | (uint64_t)(r + 1) << 56;
}

/* The offset, sign-extended from 48 bits. */
static int64_t
ptr_off(uint64_t p)
{
	uint64_t o = p & OFF_MASK;

	if (o >> (OFF_BITS - 1))
		o |= ~OFF_MASK;
	return (int64_t)o;
}

uint64_t
mem_ptr_add(uint64_t p, int64_t bytes)
{
	return (p & ~OFF_MASK) | ((uint64_t)(ptr_off(p) + bytes) & OFF_MASK);
}

int64_t
mem_shared_addr(const Interp *it, uint64_t p)
{
	int obj = ptr_obj(p);

	if (obj <= 0 || obj >= it->nobjs || !it->objs[obj].shared)
		return -1;
	return it->objs[obj].base + ptr_off(p);
}

/* p moved to the swizzled place of its shared address (ir_swizzle); other pointers as
 * they are. */
uint64_t
mem_ptr_swizzle(const Interp *it, uint64_t p, int span)
{
	int obj = ptr_obj(p);
	int64_t at;

	if (obj <= 0 || obj >= it->nobjs || !it->objs[obj].shared)
		return p;
	at = it->objs[obj].base + ptr_off(p);
	return mem_ptr_add(p, ir_swizzle(at, span) - at);
}

static const char *
access_kind(const IrOp *op, int write)
{
	if (ir_is_atomic(op->opc))
		return "atomic";
	if (op->opc == IR_CP_ASYNC)
		return write ? "cp.async write" : "cp.async read";
	return write ? "store" : "load";
}

/* "tensor 'y' (1024 elements of f32)" */
static void
obj_desc(const Interp *it, const MemObj *m, char *out, size_t size)
{
	snprintf(out, size, "%s '%s' (%lld elements of %d bytes)", m->shared ? "shared buffer" : "tensor",
		 m->name, (long long)(m->bytes / m->elem_bytes), m->elem_bytes);
	(void)it;
}

const char *
mem_where(const Interp *it, uint64_t p)
{
	static char out[320];
	int obj = ptr_obj(p);
	int64_t off = ptr_off(p);
	char desc[256];

	if (obj <= 0 || obj >= it->nobjs)
		return "an invalid pointer";
	obj_desc(it, &it->objs[obj], desc, sizeof desc);
	snprintf(out, sizeof out, "byte offset %lld (element %lld) of %s", (long long)off,
		 (long long)(off / it->objs[obj].elem_bytes), desc);
	return out;
}

/* Reports the first byte of the access that another warp touched in this interval with a
 * conflicting access, and records this one. */
static int
race_check(Warp *w, const IrOp *op, int l, const MemObj *m, int64_t off, int n, int write)
{
	Interp *it = w->it;
	uint32_t e = it->blk->epoch, me = 1u << w->id;
	int64_t i;

	for (i = 0; i < n; i++) {
		Access *a = &it->blk->acc[m->base + off + i];
		const IrOp *other = NULL;
		int ow = 0;
		char desc[256];

		if (a->w_epoch == e && a->w_warp != w->id) {
			other = a->w_op;
			ow = a->w_warp;
		} else if (write && a->r_epoch == e && (a->r_mask & ~me)) {
			other = a->r_op;
			ow = __builtin_ctz(a->r_mask & ~me);
		}
		if (other) {
			obj_desc(it, m, desc, sizeof desc);
			interp_fail(w, op, 1u << l,
				    "data race on shared memory: this %s by warp %d and the %s at line %d:%d by warp %d touch byte offset %lld (element %lld) of %s with no barrier between them",
				    access_kind(op, write), w->id, other == a->w_op && a->w_epoch == e ? "store" : "load",
				    other->loc.line, other->loc.col, ow, (long long)(off + i),
				    (long long)((off + i) / m->elem_bytes), desc);
			return -1;
		}
		if (write) {
			a->w_epoch = e;
			a->w_warp = w->id;
			a->w_op = op;
		} else {
			if (a->r_epoch != e) {
				a->r_epoch = e;
				a->r_mask = 0;
			}
			a->r_mask |= me;
			a->r_op = op;
		}
	}
	return 0;
}

/* ---- races on global memory ----
 *
 * Per element of an out or inout tensor (in tensors are never written): the last write and
 * the last two reads by different warps since (GlobalAcc). Two accesses by different
 * threads, one a write, are ordered when the same warp made them (its lanes in one op: see
 * exec.c, lane_conflicts), or the same CTA in different barrier intervals, or CTAs of one
 * cluster with a cluster barrier between them; never across blocks (clusters) of the
 * launch: blocks are not ordered. Atomics do not race with atomics. Coarse like the
 * shared check (an mbarrier phase ends the interval for every warp; only the last two
 * readers are kept): it may miss a race, it reports none that is not one. */

static void
gacc_now(const Warp *w, const IrOp *op, int l, int atomic, GlobalAcc *a)
{
	const Interp *it = w->it;

	a->op = op;
	a->run = it->run;
	a->epoch = w->b->epoch;
	a->block = (int32_t)(w->b->id[0] + it->grid[0] * (w->b->id[1] + it->grid[1] * w->b->id[2]));
	a->warp = (uint16_t)w->gid;
	a->csync = w->csyncs;
	a->lane = (uint8_t)l;
	a->atomic = (uint8_t)atomic;
	a->rls = op->opc == IR_STORE_REL || (atomic && w->fenced);
	a->rel = w->nrel;
}

/* Whether release q follows access a: a by the releasing warp before it, or by a warp of
 * its CTA before a barrier that came before it (a barrier orders the CTA's accesses, and
 * a release passes on what its thread observed: PTX's cumulativity). */
static int
released(const Interp *it, const Acquired *q, const GlobalAcc *a)
{
	if (q->run != a->run)
		return 0;
	if (q->warp == a->warp)
		return q->rel > a->rel;
	return q->warp / it->nwarps == a->warp / it->nwarps && a->epoch < q->epoch;
}

/* Whether access c comes after a release that followed a and that c's warp acquired
 * before it, or another warp of c's CTA acquired before a barrier that came before c.
 * One hop, not transitive: a chain of hand-offs through a third CTA is not followed (a
 * race there may be reported that is none). */
static int
gacc_acquired(const Interp *it, const GlobalAcc *a, const GlobalAcc *c)
{
	const Warp *w = &it->warps[c->warp];
	int i;

	for (i = 0; i < w->nacq && i < MAX_ACQUIRED; i++)
		if (released(it, &w->acq[i], a))
			return 1;
	for (i = 0; i < w->b->nacq && i < MAX_ACQUIRED; i++)
		if (w->b->acq[i].at < c->epoch && released(it, &w->b->acq[i], a))
			return 1;
	return 0;
}

/* Adds q to the ring list (n entries so far, of size max) unless it holds it already: the
 * lanes of one wait acquire the same release, and must not push out older ones. */
static void
acq_add(Acquired *list, int *n, int max, const Acquired *q)
{
	int i;

	for (i = 0; i < *n && i < max; i++)
		if (list[i].run == q->run && list[i].warp == q->warp && list[i].rel == q->rel &&
		    list[i].epoch == q->epoch && list[i].at == q->at)
			return;
	list[(*n)++ % max] = *q;
}

/* Release e acquired by warp w now: for w's later accesses, and its CTA's after a barrier. */
void
mem_acquire(Warp *w, const Acquired *e)
{
	Acquired q = *e;

	q.at = w->b->epoch;
	acq_add(w->acq, &w->nacq, MAX_ACQUIRED, &q);
	acq_add(w->b->acq, &w->b->nacq, MAX_ACQUIRED, &q);
}

/* Warp w's op read element entry e. If its last write is a release, w acquires it: at
 * once by a load.acquire or wait.ge, at its next gpu-scope fence by a relaxed atomic
 * (exec.c, ex_fence). */
static void
gacc_acquire(Warp *w, const IrOp *op, const GlobalAcc *e)
{
	Acquired q;

	if (!e->op || !e->rls || !ir_is_atomic(op->opc))
		return;
	q.run = e->run;
	q.warp = e->warp;
	q.rel = e->rel;
	q.epoch = e->epoch;
	q.at = 0;
	if (op->opc == IR_LOAD_ACQ || op->opc == IR_WAIT_GE)
		mem_acquire(w, &q);
	else
		acq_add(w->pend, &w->npend, MAX_PENDING, &q);
}

/* Whether recorded access a and the access now (c) may happen in either order. */
static int
gacc_unordered(const Interp *it, const GlobalAcc *a, const GlobalAcc *c)
{
	if (!a->op || (a->atomic && c->atomic) || gacc_acquired(it, a, c))
		return 0;
	if (a->run != c->run)
		return 1;
	if (a->warp == c->warp)
		return 0;
	if (a->warp / it->nwarps == c->warp / it->nwarps)
		return a->epoch == c->epoch;
	return a->csync == c->csync;
}

static int
gacc_report(Warp *w, const IrOp *op, int l, const MemObj *m, int64_t el, const GlobalAcc *a, const GlobalAcc *c,
	    int write, int a_write)
{
	const Interp *it = w->it;
	char desc[256], other[96];
	const int64_t *g = it->grid;

	obj_desc(it, m, desc, sizeof desc);
	if (a->block == c->block)
		snprintf(other, sizeof other, "warp %d, lane %d", it->warps[a->warp].id, a->lane);
	else
		snprintf(other, sizeof other, "block (%lld,%lld,%lld), warp %d, lane %d", (long long)(a->block % g[0]),
			 (long long)(a->block / g[0] % g[1]), (long long)(a->block / (g[0] * g[1])), it->warps[a->warp].id,
			 a->lane);
	interp_fail(w, op, 1u << l,
		    "data race on global memory: this %s and the %s at line %d:%d (%s) touch element %lld of %s %s",
		    access_kind(op, write), access_kind(a->op, a_write),
		    a->op->loc.line, a->op->loc.col, other, (long long)el, desc,
		    a->block != c->block ? "from different blocks, which nothing orders"
					 : a->warp / it->nwarps != c->warp / it->nwarps ? "with no cluster barrier between them"
					 : "with no barrier between them");
	return -1;
}

/* Records an access of n bytes at off of tensor m by lane l of w; -1 after reporting a
 * race with an earlier one. */
static int
global_race(Warp *w, const IrOp *op, int l, const MemObj *m, int64_t off, int n, int write)
{
	const Interp *it = w->it;
	int atomic = ir_is_atomic(op->opc);
	int64_t el;
	GlobalAcc c;

	gacc_now(w, op, l, atomic, &c);
	for (el = off / m->elem_bytes; el <= (off + n - 1) / m->elem_bytes; el++) {
		GlobalAcc *e = &m->race[3 * el];        /* the write, the last reader, another reader */

		if (gacc_unordered(it, &e[0], &c))
			return gacc_report(w, op, l, m, el, &e[0], &c, write, 1);
		if (!write)
			gacc_acquire(w, op, &e[0]);
		if (write) {
			if (gacc_unordered(it, &e[1], &c))
				return gacc_report(w, op, l, m, el, &e[1], &c, 1, 0);
			if (gacc_unordered(it, &e[2], &c))
				return gacc_report(w, op, l, m, el, &e[2], &c, 1, 0);
			e[0] = c;
			e[1].op = e[2].op = NULL;
		} else if (e[1].op && e[1].run == c.run && e[1].warp == c.warp) {
			e[1] = c;
		} else {
			e[2] = e[1];
			e[1] = c;
		}
	}
	return 0;
}

/* An access by a thread to shared bytes that an async copy in flight will write (the data
 * has not landed: a read sees stale bytes; or the copy will overwrite the store), or a
 * store to bytes that a TMA store in flight still reads. */
static int
pending_check(Warp *w, const IrOp *op, int l, const MemObj *m, int64_t off, int n, int write)
{
	const Interp *it = w->it;
	int64_t i;
	char desc[256];

	for (i = 0; i < n; i++) {
		int sh = it->blk->shadow[m->base + off + i];

		if (sh == SH_PENDING || (sh == SH_READING && write)) {
			obj_desc(it, m, desc, sizeof desc);
			interp_fail(w, op, 1u << l, "%s shared memory that %s: byte offset %lld (element %lld) of %s",
				    write ? "store to" : "read of",
				    sh == SH_READING ? "a TMA store in flight still reads (wait for it first: tma_store_wait)"
						     : "an asynchronous copy in flight will write (wait for it first: its mbarrier, or cp.async.wait)",
				    (long long)(off + i), (long long)((off + i) / m->elem_bytes), desc);
			return -1;
		}
	}
	return 0;
}

int64_t
mem_shared_at(Warp *w, const IrOp *op, int l, uint64_t p, int n, int align)
{
	Interp *it = w->it;
	int obj = ptr_obj(p);
	int64_t off = ptr_off(p);
	const MemObj *m;
	char desc[256];

	if (obj <= 0 || obj >= it->nobjs || !it->objs[obj].shared) {
		interp_fail(w, op, 1u << l, "%s: the pointer does not point into shared memory", ir_opinfo[op->opc].name);
		return -1;
	}
	m = &it->objs[obj];
	if (off < 0 || off > m->bytes - n) {
		obj_desc(it, m, desc, sizeof desc);
		interp_fail(w, op, 1u << l, "out-of-bounds %s of %d bytes at byte offset %lld of %s", ir_opinfo[op->opc].name, n,
			    (long long)off, desc);
		return -1;
	}
	if (align > 1 && (m->base + off) % align != 0) {
		obj_desc(it, m, desc, sizeof desc);
		interp_fail(w, op, 1u << l, "misaligned %s at byte offset %lld of %s (needs %d-byte alignment)",
			    ir_opinfo[op->opc].name, (long long)off, desc, align);
		return -1;
	}
	return m->base + off;
}

const char *
mem_shared_name(const Interp *it, int64_t off, int64_t *rel)
{
	int i;

	for (i = it->shared_obj0; i < it->nobjs; i++) {
		const MemObj *m = &it->objs[i];

		if (off >= m->base && off < m->base + m->bytes) {
			*rel = off - m->base;
			return m->name;
		}
	}
	*rel = off;
	return "?";
}

static unsigned char *shared_access(Warp *w, const IrOp *op, int l, const MemObj *m, int64_t off, int n, int write,
				    int races);

unsigned char *
mem_access(Warp *w, const IrOp *op, int l, uint64_t p, int n, int align, int write)
{
	Interp *it = w->it;
	int obj = ptr_obj(p);
	int64_t off = ptr_off(p);
	const MemObj *m;
	unsigned char *base;
	char desc[256];

	if (obj <= 0 || obj >= it->nobjs) {
		interp_fail(w, op, 1u << l, "%s of %d bytes through an invalid pointer", access_kind(op, write), n);
		return NULL;
	}
	m = &it->objs[obj];
	if (off < 0 || off > m->bytes - n) {
		obj_desc(it, m, desc, sizeof desc);
		interp_fail(w, op, 1u << l, "out-of-bounds %s of %d bytes at byte offset %lld (element %lld) of %s",
			    access_kind(op, write), n, (long long)off,
			    (long long)(off >= 0 ? off / m->elem_bytes : -((-off + m->elem_bytes - 1) / m->elem_bytes)), desc);
		return NULL;
	}
	if (align > 1 && off % align != 0) {
		obj_desc(it, m, desc, sizeof desc);
		interp_fail(w, op, 1u << l, "misaligned %s of %d bytes at byte offset %lld of %s (needs %d-byte alignment)",
			    access_kind(op, write), n, (long long)off, desc, align);
		return NULL;
	}
	if (!m->shared)
		return m->race && global_race(w, op, l, m, off, n, write) != 0 ? NULL : m->data + off;
	if (ptr_cta(p)) {       /* distributed shared memory: another CTA's (no race check) */
		Block *own = it->blk;

		if (sched_gone(w, op, l, ptr_cta(p) - 1, write ? "a store to distributed shared memory" : "a load from distributed shared memory"))
			return NULL;
		it->blk = &it->ctas[ptr_cta(p) - 1];
		base = shared_access(w, op, l, m, off, n, write, 0);
		it->blk = own;
		return base;
	}
	return shared_access(w, op, l, m, off, n, write, it->o->check_races);
}

/* The rest of mem_access for shared memory (of the CTA it->blk). */
static unsigned char *
shared_access(Warp *w, const IrOp *op, int l, const MemObj *m, int64_t off, int n, int write, int races)
{
	Interp *it = w->it;
	unsigned char *base;
	char desc[256];
	int64_t i;

	if (it->blk->pending_bytes && pending_check(w, op, l, m, off, n, write) != 0)
		return NULL;
	if (races && !ir_is_atomic(op->opc) &&
	    race_check(w, op, l, m, off, n, write) != 0)
		return NULL;
	base = it->blk->smem + m->base + off;
	if (write) {
		GenWrite *g = it->blk->gen + m->base + off;
		int t = w->gid * WARP + l;

		for (i = 0; i < n; i++) {
			it->blk->shadow[m->base + off + i] = SH_WRITTEN;
			g[i].thread = (uint16_t)(t + 1);
			g[i].fences = it->fence_no[t];
			g[i].epoch = w->b->epoch;
			g[i].op = op;
		}
	} else if (it->o->check_uninit) {
		for (i = 0; i < n; i++)
			if (it->blk->shadow[m->base + off + i] == SH_UNWRITTEN) {
				obj_desc(it, m, desc, sizeof desc);
				interp_fail(w, op, 1u << l, "read of uninitialized shared memory: byte offset %lld (element %lld) of %s, which no thread of the block wrote",
					    (long long)(off + i), (long long)((off + i) / m->elem_bytes), desc);
				return NULL;
			}
	}
	return base;
}

/* The bytes shared buffer b spans: its elements over all its stages. */
static int64_t
buffer_extent(const IrBuffer *b)
{
	int64_t one = b->count * ir_type_bytes(ir_scalar((IrBase)b->elem));

	return b->stages > 1 ? (b->stages - 1) * b->stage_stride + one : one;
}

int
mem_setup(Interp *it, Buf *err)
{
	const IrKernel *k = it->k;
	int i;

	it->shared_obj0 = k->nparams + 1;
	it->mbar_obj0 = it->shared_obj0 + k->nbufs;
	it->nobjs = it->mbar_obj0 + k->nbarriers;
	it->objs = xcalloc((size_t)it->nobjs, sizeof *it->objs);
	for (i = 0; i < k->nparams; i++) {
		const IrParam *p = &k->params[i];
		MemObj *m = &it->objs[i + 1];

		if (p->kind != PARAM_TENSOR)
			continue;
		m->name = p->name;
		m->elem_bytes = ir_type_bytes(ir_scalar((IrBase)p->type.elem));
		m->bytes = interp_tensor_elems(k, i, it->args) * m->elem_bytes;
		m->data = it->args[i].data;
		if (it->o->check_global_races && p->access != ACC_IN)
			m->race = xcalloc((size_t)(m->bytes / m->elem_bytes) * 3 + 1, sizeof *m->race);
	}
	for (i = 0; i < k->nbufs; i++) {
		const IrBuffer *b = &k->bufs[i];
		MemObj *m = &it->objs[it->shared_obj0 + i];

		if (b->offset < 0) {
			buf_printf(err, "shared buffer '%s' has no offset: run the pass pipeline (smem-layout) first", b->name);
			return -1;
		}
		m->name = b->name;
		m->shared = 1;
		m->base = b->offset;
		m->elem_bytes = ir_type_bytes(ir_scalar((IrBase)b->elem));
		m->bytes = buffer_extent(b);
		if (m->base + m->bytes > k->smem_bytes) {
			buf_printf(err, "shared buffer '%s' lies past the kernel's %lld bytes of shared memory", b->name,
				   (long long)k->smem_bytes);
			return -1;
		}
	}
	for (i = 0; i < k->nbarriers; i++) {
		const IrBarrier *b = &k->barriers[i];
		MemObj *m = &it->objs[it->mbar_obj0 + i];

		if (b->offset < 0 || b->offset + 8 * (int64_t)b->n > k->smem_bytes) {
			buf_printf(err, "mbarrier '%s' has no place in shared memory: run the pass pipeline (smem-layout) first", b->name);
			return -1;
		}
		m->name = b->name;
		m->shared = 1;
		m->base = b->offset;
		m->elem_bytes = 8;
		m->bytes = 8 * (int64_t)b->n;
	}
	if (it->nobjs > MAX_OBJS) {
		buf_printf(err, "more than %d tensors, shared buffers and mbarriers", MAX_OBJS - 1);
		return -1;
	}
	it->ncta = k->cluster[0] * k->cluster[1] * k->cluster[2];
	it->ctas = xcalloc((size_t)it->ncta, sizeof *it->ctas);
	for (i = 0; i < it->ncta; i++) {
		Block *b = &it->ctas[i];

		b->rank = i;
		b->mbar = xcalloc((size_t)k->smem_bytes / 8 + 1, sizeof *b->mbar);
		b->smem = xcalloc((size_t)k->smem_bytes + 1, 1);
		b->shadow = xcalloc((size_t)k->smem_bytes + 1, 1);
		b->acc = xcalloc((size_t)k->smem_bytes + 1, sizeof *b->acc);
		b->gen = xcalloc((size_t)k->smem_bytes + 1, sizeof *b->gen);
	}
	it->blk = &it->ctas[0];
	return 0;
}

/* A new block: shared memory holds garbage (a pattern that shows as NaN in floats) that no
 * thread wrote. */
void
mem_block_start(Interp *it, Block *b)
{
	memset(b->smem, 0xff, (size_t)it->k->smem_bytes);
	memset(b->shadow, 0, (size_t)it->k->smem_bytes);
	memset(b->gen, 0, (size_t)it->k->smem_bytes * sizeof *b->gen);
	b->epoch++;
	b->nacq = 0;
}

void
mem_barrier(Interp *it)
{
	it->blk->epoch++;
}

void
mem_free(Interp *it)
{
	int i;

	for (i = 0; i < it->nobjs; i++)
		free(it->objs[i].race);
	free(it->objs);
	free(it->fence_no);
	free(it->fence_epoch);
	free(it->fence_ordered);
	for (i = 0; i < it->ncta; i++) {
		free(it->ctas[i].smem);
		free(it->ctas[i].shadow);
		free(it->ctas[i].acc);
		free(it->ctas[i].gen);
		free(it->ctas[i].mbar);
		free(it->ctas[i].agents);
		free(it->ctas[i].reads);
		tmem_free(&it->ctas[i]);
	}
	free(it->ctas);
}
