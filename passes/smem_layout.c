/* smem_layout.c: byte offsets for the kernel's mbarriers and shared-memory buffers.
 *
 * Requires: kernel->bufs with element type, element count, alignment (a power of two; 0 or
 *           less means "the element size"), stages, pipeline, swizzle and alias;
 *           kernel->barriers with their array lengths.
 * Guarantees: barriers from offset 0, 8 bytes per object in declaration order (a pipeline's
 *           full/empty arrays as n consecutive objects); buffers from 1024 when there are
 *           barriers (0 otherwise) so that a 1024-aligned buffer loses nothing. A pipeline's
 *           staged buffers form one stage group: stage s holds each member's stage s side by
 *           side, and all members share the group's stage_stride (the stage's bytes rounded
 *           up to the largest member alignment). Groups come first (in pipeline order), then
 *           staged buffers of no pipeline (each its own group), then unstaged buffers in
 *           declaration order. An alias takes its target's offset (following alias chains),
 *           and its target reserves room for the larger of the two. Every offset is a
 *           multiple of the buffer's alignment: 1024/512/256 for 128/64/32-byte swizzle,
 *           else the explicit alignment, else the element size (the larger when several
 *           apply). k->smem_bytes is the end of the layout rounded up to 16. A layout past
 *           the hardware limit is a user error at the buffer that crosses it, followed by
 *           the table that --report=smem prints.
 * Invalidates: nothing in the op arrays (smem[i], smem.stage[i] and mbar[i] name objects by
 *           number, not offset); earlier offsets and strides are recomputed.
 */
#include "passes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MBAR_BYTES 8
/* Where buffers start when there are barriers (or, later, the TMEM address slot): past
 * them, at the alignment 128-byte swizzle needs. */
#define BUFFER_BASE 1024
/* Offsets past this only feed the error report; clamping keeps the arithmetic finite. */
#define CLAMP (INT64_MAX / 8)

typedef struct Layout {
	IrKernel *k;
	int64_t *bytes;   /* per buffer: one stage, or -1 when it does not fit an int64 */
	int64_t *align;   /* per buffer, raised by the buffers aliasing it */
	int64_t *need;    /* per buffer: bytes its aliases need from its offset on (0: none) */
	int *root;        /* per buffer: the end of its alias chain (itself when not an alias) */
	int *placed;
	int64_t limit;    /* shared memory one CTA may use on every target of the kernel */
	int culprit;      /* the first buffer that crosses the limit, or -1 */
	int huge;         /* the culprit does not fit an int64 at all */
} Layout;

static int64_t
align_up(int64_t x, int64_t a)
{
	if (x > CLAMP)
		return CLAMP;
	return (x + a - 1) / a * a;
}

static int64_t
add_clamped(int64_t a, int64_t b)
{
	return a > CLAMP - b ? CLAMP : a + b;
}

static int64_t
mul_clamped(int64_t a, int64_t b)
{
	return b > 0 && a > CLAMP / b ? CLAMP : a * b;
}

static int64_t
elem_bytes(const IrBuffer *b)
{
	return ir_type_bytes(ir_scalar((IrBase)b->elem));
}

static int
buffer_stages(const IrBuffer *b)
{
	return b->stages > 1 ? b->stages : 1;
}

/* One stage's size in bytes, or -1 if it does not fit in an int64. */
static int64_t
buffer_bytes(const IrBuffer *b)
{
	int64_t elem = elem_bytes(b);

	if (b->count < 0 || (b->count > 0 && b->count > CLAMP / elem))
		return -1;
	return b->count * elem;
}

static int64_t
swizzle_align(int swizzle)
{
	switch (swizzle) {
	case 128: return 1024;
	case 64: return 512;
	case 32: return 256;
	default: return 1;
	}
}

static int64_t
buffer_align(const IrBuffer *b)
{
	int64_t a = b->align > 0 ? b->align : elem_bytes(b);
	int64_t s = swizzle_align(b->swizzle);

	return s > a ? s : a;
}

static int
is_staged(const IrBuffer *b)
{
	return b->pipeline >= 0 || b->stages > 1;
}

/* The end of b's alias chain; -1 for a cycle or a dangling index (the verifier reports
 * those; layout just treats the buffer as unaliased). */
