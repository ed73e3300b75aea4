/* tensor_align.c: the alignment of each tensor parameter's base address that the launcher
 * checks, and so that the kernel may assume: 16 bytes where the kernel reads or writes the
 * tensor with vector accesses (a 16-byte access needs it) or a TMA map covers it, else the
 * element size. The one owner of that rule: the host emitter checks these alignments, the
 * backend tells LLVM about them (pointer parameters' align), which lets its load/store
 * vectorizer merge adjacent scalar accesses of such tensors. */
#include "ir.h"

#include <stdlib.h>
#include <string.h>

typedef struct VecScan {
	const IrKernel *k;
	const IrOp **def;       /* value -> defining op */
	unsigned char *vec;     /* param -> accessed with a vector type */
} VecScan;

/* Marks the tensor parameters the pointer v derives from through elemptr chains (and
 * bitcasts and selects, which keep the base). */
static void
mark_root(VecScan *vs, IrValue v, int depth)
{
	const IrOp *op;
	int i;

	if (v <= 0 || v >= vs->k->nvalues || depth > 256)
		return;
	for (i = 0; i < vs->k->body.nargs; i++)
		if (vs->k->body.args[i] == v) {
			if (i < vs->k->nparams)
				vs->vec[i] = 1;
			return;
		}
	op = vs->def[v];
	if (!op)
		return;
	switch (op->opc) {
	case IR_ELEMPTR:
	case IR_BITCAST:
		mark_root(vs, op->args[0], depth + 1);
		break;
	case IR_SELECT:
		mark_root(vs, op->args[1], depth + 1);
		mark_root(vs, op->args[2], depth + 1);
		break;
	default:
		break;
	}
}

static void
scan_vector_access(VecScan *vs, const IrRegion *r)
{
	int i, j;

	for (i = 0; i < r->nops; i++) {
		const IrOp *op = &r->ops[i];
		IrType t = {0, 0, 0, 0};

		if (op->opc == IR_LOAD && op->nres == 1)
			t = ir_vtype(vs->k, op->res[0]);
		else if ((op->opc == IR_STORE && op->nargs == 2) || (op->opc == IR_STORE_IF && op->nargs == 3))
			t = ir_vtype(vs->k, op->args[1]);
		else if (op->opc == IR_WGMMA_STORE)
			t.lanes = 2;    /* its full-tile path stores pairs of elements */
		if (t.lanes > 1)
			mark_root(vs, op->args[0], 0);
		for (j = 0; j < op->nregions; j++)
			scan_vector_access(vs, &op->regions[j]);
	}
}

void
ir_tensor_aligns(const IrKernel *k, int *align)
{
	VecScan vs;
	int i;

	memset(&vs, 0, sizeof vs);
	vs.k = k;
	vs.def = ir_def_map(k);
	vs.vec = xcalloc((size_t)k->nparams + 1, 1);
	scan_vector_access(&vs, &k->body);
	for (i = 0; i < k->nparams; i++)
		align[i] = k->params[i].kind != PARAM_TENSOR ? 0
			   : vs.vec[i] ? 16 : ir_type_bytes(ir_scalar((IrBase)k->params[i].type.elem));
	for (i = 0; i < k->nparams; i++)
		if (k->params[i].kind == PARAM_TMAP)
			align[k->params[i].tmap_tensor] = 16;
	free(vs.def);
	free(vs.vec);
}
