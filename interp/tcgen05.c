/* tcgen05.c: tcgen05.mma and tcgen05.commit (docs/interpreter.md, "Tensor memory and
 * tcgen05").
 *
 * An mma is an agent in flight from its issue: at issue the interpreter checks its shape,
 * its descriptors and the shared bytes it will read (landed, written, fenced for the async
 * proxy: async.c's descriptor decoder, shared with wgmma) and the tensor memory it writes
 * (tmem.c: ordered after the reads of other warps); its shared bytes stay "being read"
 * (a TMA load into them is a finding) until it completes. The scheduler completes a
 * thread's mmas in issue order, at steps drawn from the seed: the mma then reads A and B
 * through the descriptors and computes D = A * B^T (+ D) into tensor memory. A commit is
 * an agent that completes after the thread's earlier mmas: one arrival on its mbarrier (in
 * each CTA of its multicast mask), carrying the mmas' completion (tmem.c's clocks). */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define LANES(l, m) for (uint32_t m_ = (m); m_ && ((l) = __builtin_ctz(m_), 1); m_ &= m_ - 1)

/* The element types of the imm's kind field (0 bf16, 1 f16, 2 e4m3, 3 e5m2). */
static const IrBase mma_kinds[] = {IR_BF16, IR_F16, IR_E4M3, IR_E5M2};

/* The shape and kind of a tcgen05.mma imm: 0, or -1 after a finding (an illegal shape; a
 * form the interpreter does not run yet). */
static int
mma_shape(Warp *w, const IrOp *op, int *m, int *n, IrBase *et)
{
	int kind = (int)(op->imm >> 12 & 0xf);

	*n = (int)(op->imm & 0x1ff);
	*m = (int)(op->imm >> 9 & 7) * 64;
	if (op->imm >> 16 & 3) {
		interp_fail(w, op, 0, "not yet supported by the interpreter: tcgen05.mma with %s",
			    op->imm >> 16 & 1 ? "cta_group::2" : "an f16 accumulator");
		return -1;
	}
	if (kind > 3 || (*m != 64 && *m != 128) || *n < 8 || *n > 256 || *n % 8) {
		interp_fail(w, op, 0, "tcgen05.mma of shape M = %d, N = %d, kind %d (cta_group::1 takes M 64 or 128, N 8..256 in steps of 8; kinds 0..3)",
			    *m, *n, kind);
		return -1;
	}
	if (*m != 128) {
		interp_fail(w, op, 0, "not yet supported by the interpreter: tcgen05.mma with M = %d", *m);
		return -1;
	}
	*et = mma_kinds[kind];
	return 0;
}

/* A shared-memory descriptor of tcgen05 has 0b001 in bits 46..48 (a wgmma one has 0). */
static int
desc_version(Warp *w, const IrOp *op, uint64_t d, const char *which)
{
	if ((d >> 46 & 7) == 1)
		return 0;
	interp_fail(w, op, 0, "tcgen05.mma with the %s descriptor whose bits 46-48 are %llu, not 0b001 (a wgmma descriptor? tcgen05.desc makes them)",
		    which, (unsigned long long)(d >> 46 & 7));
	return -1;
}

/* Checks what operand tile (rows [0, rows)) the mma will read and records its bytes as read
 * until the mma completes. */
static int
operand_issue(Warp *w, const IrOp *op, uint64_t d, int rows, IrBase et, uint32_t seq)
{
	int64_t lo, hi;

	if (async_desc_read(w, op, d, 0, rows, et, NULL, &lo, &hi) != 0)
		return -1;
	async_read_record(w, op, TC_READ, seq, lo, hi);
	return 0;
}

/* One thread's (lane l's) tcgen05.mma: the checks, then an agent in flight. */
static int
mma_issue(Warp *w, const IrOp *op, int l)
{
	uint64_t da = reg(w, op->args[1], 0)[l], db = reg(w, op->args[2], 0)[l];
	uint32_t taddr = (uint32_t)reg(w, op->args[0], 0)[l], seq;
	int accum = (int)(reg(w, op->args[3], 0)[l] & 1), m, n;
	IrBase et;
	Agent *a;

	if (mma_shape(w, op, &m, &n, &et) != 0)
		return -1;
	if (ir_vtype(w->it->k, op->args[1]).base != IR_I64) {
		interp_fail(w, op, 1u << l, "not yet supported by the interpreter: tcgen05.mma with A in tensor memory");
		return -1;
	}
	seq = w->tc.issued[TC_MMA] + 1;
	if (desc_version(w, op, da, "A") != 0 || desc_version(w, op, db, "B") != 0 ||
	    operand_issue(w, op, da, m, et, seq) != 0 || operand_issue(w, op, db, n, et, seq) != 0)
		return -1;
	w->tc.issued[TC_MMA] = seq;
	if (tmem_mma_issue(w, op, l, taddr, m, n, accum) != 0)
		return -1;
	a = async_agent_new(w, op, l, AG_TC_MMA);
	a->da = da;
	a->db = db;
	a->taddr = taddr;
	a->accum = accum;
	a->seq = seq;
	return 0;
}

