/* tcgen05.c: tcgen05.mma and tcgen05.commit (docs/interpreter.md, "Tensor memory and
 * tcgen05").
 *
 * An mma is an agent in flight from its issue: at issue the interpreter checks its shape,
 * its descriptors and the shared bytes it will read (landed, written, fenced for the async
 * proxy: async.c's descriptor decoder, shared with wgmma), the tensor memory it writes
 * (tmem.c: ordered after the reads of other warps) and, for A in tensor memory (kind f16,
 * cta_group::1), the cells it reads (ordered after their tcgen05.st); its shared bytes stay "being read"
 * (a TMA load into them is a finding) until it completes. The scheduler completes a
 * thread's mmas in issue order, at steps drawn from the seed: the mma then reads A and B
 * through the descriptors and computes D = A * B^T (+ D) into tensor memory. A commit is
 * an agent that completes after the thread's earlier mmas: one arrival on its mbarrier (in
 * each CTA of its multicast mask), carrying the mmas' completion (tmem.c's clocks). */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Whether op is of cta_group::2 (bit 16 of the imm): the CTA pair. */
static int
cg2(const IrOp *op)
{
	return (int)(op->imm >> 16 & 1);
}

/* The shape and kind of a tcgen05.mma imm (M: the pair's with cta_group::2): 0, or -1
 * after a finding (an illegal shape; a form the interpreter does not run yet). The f16 D
 * bit (17) is mma_compute's. */
static int
mma_shape(Warp *w, const IrOp *op, int *m, int *n, IrBase *et)
{
	int kind = (int)(op->imm >> 12 & 0xf), step = cg2(op) ? 16 : 8, m0 = cg2(op) ? 128 : 64;

	*n = (int)(op->imm & 0x1ff);
	*m = (int)(op->imm >> 9 & 7) * 64;
	if (kind > 3 || (*m != m0 && *m != 2 * m0) || *n < step || *n > 256 || *n % step) {
		interp_fail(w, op, 0, "tcgen05.mma of shape M = %d, N = %d, kind %d (cta_group::%d takes M %d or %d, N %d..256 in steps of %d; kinds 0..3)",
			    *m, *n, kind, 1 + cg2(op), m0, 2 * m0, step, step);
		return -1;
	}
	if (*m != 128 * (1 + cg2(op))) {
		interp_fail(w, op, 0, "not yet supported by the interpreter: tcgen05.mma with M = %d (cta_group::%d)", *m, 1 + cg2(op));
		return -1;
	}
	*et = ir_mma_kind_base(kind);
	return 0;
}

/* The CTAs an mma of warp w works on: its own, or with cta_group::2 the pair, which the
 * even CTA's thread issues. -1 after a finding. */
static int
mma_ctas(Warp *w, const IrOp *op, Block **ctas)
{
	Interp *it = w->it;

	ctas[0] = w->b;
	if (!cg2(op))
		return 1;
	if (w->b->rank % 2 || w->b->rank + 1 >= it->ncta) {
		interp_fail(w, op, 0, "tcgen05.mma with cta_group::2 issued by CTA rank %d of a cluster of %d (the even CTA of a pair issues for both)",
			    w->b->rank, it->ncta);
		return -1;
	}
	ctas[1] = &it->ctas[w->b->rank + 1];
	return 2;
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

	if (async_desc_read(w, op, d, 0, 0, rows, et, NULL, &lo, &hi) != 0)
		return -1;
	async_read_record(w, op, TC_READ, seq, lo, hi);
	return 0;
}

/* Whether the mma takes A from tensor memory (an i32 address, not an i64 descriptor). */
static int
a_in_tmem(const Interp *it, const IrOp *op)
{
	return ir_vtype(it->k, op->args[1]).base != IR_I64;
}

/* The checks of an mma at issue in each of the nc CTAs it works on: their m / nc rows of A
 * (in shared or tensor memory: K / 2 columns of 16-bit pairs) and of D (N columns), their
 * n / nc rows of B. */
