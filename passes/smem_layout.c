/* smem_layout.c: byte offsets for the kernel's shared-memory buffers.
 *
 * Requires: kernel->bufs with element type, element count and alignment (a power of two;
 *           0 or less means "the element size").
 * Guarantees: every buffer has offset >= 0, a multiple of its alignment; buffers do not
 *           overlap and appear in declaration order; k->smem_bytes is the end of the last
 *           buffer rounded up to 16. A layout past the hardware limit is a user error,
 *           reported at the buffer that crosses it with the whole table in a note.
 * Invalidates: nothing in the op arrays (smem[i] names buffers by number, not offset);
 *           any earlier offsets are recomputed.
 */
#include "passes.h"

/* Largest static + dynamic shared memory one CTA may use on sm_90a and sm_100a/103a. */
#define SMEM_LIMIT 232448

/* Bytes at the start of shared memory kept for objects laid out before the buffers.
 * The seam for mbarriers and the TMEM address slot: once the IR has them they go first,
 * in the first 1024 bytes (so the buffers after them keep 1024-byte alignment for 128B
 * swizzle), and this becomes 1024 whenever the kernel has any of them. With no such
 * objects yet, buffers start at 0. */
static int64_t
reserved_prefix(const IrKernel *k)
{
	(void)k;
	return 0;
}

static int64_t
align_up(int64_t x, int64_t a)
{
	return (x + a - 1) / a * a;
}

/* The buffer's size in bytes, or -1 if it does not fit in an int64. */
static int64_t
buffer_bytes(const IrBuffer *b)
{
	int64_t elem = ir_type_bytes(ir_scalar((IrBase)b->elem));

	if (b->count < 0 || (b->count > 0 && b->count > INT64_MAX / 4 / elem))
		return -1;
	return b->count * elem;
}

static int64_t
buffer_align(const IrBuffer *b)
{
	return b->align > 0 ? b->align : ir_type_bytes(ir_scalar((IrBase)b->elem));
}

static void
report_overflow(const IrKernel *k, int culprit, int64_t end)
{
	Buf table = {0};
	SrcLoc file_only = {k->bufs[culprit].loc.file, 0, 0};
	int i;

	if (end < 0)
		diag_error(k->bufs[culprit].loc,
			   "shared buffer '%s' is too large (%lld elements of %d bytes); the limit is "
			   "%d bytes (227 KiB)", k->bufs[culprit].name, (long long)k->bufs[culprit].count,
			   ir_type_bytes(ir_scalar((IrBase)k->bufs[culprit].elem)), SMEM_LIMIT);
	else
		diag_error(k->bufs[culprit].loc,
			   "shared memory of kernel '%s' needs %lld bytes with buffer '%s' but the limit "
			   "is %d bytes (227 KiB)", k->name, (long long)end, k->bufs[culprit].name,
			   SMEM_LIMIT);
	for (i = 0; i < k->nbufs; i++) {
		int64_t bytes = buffer_bytes(&k->bufs[i]);

		buf_printf(&table, "%s%s at offset %lld, %lld bytes", i ? "; " : "",
			   k->bufs[i].name, (long long)k->bufs[i].offset, (long long)bytes);
	}
	diag_note(file_only, "shared memory layout: %s", table.s ? table.s : "");
	buf_free(&table);
}

void
pass_smem_layout(IrKernel *k)
{
	int64_t off = reserved_prefix(k);
	int culprit = -1, i;
	int64_t culprit_end = 0;

	for (i = 0; i < k->nbufs; i++) {
		IrBuffer *b = &k->bufs[i];
		int64_t bytes = buffer_bytes(b);

		if (bytes < 0) {
			/* Place it anyway so the note's table is complete; the error stops the compile. */
			b->offset = off;
			if (culprit < 0) {
				culprit = i;
				culprit_end = -1;
			}
			continue;
		}
		off = align_up(off, buffer_align(b));
		b->offset = off;
		if (off + bytes > SMEM_LIMIT && culprit < 0) {
			culprit = i;
			culprit_end = off + bytes;
		}
		/* Past the limit only the report needs the numbers; clamp so they stay finite. */
		off = off + bytes > INT64_MAX / 4 ? INT64_MAX / 4 : off + bytes;
	}
	k->smem_bytes = align_up(off, 16);
	if (culprit >= 0)
		report_overflow(k, culprit, culprit_end);
}
