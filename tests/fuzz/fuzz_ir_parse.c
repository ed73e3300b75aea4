/* fuzz_ir_parse.c: libFuzzer target for the IR text parser.
 *
 * Any input must parse or be rejected with a diagnostic, never crash; the verifier must
 * survive whatever the parser accepts; and the round trip is the oracle: text that parses
 * prints as s1, s1 must parse again and print as exactly s1. fuzz_ir.c goes on from here
 * through the passes and the backend.
 *
 * Build: a clang build with -DCAKEC_FUZZ=ON (docs/testing.md, "Fuzzing").
 * Run:   build-fuzz/fuzz_ir_parse -dict=tests/fuzz/ir.dict -max_len=4096 CORPUS_DIR tests/ir tests/passes
 *
 * diag_reset(1) keeps the diagnostics quiet: the real ones print, and stop the process
 * after 20 errors, which a fuzzer reaches at once. */
#include "fuzz_pipeline.h"

#include <stdlib.h>
#include <string.h>

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	IrModule *m, *m2;
	Buf s1 = {0}, s2 = {0};
	int i;

	diag_reset(1);
	m = ir_parse("fuzz.ir", (const char *)data, size);
	if (!m) {
		if (!diag_errors())
			abort();  /* rejected without saying why */
		return 0;
	}
	for (i = 0; i < m->nkernels; i++)
		ir_verify(m->kernels[i], "fuzz");
	ir_print_module(&s1, m);
	m2 = ir_parse("fuzz-printed.ir", s1.s, (size_t)s1.len);
	if (!m2)
		abort();  /* the printer wrote something the parser refuses */
	ir_print_module(&s2, m2);
	if (s1.len != s2.len || memcmp(s1.s, s2.s, (size_t)s1.len) != 0)
		abort();  /* print(parse(print(x))) != print(x) */
	ir_module_free(m);
	ir_module_free(m2);
	buf_free(&s1);
	buf_free(&s2);
	return 0;
}
