/* host: the C99 launcher emitter. For each kernel it writes a .h and .c that validate
 * arguments, compute the grid and launch through the runtime (runtime/cakert.h), plus a
 * manifest entry. */
#ifndef CAKE_HOST_H
#define CAKE_HOST_H

#include "../ir/ir.h"

/* The compiled images of one kernel, one per target (NULL where not built). */
typedef struct HostImages {
	const char *ptx[TARGET_COUNT];
	const unsigned char *cubin[TARGET_COUNT];
	size_t cubin_len[TARGET_COUNT];
} HostImages;

/* Writes the launcher header and source for k, whose device symbol is `symbol`, and its
 * manifest entry (a JSON object, no trailing newline). */
void host_emit(const IrKernel *k, const char *symbol, uint64_t hash, const HostImages *img,
	       Buf *h, Buf *c, Buf *manifest);

/* The runtime files the output folder needs beside the launchers (name, contents),
 * NULL-terminated. */
typedef struct HostFile {
	const char *name;
	const char *text;
} HostFile;
extern const HostFile host_runtime_files[];

#endif