static int
mma_issue_in(Warp *w, const IrOp *op, Block *bk, const Agent *a, int m, int n, int nc, IrBase et)
{
	Interp *it = w->it;
	int bad, tm = a_in_tmem(it, op);

	it->blk = bk;
	bad = (tm ? tmem_mma_read_a(w, op, bk, (uint32_t)a->da, m / nc, 16 / ir_type_bytes(ir_scalar(et))) :
		    operand_issue(w, op, a->da, m / nc, et, a->seq)) != 0 ||
	      operand_issue(w, op, a->db, n / nc, et, a->seq) != 0 ||
	      tmem_mma_issue(w, op, bk, a->taddr, m / nc, n, a->accum) != 0;
	it->blk = w->b;
	return bad ? -1 : 0;
}

/* One thread's (lane l's) tcgen05.mma: the checks, then an agent in flight. */
static int
mma_issue(Warp *w, const IrOp *op, int l)
{
	int m, n, nc, h;
	IrBase et;
	Agent a, *ag;
	Block *ctas[2];

	memset(&a, 0, sizeof a);
	a.da = reg(w, op->args[1], 0)[l];
	a.db = reg(w, op->args[2], 0)[l];
	a.taddr = (uint32_t)reg(w, op->args[0], 0)[l];
	a.accum = (int)(reg(w, op->args[3], 0)[l] & 1);
	if (mma_shape(w, op, &m, &n, &et) != 0 || (nc = mma_ctas(w, op, ctas)) < 0)
		return -1;
	if (a_in_tmem(w->it, op) && (cg2(op) || ir_is_fp8(ir_scalar(et)))) {
		interp_fail(w, op, 1u << l, "not yet supported by the interpreter: tcgen05.mma with A in tensor memory with %s",
			    cg2(op) ? "cta_group::2" : "kind f8f6f4");
		return -1;
	}
	if ((!a_in_tmem(w->it, op) && desc_version(w, op, a.da, "A") != 0) || desc_version(w, op, a.db, "B") != 0)
		return -1;
	a.seq = w->tc.issued[TC_MMA] + 1;
	w->tc.issued[TC_MMA] = a.seq;
	for (h = 0; h < nc; h++)
		if (mma_issue_in(w, op, ctas[h], &a, m, n, nc, et) != 0)
			return -1;
	ag = async_agent_new(w, op, l, AG_TC_MMA);
	ag->da = a.da;
	ag->db = a.db;
	ag->taddr = a.taddr;
	ag->accum = a.accum;
	ag->seq = a.seq;
	return 0;
}

/* Two lanes of one tcgen05.mma op into the same accumulator: each thread issues its own
 * mma (a missing elect), which accumulate twice or race. 0, or -1 after a finding. */
static int
one_issuer(Warp *w, const IrOp *op, uint32_t mask)
{
	const uint64_t *d = reg(w, op->args[0], 0);
	int l, f = __builtin_ctz(mask);

	LANES(l, mask & (mask - 1)) if (d[l] == d[f]) {
		interp_fail(w, op, (1u << f) | (1u << l),
			    "lanes %d and %d of the warp issue tcgen05.mma into the same tensor memory in one op: each thread that executes it issues an mma (one thread issues: elect it)",
			    f, l);
		return -1;
	}
	return 0;
}

