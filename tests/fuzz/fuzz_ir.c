/* fuzz_ir.c: libFuzzer target for IR text through the verifier, each pass of passes.def
 * alone (on its own fresh parse: a pass must survive any verified input whose properties
 * it requires, or refuse it with a diagnostic), and the default pipeline with the backend
 * for every listed target and the launchers (fuzz_pipeline.c). fuzz_ir_parse.c checks the
 * parser's round trip; this one what comes after it.
 *
 * Build: a clang build with -DCAKEC_FUZZ=ON (docs/testing.md, "Fuzzing").
 * Run:   build-fuzz/fuzz_ir -dict=tests/fuzz/ir.dict -max_len=8192 -timeout=10 \
 *            CORPUS_DIR tests/ir tests/passes */
#include "fuzz_pipeline.h"

#include "../../passes/passes.h"

#include <stdlib.h>
#include <string.h>

static void
each_pass_alone(const char *text, size_t size)
{
	int p, i, nrule;

	for (p = 0; pass_names[p]; p++) {
		IrModule *m;
		PassOptions po;

		diag_reset(1);
		m = ir_parse("fuzz.ir", text, size);
		if (!m)
			return;
		memset(&po, 0, sizeof po);
		po.verify = 1;
		po.opt_level = 2;
		po.only = pass_names[p];
		for (i = 0; i < m->nkernels; i++)
			if (!ir_verify_rules(m->kernels[i], "before the first pass", "before the first pass", &nrule) &&
			    pass_pipeline(m->kernels[i], &po) && !diag_errors())
				abort();        /* a failing pass must say why */
		ir_module_free(m);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	IrModule *m;
	char *text = fuzz_text(data, size);

	each_pass_alone(text, size);
	diag_reset(1);
	m = ir_parse("fuzz.ir", text, size);
	if (m)
		fuzz_compile_module(m, 1);
	free(text);
	return 0;
}
