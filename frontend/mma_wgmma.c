/* mma_wgmma.c: sema of Hopper's warpgroup MMA (docs/language.md, "wgmma and accumulator
 * fragments"): f32acc[64, N] fragment types, acc = wgmma(acc, a, b) with its shared
 * operands, and store(tensor, acc, [row, col]). A later MMA family (tcgen05) gets a
 * sibling file; async.c holds what they share. */
#include "async.h"

#include <string.h>

int
asy_frag_type(Sema *S, Node *type, IrType *t)
{
	int64_t m, n;

	if (type->list.n != 2) {
		diag_error(type->loc, "an accumulator fragment is f32acc[64, N], found %d dimension%s",
			   type->list.n, type->list.n == 1 ? "" : "s");
		return 0;
	}
	if (!sema_const_int(S, type->list.head, "the rows of f32acc", &m) ||
	    !sema_const_int(S, type->list.head->next, "the columns of f32acc", &n))
		return 0;
	if (m != 64) {
		diag_error(type->list.head->loc, "an accumulator fragment has 64 rows (one wgmma m64 tile per warpgroup), found %lld",
			   (long long)m);
		return 0;
	}
	if (n < 16 || n > 256 || n % 8) {
		diag_error(type->list.head->next->loc, "the columns of f32acc must be a multiple of 8 from 16 to 256, found %lld",
			   (long long)n);
		return 0;
	}
	*t = ir_vector(IR_F32, (int)(n / 2));
	return 1;
}

/* wgmma and the fragment store run in whole warpgroups. */
static int
whole_warpgroups(Sema *S, Node *e)
{
	AsyncSema *h = S->asy;
	Node *r = h->role;

	if (h->in_elect) {
		diag_error(e->loc, "%s inside an elect block: it needs all 128 threads of the warpgroup", e->name);
		return 0;
	}
	if (r && (r->wlo % 4 || (r->whi - r->wlo + 1) % 4)) {
		diag_error(e->loc, "%s in role '%s' of warps %d .. %d, which is not whole warpgroups (a role that issues wgmma starts at a multiple of 4 warps and spans a multiple of 4)",
			   e->name, r->name, r->wlo, r->whi);
		return 0;
	}
	if (!r && h->threads % 128) {
		diag_error(e->loc, "%s outside any role needs whole warpgroups, but the CTA has %d threads",
			   e->name, h->threads);
		return 0;
	}
	return 1;
}

/* An accumulator fragment value; its N (columns), or 0 after an error. */
static int
frag_arg(Sema *S, Node *e, Node *a)
{
	if (!sema_value(S, a))
		return 0;
	if (ir_is_frag(a->ty))
		return a->ty.lanes * 2;
	diag_error(a->loc, "%s takes an accumulator fragment (f32acc[64, N]) here, found %s", e->name,
		   fe_tname(a->ty));
	return 0;
}

/* A wgmma operand: K-major (K = the inner dimension), swizzled, bf16 or f16. */
static int
wgmma_operand(Node *e, Node *a, Symbol *b, const char *which)
{
	int64_t k = b->rank == 2 ? b->dims[1] : 0, span;

	if (b->rank != 2) {
		diag_error(a->loc, "wgmma operand %s '%s' must have 2 dimensions (rows, K), found %d", which,
			   b->name, b->rank);
		return 0;
	}
	if (b->type.base != IR_BF16 && b->type.base != IR_F16) {
		diag_error(a->loc, "wgmma operand %s '%s' holds %s; wgmma takes bf16 or f16", which, b->name,
			   fe_tname(b->type));
		return 0;
	}
	if (!b->swizzle) {
		diag_error(a->loc, "wgmma operand %s '%s' is not swizzled: declare it swizzle(32), swizzle(64) or swizzle(128)",
			   which, b->name);
		return 0;
	}
	if (k % 16) {
		diag_error(a->loc, "wgmma operand %s '%s' has K = %lld, expected a multiple of 16 (one k16 step each)",
			   which, b->name, (long long)k);
		return 0;
	}
	span = k * asy_elem_bytes(b->type);
	if (span != b->swizzle) {
		diag_error(a->loc, "wgmma operand %s '%s' has rows of %lld bytes (K = %lld), but its swizzle(%d) needs rows of %d bytes",
			   which, b->name, (long long)span, (long long)k, b->swizzle, b->swizzle);
		return 0;
	}
	(void)e;
	return 1;
}

