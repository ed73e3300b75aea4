/* ir/verify.c: being written */
#include "ir.h"
int ir_verify(const IrKernel *k, const char *when) { (void)k; (void)when; return 0; }
