/* host/emit.c: being written */
#include "host.h"
void host_emit(const IrKernel *k, const char *symbol, uint64_t hash, const HostImages *img, Buf *h, Buf *c, Buf *manifest)
{ (void)k; (void)symbol; (void)hash; (void)img; (void)h; (void)c; (void)manifest; }
