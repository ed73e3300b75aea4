/* fuzz_grid.c: libFuzzer target for the launcher's grid-formula language (host/emit.c:
 * host_grid_check, host_grid_eval), the text a kernel's grid(...) becomes and that the
 * launchers and the interpreter evaluate. The input is eight little-endian int64 values
 * (the parameters and num_sms) followed by a formula. A formula must be accepted or
 * refused with a message, never crash; what check accepts, eval computes or refuses with
 * a message (division by zero, overflow), and eval never accepts what check refused.
 *
 * Build: a clang build with -DCAKEC_FUZZ=ON (docs/testing.md, "Fuzzing").
 * Run:   build-fuzz/fuzz_grid -max_len=512 CORPUS_DIR */
#include "fuzz_pipeline.h"

#include "../../host/host.h"

#include <stdlib.h>
#include <string.h>

/* syms, an integer scalar of each width, a float scalar and a tensor: every kind of name a
 * formula may or may not use */
static const char kernel_text[] =
	"kernel @k {\n"
	"  targets sm_90a\n"
	"  threads 32 1 1\n"
	"  grid \"1\" \"1\" \"1\"\n"
	"  param x : tensor in f32 [M, N]\n"
	"  param M : sym\n"
	"  param N : sym\n"
	"  param K : sym\n"
	"  param s : scalar i32\n"
	"  param w : scalar i64\n"
	"  param f : scalar f32\n"
	"  body(%1: ptr.global.f32, %2: i32, %3: i32, %4: i32, %5: i32, %6: i64, %7: f32) {\n"
	"    ret\n"
	"  }\n"
	"}\n";

static IrModule *mod;

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int64_t vals[8], out;
	Buf err = {0};
	char *expr;
	int ok;

	if (!mod) {
		diag_reset(1);
		mod = ir_parse("grid.ir", kernel_text, sizeof kernel_text - 1);
		if (!mod || mod->nkernels != 1)
			abort();
	}
	if (size < sizeof vals)
		return 0;
	memcpy(vals, data, sizeof vals);
	expr = fuzz_text(data + sizeof vals, size - sizeof vals);
	ok = host_grid_check(mod->kernels[0], expr, &err) == 0;
	if (!ok && !err.len)
		abort();        /* a refusal must say why */
	err.len = 0;
	if (host_grid_eval(mod->kernels[0], expr, vals, vals[7], &out, &err) == 0) {
		if (!ok)
			abort();        /* eval computed what check refused */
	} else if (!err.len) {
		abort();                /* a refusal must say why */
	}
	buf_free(&err);
	free(expr);
	return 0;
}
