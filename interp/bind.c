/* bind.c: a launch's arguments as the launcher checks them: tensor ranks and fixed dims,
 * each sym bound from the tensor dims that name it (all must agree) unless given, and
 * the grid computed from the kernel's formulas by the launcher's own evaluator
 * (host_grid_eval), with the launcher's limits; and the tensor maps a caller encoded
 * itself (InterpArg.tmap) held against the maps the launcher builds, which are the ones
 * the interpreter's TMA reads through. */
#include <stdio.h>
#include <stdlib.h>

#include "../host/host.h"
#include "interp.h"

void
interp_options_default(InterpOptions *o)
{
	o->seed = 0;
	o->num_sms = 132;
	o->check_uninit = 1;
	o->check_races = 1;
	o->check_global_races = 1;
	o->max_steps = 0;
	o->trace_path = NULL;
	o->trace_blocks = 0;
}

int64_t
interp_tensor_elems(const IrKernel *k, int p, const InterpArg *args)
{
	const IrParam *pr = &k->params[p];
	int64_t n = 1;
	int d;

	for (d = 0; d < pr->rank; d++)
		n *= pr->dims[d].sym >= 0 ? args[pr->dims[d].sym].i : pr->dims[d].size;
	return n;
}

/* Binds the syms from tensor t's shape; -1 with a message on a mismatch. */
static int
bind_tensor(const IrKernel *k, int t, InterpArg *args, unsigned char *bound, Buf *err)
{
	const IrParam *p = &k->params[t];
	const InterpArg *a = &args[t];
	int d;

	if (!a->data) {
		buf_printf(err, "tensor '%s' has no data", p->name);
		return -1;
	}
	if (a->rank != p->rank) {
		buf_printf(err, "tensor '%s' has rank %d, expected %d", p->name, a->rank, p->rank);
		return -1;
	}
	for (d = 0; d < p->rank; d++) {
		int s = p->dims[d].sym;
		int64_t v = a->shape[d];

		if (v < 0 || v > INT32_MAX) {
			buf_printf(err, "tensor '%s' dim %d = %lld is out of range", p->name, d, (long long)v);
			return -1;
		}
		if (s < 0) {
			if (v != p->dims[d].size) {
				buf_printf(err, "tensor '%s' dim %d is %lld, expected %lld", p->name, d, (long long)v,
					   (long long)p->dims[d].size);
				return -1;
			}
		} else if (bound[s] || args[s].set) {
			if (args[s].i != v) {
				buf_printf(err, "tensor '%s' dim %d is %lld but sym '%s' is %lld", p->name, d, (long long)v,
					   k->params[s].name, (long long)args[s].i);
				return -1;
			}
		} else {
			bound[s] = 1;
			args[s].i = v;
		}
	}
	return 0;
}

/* Tensor map m given by the caller (args[m].tmap) must be the map the launcher encodes
 * for it: over its tensor's data, the shape reversed (TMA lists dimensions innermost
 * first), row-major contiguous strides, the tma(...) declaration's box, swizzle and fill,
 * element strides 1, no interleave. Returns 0, or -1 with the first difference in err. */
