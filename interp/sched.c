/* sched.c: the grid, its blocks and their warps.
 *
 * Blocks run one after another, in an order drawn from the seed (a block must not wait
 * for another block: the GPU does not promise that either); with clusters, the CTAs of a
 * cluster run together (a cluster barrier, W_CLUSTER, waits for all their warps). Within
 * a block every warp is
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
	diag_error(op->loc, "%s [block (%lld,%lld,%lld), warp %d, %s]", msg.s, (long long)w->b->id[0],
		   (long long)w->b->id[1], (long long)w->b->id[2], w->id, where);
	buf_free(&msg);
}

/* Back to the scheduler; returns when the scheduler resumes w. */
static void
warp_yield(Warp *w)
{
	swapcontext(&w->ctx, &w->it->sched_ctx);
}

void
sched_barrier(Warp *w, const IrOp *op, int state)
{
	w->state = state;
	w->wait_op = op;
	if (w->it->trace)
		trace_wait(w, 1);
	warp_yield(w);
	if (w->it->trace)
		trace_wait(w, 0);
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
	if (w->it->trace)
		trace_wait(w, 1);
	warp_yield(w);
	if (w->it->trace)
		trace_wait(w, 0);
}

void
sched_poll(Warp *w, const IrOp *op)
{
	sched_barrier(w, op, W_POLL);
}

/* Flag waits (wait.ge) have a time limit on the GPU; here time passes only when nothing
 * else can move. The first time, the polling warps are woken to read their flags again;
 * if none saw its value by the next time (nothing else ran between), their time is up.
 * A flag that another block of the launch sets is seen only if that block ran first:
 * blocks run one at a time (docs/interpreter.md). 1 if any warp was woken. */
static int
wake_pollers(Interp *it)
{
	int i, n = it->ncta * it->nwarps, any = 0;

	for (i = 0; i < n; i++) {
		Warp *w = &it->warps[i];

		if (w->state != W_POLL)
			continue;
		w->poll_timeout = it->poll_round;
		w->state = W_RUNNABLE;
		any = 1;
	}
	it->poll_round = any && !it->poll_round;
	return any;
}

/* A named barrier counts the threads that arrive (32 a warp: .aligned ops run in whole
 * warps) toward the count of the op; the one that completes the phase releases the warps
 * waiting on it and the count starts again. It orders when warps run, not their memory:
 * the race check's intervals are barrier()'s and the mbarriers'. */
void
sched_named(Warp *w, const IrOp *op, int id, int count, int wait)
{
	Block *b = w->b;
	Warp *ws = &w->it->warps[b->rank * w->it->nwarps];
	int i;

	b->named[id] += WARP;
	if (b->named[id] >= count) {
		b->named[id] -= count;
		for (i = 0; i < w->it->nwarps; i++)
			if (ws[i].state == W_NAMED && ws[i].wait_bar == id)
				ws[i].state = W_RUNNABLE;
		return;
	}
	if (wait) {
		w->wait_bar = id;
		w->wait_parity = count;
		sched_barrier(w, op, W_NAMED);
	}
}

/* A warp waiting on a named barrier that no running warp can complete. */
static int
named_deadlock(Interp *it)
{
	int i, j;

	for (i = 0; i < it->ncta * it->nwarps; i++) {
		Warp *w = &it->warps[i];
		uint32_t here = 0;
		char hs[160];

		if (w->state != W_NAMED)
			continue;
		for (j = 0; j < it->nwarps; j++) {
			const Warp *o = &it->warps[w->b->rank * it->nwarps + j];

			if (o->state == W_NAMED && o->wait_bar == w->wait_bar)
				here |= 1u << j;
		}
		mask_str(hs, sizeof hs, here, "warp");
		interp_fail(w, w->wait_op, 0,
			    "named barrier %lld never completes: %s wait%s there, %d of the %lld threads a phase counts arrived, and no other warp can run to arrive",
			    (long long)w->wait_bar, hs, here & (here - 1) ? "" : "s", w->b->named[w->wait_bar],
			    (long long)w->wait_parity);
		return 1;
	}
	return 0;
}