void
asy_wgmma(Sema *S, Node *e)
{
	AsyncSema *h = S->asy;
	Node *args[3], *a;
	Symbol *ba, *bb;
	unsigned missing = h->ki->targets & ~ir_op_targets(IR_WGMMA);
	int n = asy_split_args(e, args, 3, NULL, NULL), cols, t;
	int64_t rows, start;

	if (missing) {
		for (t = 0; t < TARGET_COUNT && !(missing & (1u << t)); t++)
			;
		diag_error(e->loc, "wgmma needs sm_90a; kernel '%s' also targets %s", h->kernel->name,
			   ir_target_name(t));
		return;
	}
	if (n < 0 || !asy_want_nargs(e, n, 3, 3, "an accumulator, operand A and operand B: acc = wgmma(acc, a, b)"))
		return;
	if (!(cols = frag_arg(S, e, args[0])))
		return;
	a = args[1];
	if (a->kind == N_CALL && a->lhs && strcmp(a->name, "rows") == 0) {
		Node *ra[2];
		int m = asy_split_args(a, ra, 2, NULL, NULL);

		a->builtin = BI_ROWS;
		a->ty = fe_ty(TY_NONVALUE);
		if (m < 0 || !asy_want_nargs(a, m, 2, 2, "a first row and a count: buf.rows(start, 64)"))
			return;
		if (!(ba = asy_buffer_arg(S, a->lhs, "wgmma")))
			return;
		a->sym = ba;
		if (!asy_i32_value(S, ra[0], "the first row of rows(...)") ||
		    !sema_const_int(S, ra[1], "the row count of rows(...)", &rows))
			return;
		if (rows != 64) {
			diag_error(ra[1]->loc, "wgmma operand A has 64 rows (m64), found rows(..., %lld)", (long long)rows);
			return;
		}
		if (ra[0]->isconst && ((start = ra[0]->cv.i) % 8 || start < 0 || start + 64 > ba->dims[0])) {
			diag_error(ra[0]->loc, "rows(%lld, 64) of '%s': the first row must be a multiple of 8 (a swizzle atom) and the rows inside its %lld",
				   (long long)start, ba->name, (long long)ba->dims[0]);
			return;
		}
	} else {
		if (!(ba = asy_buffer_arg(S, a, "wgmma")))
			return;
		if (ba->rank == 2 && ba->dims[0] != 64) {
			diag_error(a->loc, "wgmma operand A '%s' has %lld rows; it takes 64 (m64): pass %s.rows(start, 64)",
				   ba->name, (long long)ba->dims[0], ba->name);
			return;
		}
	}
	if (args[2]->kind == N_CALL && args[2]->lhs) {
		diag_error(args[2]->loc, "wgmma operand B is a whole shared array of N rows; only operand A takes buf.rows(start, 64)");
		return;
	}
	if (!(bb = asy_buffer_arg(S, args[2], "wgmma")))
		return;
	if (!wgmma_operand(e, a->lhs && a->kind == N_CALL ? a->lhs : a, ba, "A") ||
	    !wgmma_operand(e, args[2], bb, "B"))
		return;
	if (ba->type.base != bb->type.base) {
		diag_error(e->loc, "wgmma operands must have one type: A '%s' is %s but B '%s' is %s", ba->name,
			   fe_tname(ba->type), bb->name, fe_tname(bb->type));
		return;
	}
	if (ba->dims[1] != bb->dims[1]) {
		diag_error(e->loc, "wgmma operands must share K: A '%s' has K = %lld but B '%s' has K = %lld",
			   ba->name, (long long)ba->dims[1], bb->name, (long long)bb->dims[1]);
		return;
	}
	if (bb->dims[0] != cols) {
		diag_error(args[2]->loc, "wgmma operand B '%s' has %lld rows but the accumulator has N = %d columns",
			   bb->name, (long long)bb->dims[0], cols);
		return;
	}
	if (!whole_warpgroups(S, e))
		return;
	e->ty = args[0]->ty;
}

/* store(tensor, acc, [row0, col0]): the fragment's elements at their (row, col). */
void
asy_wgmma_store(Sema *S, Node *e)
{
	Node *args[3];
	Symbol *t;
	int n = asy_split_args(e, args, 3, NULL, NULL);

	if (n < 0 || !asy_want_nargs(e, n, 3, 3, "a tensor, an accumulator and [row, col]: store(c, acc, [r, c])"))
		return;
	if (!(t = asy_name_of(S, args[0], SYM_TENSOR, "store", "a tensor first")))
		return;
	if (!frag_arg(S, e, args[1]))
		return;
	if (t->rank != 2) {
		diag_error(args[0]->loc, "store writes a 2-dimensional tensor, but '%s' has %d dimension%s",
			   t->name, t->rank, t->rank == 1 ? "" : "s");
		return;
	}
	if (t->access == ACC_IN) {
		diag_error(args[0]->loc, "cannot write to '%s': it is an 'in' tensor (declare it 'out' or 'inout')",
			   t->name);
		return;
	}
	if (t->type.base != IR_F32 && t->type.base != IR_BF16 && t->type.base != IR_F16) {
		diag_error(args[0]->loc, "store converts the accumulator to f32, bf16 or f16, but '%s' holds %s",
			   t->name, fe_tname(t->type));
		return;
	}
	if (!asy_coords_arg(S, args[2], 2, "store", "a row and a column"))
		return;
	whole_warpgroups(S, e);
}
