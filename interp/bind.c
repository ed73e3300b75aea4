/* bind.c: a launch's arguments as the launcher checks them: tensor ranks and fixed dims,
 * each sym bound from the tensor dims that name it (all must agree) unless given, and
 * the grid computed from the kernel's formulas by the launcher's own evaluator
 * (host_grid_eval), with the launcher's limits. */
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
