/* fuzz_cake.c: libFuzzer target for .cake source through the whole pipeline: frontend,
 * verifier, passes, the PTX backend for every target a kernel lists, launchers and entry
 * points (fuzz_pipeline.c). Any input must end in output or diagnostics: a crash, a
 * sanitizer report, an exit (cakec's internal-error path exits 70) or a hang is a finding.
 *
 * Build: a clang build with -DCAKEC_FUZZ=ON (docs/testing.md, "Fuzzing").
 * Run:   build-fuzz/fuzz_cake -dict=tests/fuzz/cake.dict -max_len=8192 -timeout=10 \
 *            CORPUS_DIR kernels_src/<family> tests/frontend tests/errors */
#include "fuzz_pipeline.h"

#include "../../frontend/frontend.h"

#include <stdlib.h>

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FeOptions fo = {0};
	IrModule *m;
	char *text = fuzz_text(data, size);

	diag_reset(1);
	m = fe_compile("fuzz.cake", text, size, &fo);
	if (m)
		fuzz_compile_module(m, 0);
	free(text);
	return 0;
}