static int
check_tmap(const IrKernel *k, int m, const InterpArg *args, Buf *err)
{
	const IrParam *p = &k->params[m], *tp = &k->params[p->tmap_tensor];
	const InterpTmap *t = args[m].tmap;
	const InterpArg *ta = &args[p->tmap_tensor];
	int eb = ir_type_bytes(ir_scalar((IrBase)tp->type.elem)), r = p->rank, i;
	uint64_t stride = (uint64_t)eb;
	Buf d = {0};

	if (t->rank == 0 && interp_tensor_elems(k, p->tmap_tensor, args) == 0)
		return 0;       /* the all-zero map of an empty tensor, which nothing may read */
	if (t->global != ta->data)
		buf_printf(&d, "its address is %p, the tensor's data %p", t->global, ta->data);
	else if (t->rank != r)
		buf_printf(&d, "its rank is %d, expected %d", t->rank, r);
	else if (t->elem_bytes != eb)
		buf_printf(&d, "its elements are %d bytes, expected %d (%s)", t->elem_bytes, eb,
			   ir_base_name((IrBase)tp->type.elem));
	for (i = 0; i < r && !d.len; i++) {
		int row = r - 1 - i;    /* the tensor's (and the box's) dimension, row-major */

		if (t->dims[i] != (uint64_t)ta->shape[row])
			buf_printf(&d, "dimension %d (innermost first) is %llu, expected %lld (dimension %d of the tensor)",
				   i, (unsigned long long)t->dims[i], (long long)ta->shape[row], row);
		else if (i > 0 && t->strides[i - 1] != stride)
			buf_printf(&d, "the byte stride of dimension %d (innermost first) is %llu, expected %llu (row-major, contiguous)",
				   i, (unsigned long long)t->strides[i - 1], (unsigned long long)stride);
		else if (t->box[i] != (uint64_t)p->dims[row].size)
			buf_printf(&d, "box dimension %d (innermost first) is %u, expected %lld (the tma(...) box)", i,
				   t->box[i], (long long)p->dims[row].size);
		else if (t->elem_strides[i] != 1)
			buf_printf(&d, "element stride %d is %u, expected 1", i, t->elem_strides[i]);
		stride *= (uint64_t)ta->shape[row];
	}
	if (!d.len && t->swizzle != p->swizzle)
		buf_printf(&d, "its swizzle is %d bytes, expected %d", t->swizzle, p->swizzle);
	if (!d.len && t->oob_nan != p->oob_nan)
		buf_printf(&d, "it fills out-of-bounds elements with %s, expected %s", t->oob_nan ? "NaN" : "zero",
			   p->oob_nan ? "NaN" : "zero");
	if (!d.len && t->interleave)
		buf_printf(&d, "it is interleaved (%d), expected no interleave", t->interleave);
	if (!d.len)
		return 0;
	buf_printf(err, "tensor map '%s' does not describe tensor '%s' as the kernel declares it: %s", p->name,
		   tp->name, d.s);
	buf_free(&d);
	return -1;
}

int
interp_bind(const IrKernel *k, InterpArg *args, const InterpOptions *o, int64_t grid[3], Buf *err)
{
	static const int64_t limit[3] = {((int64_t)1 << 31) - 1, 65535, 65535};
	unsigned char *bound = xcalloc((size_t)k->nparams + 1, 1);
	int64_t *vals = xcalloc((size_t)k->nparams + 1, sizeof *vals);
	int i, rc = -1;

	for (i = 0; i < k->nparams; i++)
		if (k->params[i].kind == PARAM_TENSOR && bind_tensor(k, i, args, bound, err) != 0)
			goto out;
	for (i = 0; i < k->nparams; i++) {
		const IrParam *p = &k->params[i];

		if (p->kind == PARAM_SYM && !bound[i] && !args[i].set) {
			buf_printf(err, "sym '%s' is neither given nor bound by a tensor shape", p->name);
			goto out;
		}
		vals[i] = args[i].i;
	}
	for (i = 0; i < k->nparams; i++)
		if (k->params[i].kind == PARAM_TMAP && args[i].tmap && check_tmap(k, i, args, err) != 0)
			goto out;
	if (k->requires) {
		int holds = 0;

		if (host_cond_eval(k, k->requires, vals, o->num_sms ? o->num_sms : 132, &holds, err) != 0)
			goto out;
		if (!holds) {
			buf_printf(err, "the arguments break requires(%s)", k->requires);
			goto out;
		}
	}
	for (i = 0; i < 3; i++) {
		const char *g = k->grid[i] ? k->grid[i] : "1";

		if (host_grid_eval(k, g, vals, o->num_sms ? o->num_sms : 132, &grid[i], err) != 0)
			goto out;
		if (grid[i] < 0 || grid[i] > limit[i]) {
			buf_printf(err, "grid %c = %s = %lld: expected 0..%lld", "xyz"[i], g, (long long)grid[i],
				   (long long)limit[i]);
			goto out;
		}
	}
	rc = 0;
out:
	free(bound);
	free(vals);
	return rc;
}