static int
alias_root(const IrKernel *k, int b)
{
	int steps = 0;

	while (k->bufs[b].alias >= 0 && k->bufs[b].alias < k->nbufs && k->bufs[b].alias != b) {
		b = k->bufs[b].alias;
		if (++steps > k->nbufs)
			return -1;
	}
	return b;
}

static void
crossed(Layout *L, int b, int64_t end)
{
	if (L->culprit < 0 && (end > L->limit || L->bytes[b] < 0)) {
		L->culprit = b;
		L->huge = L->bytes[b] < 0;
	}
}

/* Lays out the stage group of `members` (buffer numbers, in declaration order) at off;
 * returns the end of the group. */
static int64_t
place_group(Layout *L, const int *members, int n, int stages, int64_t off)
{
	IrKernel *k = L->k;
	int64_t in = 0, maxalign = 1, stride, base, end;
	int64_t *at = xcalloc((size_t)n, sizeof *at);
	int i, s;

	for (i = 0; i < n; i++) {
		int64_t a = L->align[members[i]];

		in = align_up(in, a);
		at[i] = in;
		in = add_clamped(in, L->bytes[members[i]] < 0 ? 0 : L->bytes[members[i]]);
		if (a > maxalign)
			maxalign = a;
	}
	stride = align_up(in > 0 ? in : 1, maxalign);
	base = align_up(off, maxalign);
	end = add_clamped(base, mul_clamped(stride, stages));
	for (i = 0; i < n; i++) {
		IrBuffer *b = &k->bufs[members[i]];

		b->offset = add_clamped(base, at[i]);
		b->stage_stride = stride;
		L->placed[members[i]] = 1;
		/* Aliases of a member may reach past the group. */
		if (L->need[members[i]] > 0 && add_clamped(b->offset, L->need[members[i]]) > end)
			end = add_clamped(b->offset, L->need[members[i]]);
	}
	/* The member that crosses the limit first, in address order (stage by stage). */
	for (s = 0; s < stages && L->culprit < 0; s++)
		for (i = 0; i < n && L->culprit < 0; i++)
			crossed(L, members[i], add_clamped(add_clamped(base, mul_clamped(stride, s)),
							   add_clamped(at[i], L->bytes[members[i]])));
	if (L->culprit < 0 && end > L->limit)
		L->culprit = members[n - 1];
	free(at);
	return end;
}

static int64_t
place_single(Layout *L, int b, int64_t off)
{
	IrBuffer *buf = &L->k->bufs[b];
	int64_t bytes = L->bytes[b] < 0 ? 0 : L->bytes[b];
	int64_t end;

	if (L->need[b] > bytes)
		bytes = L->need[b];
	buf->offset = align_up(off, L->align[b]);
	buf->stage_stride = 0;
	end = add_clamped(buf->offset, bytes);
	L->placed[b] = 1;
	crossed(L, b, end);
	return end;
}

/* The bytes an alias covers from its offset: all its stages. */
static int64_t
alias_footprint(const Layout *L, int b)
{
	const IrBuffer *buf = &L->k->bufs[b];
	int64_t bytes = L->bytes[b] < 0 ? CLAMP : L->bytes[b];

	if (buffer_stages(buf) == 1)
		return bytes;
	return mul_clamped(align_up(bytes > 0 ? bytes : 1, L->align[b]), buffer_stages(buf));
}

static int64_t
place_barriers(IrKernel *k)
{
	int64_t off = 0;
	int i;

	for (i = 0; i < k->nbarriers; i++) {
		IrBarrier *bar = &k->barriers[i];

		bar->offset = off;
		off = add_clamped(off, mul_clamped(MBAR_BYTES, bar->n > 1 ? bar->n : 1));
	}
	return off;
}

/* Targets named in messages and the table: the kernel's own, or every target when it lists
 * none (IR written by hand, or a --target that none of its targets(...) matched): the
 * limit is then the smallest of them all (ir_kernel_smem_limit). */
static void
target_names(const IrKernel *k, char *out, size_t size)
{
	unsigned mask = k->targets & IR_ALL_TARGETS ? k->targets : IR_ALL_TARGETS;
	int t, n = 0;

	out[0] = 0;
	for (t = 0; t < TARGET_COUNT; t++)
		if (mask & (1u << t)) {
			size_t len = strlen(out);

			snprintf(out + len, size - len, "%s%s", n++ ? "/" : "", ir_target_name(t));
		}
}

