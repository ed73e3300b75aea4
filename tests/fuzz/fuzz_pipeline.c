/* fuzz_pipeline.c: the shared half of the whole-pipeline fuzz targets (fuzz_pipeline.h).
 * It mirrors tools/cakec.c's checks: a .cake kernel that fails the verifier on anything but
 * a schedule rule, a pass pipeline that fails without a diagnostic, a backend failure on a
 * kernel the passes accepted: each is an internal error, here an abort(). */
#include "fuzz_pipeline.h"

#include "../../backend_ptx/backend.h"
#include "../../host/host.h"
#include "../../passes/passes.h"

#include <stdlib.h>
#include <string.h>

char *
fuzz_text(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = 0;
	return s;
}

/* Passes, then every target's PTX and the launcher; 0 when the kernel got through. */
static int
compile_kernel(IrKernel *k, int is_ir)
{
	PassOptions po;
	HostImages img;
	Buf ptx[TARGET_COUNT], h = {0}, c = {0}, man = {0}, err = {0};
	int nerr, nrule, t, ok = 1;

	nerr = ir_verify_rules(k, "before the first pass", is_ir ? "before the first pass" : NULL, &nrule);
	if (nerr) {
		if (!is_ir && nerr != nrule)
			abort();        /* the frontend produced invalid IR */
		return -1;
	}
	memset(&po, 0, sizeof po);
	po.opt_level = 2;
	po.verify = 1;
	po.need_layout = 1;
	if (pass_pipeline(k, &po)) {
		if (!diag_errors())
			abort();        /* a failing pipeline must say why */
		return -1;
	}
	memset(&img, 0, sizeof img);
	memset(ptx, 0, sizeof ptx);
	for (t = 0; t < TARGET_COUNT; t++) {
		if (!(k->targets & (1u << t)))
			continue;
		if (ptx_emit(k, t, "fuzz_kernel", 2, NULL, &ptx[t], &err) != 0)
			abort();        /* valid IR must always lower */
		img.ptx[t] = ptx[t].s;
	}
	host_emit(k, "fuzz_kernel", 1, &img, &h, &c, &man);
	for (t = 0; t < TARGET_COUNT; t++)
		buf_free(&ptx[t]);
	buf_free(&h);
	buf_free(&c);
	buf_free(&man);
	buf_free(&err);
	return ok ? 0 : -1;
}

static void
compile_entries(const IrModule *m)
{
	int i, j, n;

	for (i = 0; i < m->nentries; i++) {
		const IrEntry *e = &m->entries[i];
		IrKernel **insts = calloc((size_t)e->ninst + 1, sizeof *insts);
		Buf h = {0}, c = {0}, man = {0};

		if (!insts)
			abort();
		for (j = 0; j < e->ninst; j++)
			for (n = 0; n < m->nkernels; n++)
				if (strcmp(m->kernels[n]->name, e->insts[j]) == 0)
					insts[j] = m->kernels[n];
		host_emit_entry(e, insts, &h, &c);
		host_entry_manifest(e, insts, &man);
		buf_free(&h);
		buf_free(&c);
		buf_free(&man);
		free(insts);
	}
}

void
fuzz_compile_module(IrModule *m, int is_ir)
{
	int i, failed = 0;

	for (i = 0; i < m->nkernels; i++)
		failed |= compile_kernel(m->kernels[i], is_ir) != 0;
	if (!failed && !diag_errors())
		compile_entries(m);
	ir_module_free(m);
}
