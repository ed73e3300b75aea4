/* passes/canonicalize.c: being written */
#include "passes.h"
void pass_canonicalize(IrKernel *k) { (void)k; }