static void
row(Buf *out, int w, const char *name, int64_t offset, int64_t bytes, int stages,
    int64_t stride, int64_t align, const char *alias)
{
	char stride_s[32];

	if (stages > 1)
		snprintf(stride_s, sizeof stride_s, "%lld", (long long)stride);
	else
		snprintf(stride_s, sizeof stride_s, "-");
	buf_printf(out, "  %-*s%8lld%9lld%8d%8s%8lld  %s\n", w, name, (long long)offset,
		   (long long)bytes, stages, stride_s, (long long)align, alias);
}

void
pass_smem_report(Buf *out, const IrKernel *k)
{
	char targets[64];
	int w = 10, i;

	target_names(k, targets, sizeof targets);
	for (i = 0; i < k->nbarriers; i++)
		if ((int)strlen(k->barriers[i].name) + 2 > w)
			w = (int)strlen(k->barriers[i].name) + 2;
	for (i = 0; i < k->nbufs; i++)
		if ((int)strlen(k->bufs[i].name) + 2 > w)
			w = (int)strlen(k->bufs[i].name) + 2;
	buf_printf(out, "kernel %s: shared memory (%s limit %lld bytes)\n", k->name, targets,
		   (long long)ir_kernel_smem_limit(k));
	buf_printf(out, "  %-*s%8s%9s%8s%8s%8s  %s\n", w, "name", "offset", "bytes", "stages", "stride",
		   "align", "alias");
	for (i = 0; i < k->nbarriers; i++) {
		const IrBarrier *b = &k->barriers[i];
		int n = b->n > 1 ? b->n : 1;

		row(out, w, b->name, b->offset, (int64_t)MBAR_BYTES * n, n, MBAR_BYTES, MBAR_BYTES, "-");
	}
	for (i = 0; i < k->nbufs; i++) {
		const IrBuffer *b = &k->bufs[i];
		int64_t bytes = buffer_bytes(b);
		int stages = buffer_stages(b);
		int alias = b->alias >= 0 && b->alias < k->nbufs ? b->alias : -1;

		if (bytes >= 0)
			bytes = mul_clamped(bytes, stages);
		row(out, w, b->name, b->offset, bytes, stages, b->stage_stride, buffer_align(b),
		    alias >= 0 ? k->bufs[alias].name : "-");
	}
	buf_printf(out, "  %-*s%8lld bytes of %lld\n", w, "total", (long long)k->smem_bytes,
		   (long long)ir_kernel_smem_limit(k));
}

/* --report=tmem: the TMEM column map (the frontend placed the tmems; tcgen05.alloc takes
 * ir_tmem_cols of them). Kept beside the shared-memory map it mirrors. */
void
pass_tmem_report(Buf *out, const IrKernel *k)
{
	int w = 6, i, used = 0;

	if (!k->ntmems) {
		buf_printf(out, "kernel %s: no tensor memory\n", k->name);
		return;
	}
	for (i = 0; i < k->ntmems; i++) {
		used += k->tmems[i].cols * k->tmems[i].stages;
		if ((int)strlen(k->tmems[i].name) + 2 > w)
			w = (int)strlen(k->tmems[i].name) + 2;
	}
	buf_printf(out, "kernel %s: tensor memory (%d of 512 columns allocated, %d used, 128 lanes%s)\n",
		   k->name, ir_tmem_cols(k), used,
		   ir_cta_pair(k) ? "; CTA pairs: each CTA allocates the same columns, the leader's MMAs write both" : "");
	buf_printf(out, "  %-*s%-5s%9s%8s%8s%7s  %-10s %-10s %s\n", w, "name", "type", "columns", "stages",
		   "first", "last", "pipeline", "written", "read");
	for (i = 0; i < k->ntmems; i++) {
		const IrTmem *t = &k->tmems[i];

		buf_printf(out, "  %-*s%-5s%9d%8d%8d%7d  %-10s %-10s %-*s%s\n", w, t->name,
			   t->elem == IR_F16 ? "f16" : t->elem == IR_BF16 ? "bf16" : "f32", t->cols, t->stages, t->col,
			   t->col + t->cols * t->stages - 1, t->pipeline ? t->pipeline : "-",
			   t->writer ? t->writer : "-", t->packed ? 10 : 0, t->reader ? t->reader : "-",
			   t->packed ? " packed (an MMA operand A, two per column)" : "");
	}
}

