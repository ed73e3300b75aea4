/* fuzz_ir_parse.c: libFuzzer target for the IR text parser (build with -DCAKEC_FUZZ=ON).
 *
 * Any input must parse or be rejected with a diagnostic, never crash; the verifier must
 * survive whatever the parser accepts; and the round trip is the oracle: text that parses
 * prints as s1, s1 must parse again and print as exactly s1.
 *
 * Run: build/fuzz_ir_parse -max_len=4096 CORPUS_DIR tests/ir tests/passes
 *
 * The diagnostics are stubbed out here (this file defines every diag_* function, so the
 * linker never pulls diag.c): the real ones print, and stop the process after 20 errors,
 * which a fuzzer reaches at once. */
#include "../../ir/ir.h"

#include <stdlib.h>
#include <string.h>

static int nsources, nerrors;

int
diag_add_source(const char *path, const char *text, size_t len)
{
	(void)path;
	(void)text;
	(void)len;
	return nsources++;
}

const char *
diag_source_path(int file)
{
	(void)file;
	return "fuzz.ir";
}

void
diag_verror(SrcLoc loc, const char *fmt, va_list ap)
{
	(void)loc;
	(void)fmt;
	(void)ap;
	nerrors++;
}

void
diag_error(SrcLoc loc, const char *fmt, ...)
{
	(void)loc;
	(void)fmt;
	nerrors++;
}

void
diag_warning(SrcLoc loc, const char *fmt, ...)
{
	(void)loc;
	(void)fmt;
}

void
diag_note(SrcLoc loc, const char *fmt, ...)
{
	(void)loc;
	(void)fmt;
}

int
diag_errors(void)
{
	return nerrors;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	IrModule *m, *m2;
	Buf s1 = {0}, s2 = {0};
	int i, before = nerrors;

	m = ir_parse("fuzz.ir", (const char *)data, size);
	if (!m) {
		if (nerrors == before)
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
