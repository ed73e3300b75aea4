/* sched.c: the grid, its blocks and their warps.
 *
 * Blocks run one after another, in an order drawn from the seed (a block must not wait
 * for another block: the GPU does not promise that either). Within a block every warp is
 * a coroutine (ucontext) that runs until it reaches a block barrier or finishes; the next
 * warp to run is drawn from the seed among the runnable ones. When no warp can run, every
 * unfinished warp must wait at the same barrier op and none may have finished: then they
 * all go on; otherwise the barrier is reached by only part of the block, which is a
 * finding. A warp also waits for an mbarrier phase (W_MBAR); the agents in flight (TMA
 * loads and stores, cp.async: async.c) complete at steps drawn from the seed, and when
 * every unfinished warp is blocked with nothing in flight, that is a deadlock. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define STACK_BYTES (256 * 1024)

/* splitmix64 */
static uint64_t
rng_next(Interp *it)
{
	uint64_t z = (it->rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void
lanes_str(char *out, size_t size, uint32_t mask)
{
	mask_str(out, size, mask, "lane");
}

void
mask_str(char *out, size_t size, uint32_t mask, const char *noun)
{
	int l = 0, n = 0, first = 1;
	size_t at = 0;

	for (uint32_t m = mask; m; m &= m - 1)
		n++;
	at += (size_t)snprintf(out, size, "%s%s ", noun, n == 1 ? "" : "s");
	while (l < WARP && at < size) {
		int end;

		if (!(mask >> l & 1)) {
			l++;
			continue;
		}
		for (end = l; end + 1 < WARP && mask >> (end + 1) & 1; end++)
			;
		if (end == l)
			at += (size_t)snprintf(out + at, size - at, "%s%d", first ? "" : ", ", l);
		else
			at += (size_t)snprintf(out + at, size - at, "%s%d-%d", first ? "" : ", ", l, end);
		first = 0;
		l = end + 1;
	}
	if (!n)
		snprintf(out, size, "no %ss", noun);
}

void
interp_fail(Warp *w, const IrOp *op, uint32_t lanes, const char *fmt, ...)
{
	Interp *it = w->it;
	Buf msg = {0};
	char where[160];
	va_list ap;

	if (it->failed)
		return;
	it->failed = 1;
	va_start(ap, fmt);
	buf_vprintf(&msg, fmt, ap);
	va_end(ap);
	if (lanes && !(lanes & (lanes - 1))) {
		int l = __builtin_ctz(lanes);
		int64_t t = (int64_t)w->id * WARP + l;
		const int *nt = it->k->threads;

		snprintf(where, sizeof where, "lane %d (thread (%lld,%lld,%lld))", l, (long long)(t % nt[0]),
			 (long long)(t / nt[0] % nt[1]), (long long)(t / ((int64_t)nt[0] * nt[1])));
	} else if (lanes) {
		lanes_str(where, sizeof where, lanes);
	} else {
		snprintf(where, sizeof where, "all its lanes");
	}
	diag_error(op->loc, "%s [block (%lld,%lld,%lld), warp %d, %s]", msg.s, (long long)it->blk.id[0],
		   (long long)it->blk.id[1], (long long)it->blk.id[2], w->id, where);
	buf_free(&msg);
}

/* Back to the scheduler; returns when the scheduler resumes w. */
static void
warp_yield(Warp *w)
{
	swapcontext(&w->ctx, &w->it->sched_ctx);
}

void
sched_barrier(Warp *w, const IrOp *op)
{
	w->state = W_BARRIER;
	w->wait_op = op;
	warp_yield(w);
}

void
sched_mbar_wait(Warp *w, const IrOp *op, int64_t bar, int parity)
{
	w->wait_op = op;
	w->wait_bar = bar;
	w->wait_parity = parity;
	if (async_ready(w->it, w))
		return;
	w->state = W_MBAR;
	warp_yield(w);
}

/* makecontext passes only ints: the scheduler leaves the warp to start here */
static Warp *starting;

static void
warp_main(void)
{
	Warp *w = starting;

	exec_body(w);
	w->state = W_DONE;
	swapcontext(&w->ctx, &w->it->sched_ctx);
}

/* Every unfinished warp waits: release them if they all wait at one barrier op with no
 * warp finished; else report the barrier reached by part of the block. Returns 0 when
 * the block may go on. */
static int
release_barrier(Interp *it)
{
	Warp *first = NULL, *other = NULL;
	uint32_t here = 0, done = 0;
	char hs[160], ds[160];
	int i;

	for (i = 0; i < it->nwarps; i++) {
		Warp *w = &it->warps[i];

		if (w->state == W_DONE)
			done |= 1u << i;
		else if (!first)
			first = w;
		else if (w->wait_op != first->wait_op && !other)
			other = w;
		if (w->state == W_BARRIER && first && w->wait_op == first->wait_op)
			here |= 1u << i;
	}
	if (!first)
		return 0;
	mask_str(hs, sizeof hs, here, "warp");
	if (done) {
		mask_str(ds, sizeof ds, done, "warp");
		interp_fail(first, first->wait_op, 0,
			    "barrier reached by only part of the block: %s wait%s here, %s finished without reaching it",
			    hs, here & (here - 1) ? "" : "s", ds);
		return -1;
	}
	if (other) {
		interp_fail(first, first->wait_op, 0,
			    "barrier reached by only part of the block: %s wait%s here, warp %d at the barrier at line %d:%d",
			    hs, here & (here - 1) ? "" : "s", other->id, other->wait_op->loc.line, other->wait_op->loc.col);
		return -1;
	}
	for (i = 0; i < it->nwarps; i++)
		if (it->warps[i].state == W_BARRIER)
			it->warps[i].state = W_RUNNABLE;
	mem_barrier(it);
	return 0;
}

static void
run_block(Interp *it)
{
	int i, started[1024] = {0};

	mem_block_start(it);
	async_block_start(it);
	it->steps = 0;
	for (i = 0; i < it->nwarps; i++) {
		Warp *w = &it->warps[i];

		w->state = W_RUNNABLE;
		w->wait_op = NULL;
	}
	while (!it->failed) {
		int runnable[1024], n = 0;
		Warp *w;

		int blocked = 0;

		for (i = 0; i < it->nwarps; i++) {
			Warp *o = &it->warps[i];

			if (o->state == W_MBAR && async_ready(it, o))
				o->state = W_RUNNABLE;
			if (o->state == W_RUNNABLE)
				runnable[n++] = i;
			blocked |= o->state == W_MBAR;
		}
		/* a TMA load in flight completes at a step drawn from the seed, at the latest
		 * when no warp can run */
		if (it->blk.nagents && (n == 0 || rng_next(it) % 4 == 0)) {
			int r = async_complete(it, rng_next(it));

			if (r < 0)
				return;
			if (r > 0)
				continue;
		}
		if (n == 0) {
			if (blocked) {
				async_deadlock(it);
				return;
			}
			if (release_barrier(it) != 0)
				return;
			for (i = 0; i < it->nwarps && it->warps[i].state == W_DONE; i++)
				;
			if (i == it->nwarps) {
				async_block_end(it);
				return;
			}
			continue;
		}
		w = &it->warps[runnable[n == 1 ? 0 : rng_next(it) % (uint64_t)n]];
		it->cur = w;
		if (!started[w->id]) {
			started[w->id] = 1;
			getcontext(&w->ctx);
			w->ctx.uc_stack.ss_sp = w->stack;
			w->ctx.uc_stack.ss_size = STACK_BYTES;
			w->ctx.uc_link = NULL;
			starting = w;
			makecontext(&w->ctx, warp_main, 0);
		}
		swapcontext(&it->sched_ctx, &w->ctx);
	}
}

/* Gives every value its slots in the register file. */
static void
assign_slots(Interp *it)
{
	const IrKernel *k = it->k;
	int v;

	it->slot = xcalloc((size_t)k->nvalues + 1, sizeof *it->slot);
	it->width = xcalloc((size_t)k->nvalues + 1, sizeof *it->width);
	for (v = 1; v < k->nvalues; v++) {
		IrType t = ir_vtype(k, (IrValue)v);

		it->slot[v] = it->nslots;
		it->width[v] = t.base == IR_VOID ? 0 : t.lanes;
		it->nslots += it->width[v];
	}
}

/* The location of k's file as a whole (no line). */
static SrcLoc
file_loc(const IrKernel *k)
{
	SrcLoc at;

	memset(&at, 0, sizeof at);
	at.file = k->file;
	return at;
}

/* Reports the first op the interpreter cannot run (before anything runs). */
static int
check_ops(const IrRegion *r)
{
	int i, j;

	for (i = 0; i < r->nops; i++) {
		const IrOp *op = &r->ops[i];

		if (!(ir_opinfo[op->opc].flags & OPF_TERM) && !exec_handler(op->opc)) {
			diag_error(op->loc, "not yet supported by the interpreter: %s", ir_opinfo[op->opc].name);
			return -1;
		}
		for (j = 0; j < op->nregions; j++)
			if (check_ops(&op->regions[j]) != 0)
				return -1;
	}
	return 0;
}

int
interp_check(const IrKernel *k)
{
	SrcLoc at = file_loc(k);

	if (k->cluster[0] * k->cluster[1] * k->cluster[2] != 1) {
		diag_error(at, "not yet supported by the interpreter: clusters (kernel '%s')", k->name);
		return -1;
	}
	if ((int64_t)k->threads[0] * k->threads[1] * k->threads[2] > 1024) {
		diag_error(at, "kernel '%s': more than 1024 threads per block", k->name);
		return -1;
	}
	return check_ops(&k->body);
}

int
interp_run(const IrKernel *k, InterpArg *args, const InterpOptions *o)
{
	Interp it;
	Buf err = {0};
	SrcLoc at = file_loc(k);
	int64_t nblocks, b, *order;
	int i;

	if (interp_check(k) != 0)
		return 1;
	memset(&it, 0, sizeof it);
	it.k = k;
	it.o = o;
	it.args = args;
	it.rng = o->seed;
	it.max_steps = o->max_steps ? o->max_steps : (uint64_t)1 << 32;
	if (interp_bind(k, args, o, it.grid, &err) != 0 || mem_setup(&it, &err) != 0) {
		diag_error(at, "kernel '%s': %s", k->name, err.s ? err.s : "bad arguments");
		buf_free(&err);
		mem_free(&it);
		return 1;
	}
	assign_slots(&it);
	it.nthreads = k->threads[0] * k->threads[1] * k->threads[2];
	it.nwarps = (it.nthreads + WARP - 1) / WARP;
	it.warps = xcalloc((size_t)it.nwarps, sizeof *it.warps);
	for (i = 0; i < it.nwarps; i++) {
		Warp *w = &it.warps[i];
		int n = it.nthreads - i * WARP;

		w->it = &it;
		w->id = i;
		w->exists = n >= WARP ? ALL_LANES : (1u << n) - 1;
		w->regs = xcalloc((size_t)it.nslots * WARP + 1, sizeof *w->regs);
		w->stack = xmalloc(STACK_BYTES);
	}
	/* the blocks in an order drawn from the seed (Fisher-Yates) */
	nblocks = it.grid[0] * it.grid[1] * it.grid[2];
	order = xmalloc((size_t)(nblocks > 0 ? nblocks : 1) * sizeof *order);
	for (b = 0; b < nblocks; b++)
		order[b] = b;
	for (b = nblocks - 1; b > 0; b--) {
		int64_t j = (int64_t)(rng_next(&it) % (uint64_t)(b + 1)), t = order[b];

		order[b] = order[j];
		order[j] = t;
	}
	for (b = 0; b < nblocks && !it.failed; b++) {
		it.blk.id[0] = order[b] % it.grid[0];
		it.blk.id[1] = order[b] / it.grid[0] % it.grid[1];
		it.blk.id[2] = order[b] / (it.grid[0] * it.grid[1]);
		run_block(&it);
	}
	free(order);
	for (i = 0; i < it.nwarps; i++) {
		free(it.warps[i].regs);
		free(it.warps[i].stack);
	}
	free(it.warps);
	free(it.slot);
	free(it.width);
	mem_free(&it);
	return it.failed ? 1 : 0;
}
