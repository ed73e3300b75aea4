/* passes/pipeline.c: being written */
#include "passes.h"
const char *const pass_names[] = {"canonicalize", "cse", "dce", "smem-layout", 0};
int pass_pipeline(IrKernel *k, const PassOptions *o) { (void)o; pass_smem_layout(k); return 0; }