void
ex_tcgen05_mma(Warp *w, const IrOp *op, uint32_t mask)
{
	int l;

	if (one_issuer(w, op, mask) != 0)
		return;
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

/* The m x nk elements of A in tensor memory of CTA bk at taddr: row i in lane i, elements
 * 2j and 2j + 1 in column j (low and high 16 bits: the layout tcgen05.st of packed pairs
 * writes, docs/language.md). */
static void
tmem_a_read(Block *bk, uint32_t taddr, int m, int nk, IrBase et, double *A)
{
	int c0 = (int)(taddr & 0xffff), i, k;

	for (i = 0; i < m; i++)
		for (k = 0; k < nk; k++)
			A[i * nk + k] = num_to_double(et, *tmem_cell(bk, i, c0 + k / 2) >> (16 * (k & 1)) & 0xffff);
}

/* D[i][j] = sum over k of A[i][k] B[j][k] (+ D[i][j]): per element, the products (exact
 * in double) added one by one in k order to the f32 accumulator, each sum rounded to f32.
 * D: the m rows of CTA bk (lane i = row i). An f16 D (f16d) is one f16 in the low half of
 * each cell, the high half 0 (PTX ISA, tcgen05 "Packing format for matrix D in Tensor
 * Memory"). The ISA does not say how precisely an f16 D accumulates (mma's wording: "at
 * least half precision", order and rounding unspecified); the model is the one a tensor
 * core with an f32 datapath gives: the sum of this mma's K products with D in f32, as for
 * an f32 D, then one rounding to nearest even to f16 when written back, once per mma (K 16,
 * or 32 for fp8). */
static void
mma_compute(Block *bk, const Agent *a, const double *A, const double *B, int m, int n, int nk, int f16d)
{
	int c0 = (int)(a->taddr & 0xffff), i, j, k;

	for (i = 0; i < m; i++)
		for (j = 0; j < n; j++) {
			uint32_t *cell = tmem_cell(bk, i, c0 + j);
			float acc = !a->accum ? 0.0f : f16d ? (float)num_to_double(IR_F16, *cell & 0xffff) : num_f32(*cell);

			for (k = 0; k < nk; k++)
				acc = (float)((double)acc + A[i * nk + k] * B[j * nk + k]);
			if (f16d)
				*cell = (uint32_t)num_from_double(IR_F16, (double)acc);
			else
				*cell = acc == acc ? (uint32_t)num_f32_bits(acc) : NUM_F32_NAN;
		}
}

/* An mma completes: it reads A (each CTA's M / nc rows) and B (N / nc rows of each CTA)
 * and writes each CTA's rows of D. */
static int
mma_complete(Interp *it, const Agent *a)
{
	Warp *w = &it->warps[a->warp];
	Block *own = it->blk, *ctas[2];
	int m, n, nk, nc, h, bad = 0;
	IrBase et;
	double *A, *B;
	int64_t lo, hi;

	if (mma_shape(w, a->op, &m, &n, &et) != 0 || (nc = mma_ctas(w, a->op, ctas)) < 0)
		return -1;
	nk = 32 / ir_type_bytes(ir_scalar(et));
	A = xmalloc((size_t)m * (size_t)nk * sizeof *A);
	B = xmalloc((size_t)n * (size_t)nk * sizeof *B);
	for (h = 0; h < nc && !bad; h++) {
		it->blk = ctas[h];
		if (a_in_tmem(it, a->op))
			tmem_a_read(ctas[h], (uint32_t)a->da, m / nc, nk, et, A + (size_t)h * (m / nc) * nk);
		else
			bad = async_desc_read(w, a->op, a->da, 0, 0, m / nc, et, A + (size_t)h * (m / nc) * nk, &lo, &hi) != 0;
		bad = bad || async_desc_read(w, a->op, a->db, 0, 0, n / nc, et, B + (size_t)h * (n / nc) * nk, &lo, &hi) != 0;
	}
	for (h = 0; h < nc && !bad; h++)
		mma_compute(ctas[h], a, A + (size_t)h * (m / nc) * nk, B, m / nc, n, nk, (int)(a->op->imm >> 17 & 1));
	free(A);
	free(B);
	w->tc.done[TC_MMA] = a->seq;
	for (h = 0; h < nc; h++)
		reads_end(ctas[h], a->warp, a->seq);
	it->blk = own;
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

	if (w->tc.rel.v[TC_MMA][(w->b->rank & 1) * it->nwarps + w->id] < a->seq)
		w->tc.rel.v[TC_MMA][(w->b->rank & 1) * it->nwarps + w->id] = a->seq;
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
