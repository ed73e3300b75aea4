/* fuzz_pipeline.h: what the whole-pipeline fuzz targets share (fuzz_pipeline.c): run a
 * module's kernels through the verifier, the pass pipeline, the PTX backend for each
 * target the kernel lists, and the launcher emitter, as cakec does, and abort() on what
 * cakec would report as an internal error (so libFuzzer records the input). */
#ifndef CAKE_FUZZ_PIPELINE_H
#define CAKE_FUZZ_PIPELINE_H

#include "../../ir/ir.h"

/* Compiles every kernel of m (is_ir: m came from IR text, whose verifier errors are the
 * user's) and every entry point; frees m. */
void fuzz_compile_module(IrModule *m, int is_ir);

/* Copies data into a NUL-terminated string (the readers want one). */
char *fuzz_text(const uint8_t *data, size_t size);

/* libFuzzer's entry point, declared for -Wmissing-prototypes. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
