/* backend_ptx: IR -> LLVM IR (LLVM 22 C API) -> NVPTX -> PTX; ptxas for cubins.
 * LLVM headers appear only inside this folder. */
#ifndef CAKE_BACKEND_H
#define CAKE_BACKEND_H

#include "../ir/ir.h"

/* Lowers k for one target. The kernel's entry symbol is `symbol`. Writes the LLVM IR
 * text to llvm_out and/or the PTX to ptx_out (either may be NULL). Returns 0, or -1 with
 * a message in err (an internal error: valid IR must always lower). Deterministic. Calls
 * for different targets may run at the same time on different threads (after ptx_init). */
int ptx_emit(const IrKernel *k, int target, const char *symbol, int opt_level,
	     Buf *llvm_out, Buf *ptx_out, Buf *err);

/* The ptxas to use ($CAKEC_PTXAS, /usr/local/cuda/bin/ptxas, or ptxas on PATH), or NULL. */
const char *ptx_find_ptxas(void);
/* The same in two steps, for a kernel with several targets: ptx_build lowers and
 * optimizes once (writing the LLVM IR to llvm_out if not NULL; NULL with a message in err
 * on failure; with lineinfo the PTX gets .file/.loc directives from the IR's source
 * locations, which ptxas, cuobjdump, ncu and compute-sanitizer show as .cake lines); ptx_codegen then makes each target's PTX: from the module itself (copy 0,
 * once), or from a copy (copy 1, after ptx_module_share). Once shared, the calls may run at
 * the same time on different threads. The PTX is the same as ptx_emit's. */
typedef struct PtxModule PtxModule;
PtxModule *ptx_build(const IrKernel *k, int target, const char *symbol, int opt_level,
		     int lineinfo, Buf *llvm_out, Buf *err);
void ptx_module_share(PtxModule *m);
int ptx_codegen(PtxModule *m, int target, int copy, Buf *ptx_out, Buf *err);
void ptx_module_free(PtxModule *m);

/* Sets up LLVM's NVPTX target once; ptx_emit calls it too, but threads that run ptx_emit
 * at the same time need it done before they start. */
void ptx_init(void);
/* Frees LLVM's global state (and prints what CAKEC_LLVM_ARGS=-time-passes gathered). */
void ptx_shutdown(void);
/* Assembles PTX into a cubin with ptxas (keeping its line table, -lineinfo, when the PTX has
 * one). Returns 0, or -1 with ptxas's messages in log. */
int ptx_assemble(const char *ptx, size_t len, int target, Buf *cubin, Buf *log);
/* ptxas's version as `ptxas --version` ends its release line ("13.0.88"), into out;
 * returns 0, or -1 (no ptxas, or no version in its output). Cubins differ between ptxas
 * versions, so a manifest records the one that built its cubins. */
int ptx_ptxas_version(Buf *out);

#endif
