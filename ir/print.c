/* ir/print.c: being written */
#include "ir.h"
void ir_print_kernel(Buf *out, const IrKernel *k) { (void)out; (void)k; }
void ir_print_module(Buf *out, const IrModule *m) { (void)out; (void)m; }
