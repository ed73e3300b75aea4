/* backend_ptx/lower_llvm.c: being written */
#include "backend.h"
int ptx_emit(const IrKernel *k, int target, const char *symbol, int opt_level, Buf *llvm_out, Buf *ptx_out, Buf *err)
{ (void)k; (void)target; (void)symbol; (void)opt_level; (void)llvm_out; (void)ptx_out; buf_puts(err, "backend not written yet"); return -1; }