void
ex_tcgen05_mma(Warp *w, const IrOp *op, uint32_t mask)
{
	int l;

	LANES(l, mask) if (mma_issue(w, op, l) != 0)
		return;
}

void
ex_tcgen05_commit(Warp *w, const IrOp *op, uint32_t mask)
{
	uint32_t ranks;
	uint64_t p;
	Agent *a;
	int l;

	if (op->imm >> 16 & 1) {
		interp_fail(w, op, 0, "not yet supported by the interpreter: tcgen05.commit with cta_group::2");
		return;
	}
	LANES(l, mask) {
		p = reg(w, op->args[0], 0)[l];
		ranks = op->nargs > 1 ? (uint32_t)(reg(w, op->args[1], 0)[l] & 0xffff) : 0;
		if (mem_shared_at(w, op, l, p, 8, 8) < 0)
			return;
		if (ranks >> w->it->ncta) {
			interp_fail(w, op, 1u << l, "tcgen05.commit multicast to cluster ranks %#x of a cluster of %d", ranks, w->it->ncta);
			return;
		}
		tmem_fence_before(w);   /* commit implies tcgen05.fence::before_thread_sync */
		a = async_agent_new(w, op, l, AG_TC_COMMIT);
		a->mbar = p;
		a->ranks = ranks;
		a->seq = w->tc.issued[TC_MMA];
	}
}

/* Drops the shared reads of the mma numbered seq of warp gid. */
static void
reads_end(Block *bk, int gid, uint32_t seq)
{
	int i, j;

	for (i = 0, j = 0; i < bk->nreads; i++) {
		const WgmmaRead *r = &bk->reads[i];

		if (!(r->warp == gid && r->group == TC_READ && r->seq == seq))
			bk->reads[j++] = *r;
	}
	bk->nreads = j;
}

/* D[i][j] = sum over k of A[i][k] B[j][k] (+ D[i][j]): per element, the products (exact
 * in double) added one by one in k order to the f32 accumulator, each sum rounded to f32. */
static void
mma_compute(Block *bk, const Agent *a, const double *A, const double *B, int m, int n, int nk)
{
	int c0 = (int)(a->taddr & 0xffff), i, j, k;

	for (i = 0; i < m; i++)
		for (j = 0; j < n; j++) {
			uint32_t *cell = tmem_cell(bk, i, c0 + j);
			float acc = a->accum ? num_f32(*cell) : 0.0f;

			for (k = 0; k < nk; k++)
				acc = (float)((double)acc + A[i * nk + k] * B[j * nk + k]);
			*cell = acc == acc ? (uint32_t)num_f32_bits(acc) : NUM_F32_NAN;
		}
}

static int
mma_complete(Interp *it, const Agent *a)
{
	Warp *w = &it->warps[a->warp];
	int m, n, nk;
	IrBase et;
	double *A, *B;
	int64_t lo, hi;
	int bad;

	if (mma_shape(w, a->op, &m, &n, &et) != 0)
		return -1;
	nk = 32 / ir_type_bytes(ir_scalar(et));
	A = xmalloc((size_t)m * (size_t)nk * sizeof *A);
	B = xmalloc((size_t)n * (size_t)nk * sizeof *B);
	bad = async_desc_read(w, a->op, a->da, 0, m, et, A, &lo, &hi) != 0 ||
	      async_desc_read(w, a->op, a->db, 0, n, et, B, &lo, &hi) != 0;
	if (!bad)
		mma_compute(it->blk, a, A, B, m, n, nk);
	free(A);
	free(B);
	w->tc.done[TC_MMA] = a->seq;
	reads_end(it->blk, a->warp, a->seq);
	return bad ? -1 : 0;
}

/* The commit's arrival (on each CTA of its mask): it carries the completion of the
 * thread's mmas up to a->seq. */
static int
commit_complete(Interp *it, const Agent *a)
{
	Warp *w = &it->warps[a->warp];
	Block *own = it->blk;
	int r, bad = 0;

	if (w->tc.rel.v[TC_MMA][w->id] < a->seq)
		w->tc.rel.v[TC_MMA][w->id] = a->seq;
	w->tc.any = 1;
	if (!a->ranks)
		return async_arrive(w, a->op, a->lane, a->mbar);
	for (r = 0; r < it->ncta && !bad; r++)
		if (a->ranks >> r & 1) {
			it->blk = &it->ctas[r];
			bad = async_arrive(w, a->op, a->lane, a->mbar) != 0;
			it->blk = own;
		}
	return bad ? -1 : 0;
}

int
tcgen05_complete(Interp *it, const Agent *a)
{
	return a->kind == AG_TC_MMA ? mma_complete(it, a) : commit_complete(it, a);
}