int
sched_gone(Warp *w, const IrOp *op, int l, int r, const char *what)
{
	const Warp *ws = &w->it->warps[r * w->it->nwarps];
	int i;

	for (i = 0; i < w->it->nwarps; i++)
		if (ws[i].state != W_DONE)
			return 0;
	interp_fail(w, op, 1u << l,
		    "%s reaches the shared memory of cluster rank %d, which has exited (all its warps finished): keep the CTAs of a cluster alive until no CTA reaches another, with a cluster barrier before the end",
		    what, r);
	return 1;
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

/* CTA b's warps: release them when every unfinished one waits at one block barrier op and
 * none finished (1); else 0, or with report, report the barrier reached by part of the
 * block (-1). */
static int
release_barrier(Interp *it, Block *b, int report)
{
	Warp *first = NULL, *other = NULL, *ws = &it->warps[b->rank * it->nwarps];
	uint32_t here = 0, done = 0;
	char hs[160], ds[160];
	int i, all = 1;

	for (i = 0; i < it->nwarps; i++) {
		Warp *w = &ws[i];

		if (w->state == W_DONE)
			done |= 1u << i;
		else if (!first)
			first = w;
		else if (w->wait_op != first->wait_op && !other)
			other = w;
		if (w->state != W_DONE && w->state != W_BARRIER)
			all = 0;
		if (w->state == W_BARRIER && first && w->wait_op == first->wait_op)
			here |= 1u << i;
	}
	if (!first || first->state != W_BARRIER)
		return 0;
	if (all && !done && !other) {
		for (i = 0; i < it->nwarps; i++)
			ws[i].state = W_RUNNABLE;
		b->epoch++;
		if (b->tm)
			tmem_barrier(it, b);
		return 1;
	}
	if (!report)
		return 0;
	mask_str(hs, sizeof hs, here, "warp");
	if (done) {
		mask_str(ds, sizeof ds, done, "warp");
		interp_fail(first, first->wait_op, 0,
			    "barrier reached by only part of the block: %s wait%s here, %s finished without reaching it",
			    hs, here & (here - 1) ? "" : "s", ds);
		return -1;
	}
	if (!other)
		return 0;
	interp_fail(first, first->wait_op, 0,
		    "barrier reached by only part of the block: %s wait%s here, warp %d at the barrier at line %d:%d",
		    hs, here & (here - 1) ? "" : "s", other->id, other->wait_op->loc.line, other->wait_op->loc.col);
	return -1;
}

/* The cluster barrier: released when every warp of every CTA waits there (1); else 0, or
 * with report, report it reached by part of the cluster (-1). */
static int
release_cluster(Interp *it, int report)
{
	int i, n = it->ncta * it->nwarps, waiting = 0, done = 0;
	Warp *first = NULL;

	for (i = 0; i < n; i++) {
		Warp *w = &it->warps[i];

		if (w->state == W_CLUSTER) {
			waiting++;
			if (!first)
				first = w;
		} else if (w->state == W_DONE) {
			done++;
		}
	}
	if (!first)
		return 0;
	if (waiting == n) {
		for (i = 0; i < n; i++)
			it->warps[i].state = W_RUNNABLE;
		for (i = 0; i < it->ncta; i++)
			it->ctas[i].epoch++;
		tmem_cluster_barrier(it);
		return 1;
	}
	if (report) {
		char rest[64] = "";

		if (n - waiting - done)
			snprintf(rest, sizeof rest, ", %d wait elsewhere", n - waiting - done);
		interp_fail(first, first->wait_op, 0,
			    "cluster barrier reached by only part of the cluster: %d of its %d warps wait here, %d finished%s",
			    waiting, n, done, rest);
	}
	return report ? -1 : 0;
}

/* No warp can run and nothing completes: release a barrier, or report why the cluster
 * cannot go on. Returns 1 when it may go on, 0 when every warp finished, -1 after a
 * finding. */
static int
unblock(Interp *it)
{
	int i, n = it->ncta * it->nwarps, progress = 0;

	for (i = 0; i < it->ncta; i++)
		progress |= release_barrier(it, &it->ctas[i], 0) > 0;
	if (progress || release_cluster(it, 0) > 0 || wake_pollers(it))
		return 1;
	for (i = 0; i < n && it->warps[i].state == W_DONE; i++)
		;
	if (i == n) {
		for (i = 0; i < it->ncta; i++)
			if (async_block_end(it, &it->ctas[i]) != 0)
				return -1;
		return 0;
	}
	for (i = 0; i < n; i++)
		if (it->warps[i].state == W_MBAR || it->warps[i].state == W_TMEM) {
			async_deadlock(it, &it->warps[i]);
			return -1;
		}
	if (named_deadlock(it))
		return -1;
	for (i = 0; i < it->ncta; i++)
		if (release_barrier(it, &it->ctas[i], 1) < 0)
			return -1;
	release_cluster(it, 1);
	return -1;
}

/* Runs the CTAs of one cluster (one CTA without clusters) together. */
static void
run_cluster(Interp *it)
{
	int i, n = it->ncta * it->nwarps, started[1024] = {0};

	for (i = 0; i < it->ncta; i++) {
		mem_block_start(it, &it->ctas[i]);
		memset(it->ctas[i].named, 0, sizeof it->ctas[i].named);
		async_block_start(it, &it->ctas[i]);
	}
	it->steps = 0;
	for (i = 0; i < n; i++) {
		Warp *w = &it->warps[i];

		w->state = W_RUNNABLE;
		w->wait_op = NULL;
		w->poll_timeout = 0;
		w->nrel = 0;
		w->nacq = 0;
		w->npend = 0;
		w->fenced = 0;
	}
	it->poll_round = 0;
	while (!it->failed) {
		int runnable[1024], nr = 0, agents = 0;
		Warp *w;

		for (i = 0; i < n; i++) {
			Warp *o = &it->warps[i];

			if ((o->state == W_MBAR || o->state == W_TMEM) && async_ready(it, o))
				o->state = W_RUNNABLE;
			if (o->state == W_RUNNABLE)
				runnable[nr++] = i;
		}
		for (i = 0; i < it->ncta; i++)
			agents += it->ctas[i].nagents - it->ctas[i].ndead;
		/* an agent in flight completes at a step drawn from the seed, at the latest
		 * when no warp can run */
		if (agents && (nr == 0 || rng_next(it) % 4 == 0)) {
			int r;

			if (nr == 0 && it->trace)
				trace_idle(it);
			r = async_complete(it, rng_next(it));

			if (r < 0)
				return;
			if (r > 0)
				continue;
		}
		if (nr == 0) {
			if (unblock(it) <= 0)
				return;
			continue;
		}
		w = &it->warps[runnable[nr == 1 ? 0 : rng_next(it) % (uint64_t)nr]];
		it->cur = w;
		it->blk = w->b;
		if (!started[w->gid]) {
			started[w->gid] = 1;
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
	int64_t nblocks, b, *order, ncl[3];
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
	for (i = 0; i < 3; i++)
		if (it.grid[i] % k->cluster[i]) {
			diag_error(at, "kernel '%s': the grid (%lld, %lld, %lld) is not a whole number of clusters (%d, %d, %d)", k->name,
				   (long long)it.grid[0], (long long)it.grid[1], (long long)it.grid[2], k->cluster[0], k->cluster[1],
				   k->cluster[2]);
			mem_free(&it);
			return 1;
		}
	if (trace_open(&it, &err) != 0) {
		diag_error(at, "kernel '%s': %s", k->name, err.s);
		buf_free(&err);
		mem_free(&it);
		return 1;
	}
	assign_slots(&it);
	it.nthreads = k->threads[0] * k->threads[1] * k->threads[2];
	it.nwarps = (it.nthreads + WARP - 1) / WARP;
	it.warps = xcalloc((size_t)(it.ncta * it.nwarps), sizeof *it.warps);
	for (i = 0; i < it.ncta * it.nwarps; i++) {
		Warp *w = &it.warps[i];
		int n = it.nthreads - i % it.nwarps * WARP;

		w->it = &it;
		w->b = &it.ctas[i / it.nwarps];
		w->id = i % it.nwarps;
		w->gid = i;
		w->exists = n >= WARP ? ALL_LANES : (1u << n) - 1;
		w->regs = xcalloc((size_t)it.nslots * WARP + 1, sizeof *w->regs);
		w->stack = xmalloc(STACK_BYTES);
	}
	/* the clusters (blocks without clusters) in an order drawn from the seed (Fisher-Yates) */
	for (i = 0; i < 3; i++)
		ncl[i] = it.grid[i] / k->cluster[i];
	nblocks = ncl[0] * ncl[1] * ncl[2];
	order = xmalloc((size_t)(nblocks > 0 ? nblocks : 1) * sizeof *order);
	for (b = 0; b < nblocks; b++)
		order[b] = b;
	for (b = nblocks - 1; b > 0; b--) {
		int64_t j = (int64_t)(rng_next(&it) % (uint64_t)(b + 1)), t = order[b];

		order[b] = order[j];
		order[j] = t;
	}
	for (b = 0; b < nblocks && !it.failed; b++) {
		int64_t c[3] = {order[b] % ncl[0], order[b] / ncl[0] % ncl[1], order[b] / (ncl[0] * ncl[1])};
		const int *kc = k->cluster;

		for (i = 0; i < it.ncta; i++) {
			it.ctas[i].id[0] = c[0] * kc[0] + i % kc[0];
			it.ctas[i].id[1] = c[1] * kc[1] + i / kc[0] % kc[1];
			it.ctas[i].id[2] = c[2] * kc[2] + i / (kc[0] * kc[1]);
		}
		if (it.tracer)
			trace_cluster_start(&it);
		run_cluster(&it);
		if (it.trace)
			trace_cluster_end(&it);
	}
	free(order);
	if (trace_close(&it, &err) != 0) {
		diag_error(at, "kernel '%s': %s", k->name, err.s);
		buf_free(&err);
		it.failed = 1;
	}
	for (i = 0; i < it.ncta * it.nwarps; i++) {
		free(it.warps[i].regs);
		free(it.warps[i].stack);
		free(it.warps[i].acc_group);
		free(it.warps[i].acc_op);
		free(it.warps[i].tc.ld_tag);
		free(it.warps[i].tc.ld_op);
	}
	free(it.warps);
	free(it.slot);
	free(it.width);
	mem_free(&it);
	return it.failed ? 1 : 0;
}