static void
report_overflow(const Layout *L)
{
	const IrKernel *k = L->k;
	const IrBuffer *b = &k->bufs[L->culprit];
	char targets[64];
	Buf table = {0};

	target_names(k, targets, sizeof targets);
	if (L->huge)
		diag_error(b->loc, "shared buffer '%s' is too large (%lld elements of %lld bytes); the %s "
			   "limit is %lld bytes", b->name, (long long)b->count, (long long)elem_bytes(b),
			   targets, (long long)L->limit);
	else
		diag_error(b->loc, "shared memory of kernel '%s' is %lld bytes, over the %s limit of %lld",
			   k->name, (long long)k->smem_bytes, targets, (long long)L->limit);
	pass_smem_report(&table, k);
	fputs(table.s, stderr);
	buf_free(&table);
}

void
pass_smem_layout(IrKernel *k, PassContext *cx)
{
	Layout L;
	int64_t off;
	int *members, i, p, n;

	(void)cx;
	memset(&L, 0, sizeof L);
	L.k = k;
	L.limit = ir_kernel_smem_limit(k);
	L.culprit = -1;
	n = k->nbufs ? k->nbufs : 1;
	L.bytes = xcalloc((size_t)n, sizeof *L.bytes);
	L.align = xcalloc((size_t)n, sizeof *L.align);
	L.need = xcalloc((size_t)n, sizeof *L.need);
	L.root = xcalloc((size_t)n, sizeof *L.root);
	L.placed = xcalloc((size_t)n, sizeof *L.placed);
	members = xcalloc((size_t)n, sizeof *members);

	for (i = 0; i < k->nbufs; i++) {
		L.bytes[i] = buffer_bytes(&k->bufs[i]);
		L.align[i] = buffer_align(&k->bufs[i]);
		L.root[i] = alias_root(k, i);
	}
	/* A target holds its aliases: their alignment and their size from its offset. */
	for (i = 0; i < k->nbufs; i++) {
		int r = L.root[i];
		int64_t fp;

		if (r < 0 || r == i)
			continue;
		if (L.align[i] > L.align[r])
			L.align[r] = L.align[i];
		fp = alias_footprint(&L, i);
		if (fp > L.need[r])
			L.need[r] = fp;
	}

	off = place_barriers(k);
	if (k->nbarriers && k->nbufs)
		off = align_up(off > 0 ? off : 1, BUFFER_BASE);

	for (p = 0; p < k->npipelines; p++) {
		int m = 0;

		for (i = 0; i < k->nbufs; i++)
			if (k->bufs[i].pipeline == p && L.root[i] == i)
				members[m++] = i;
		if (m)
			off = place_group(&L, members, m, k->pipelines[p].stages > 1 ? k->pipelines[p].stages : 1, off);
	}
	for (i = 0; i < k->nbufs; i++)
		if (!L.placed[i] && L.root[i] == i && is_staged(&k->bufs[i])) {
			members[0] = i;
			off = place_group(&L, members, 1, buffer_stages(&k->bufs[i]), off);
		}
	for (i = 0; i < k->nbufs; i++)
		if (!L.placed[i] && L.root[i] == i)
			off = place_single(&L, i, off);
	/* Aliases (and buffers in a broken alias chain, which the verifier reports). */
	for (i = 0; i < k->nbufs; i++) {
		IrBuffer *b = &k->bufs[i];

		if (L.placed[i])
			continue;
		if (L.root[i] < 0) {
			off = place_single(&L, i, off);
			continue;
		}
		b->offset = k->bufs[L.root[i]].offset;
		b->stage_stride = buffer_stages(b) > 1 ? align_up(L.bytes[i] > 0 ? L.bytes[i] : 1, L.align[i]) : 0;
		if (L.bytes[i] < 0)
			crossed(&L, i, CLAMP);
	}
	k->smem_bytes = align_up(off, 16);
	if (L.culprit >= 0)
		report_overflow(&L);
	free(L.bytes);
	free(L.align);
	free(L.need);
	free(L.root);
	free(L.placed);
	free(members);
}
