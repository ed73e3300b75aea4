/* async.h: the state and helpers shared by the sema files of the async constructs
 * (async.c: helpers and clauses; async_decl.c: declarations, roles and blocks;
 * async_call.c: buffer uses and calls; mma_wgmma.c: wgmma and its fragments). Private to
 * frontend/. */
#ifndef CAKE_ASYNC_H
#define CAKE_ASYNC_H

#include "ast.h"

#define MBAR_MAX ((1 << 20) - 1)   /* arrival and tx counts are 20-bit */
#define TMA_MAX_RANK 5
#define TMA_MAX_BOX 256
#define MAX_CLUSTER 8
#define MAX_STAGES IR_MAX_STAGES

struct AsyncSema {
	KernelInfo *ki;
	Node *kernel;
	int threads, nwarps;
	Node *role;             /* the role being checked */
	int in_elect;
	int nasync;             /* enclosing produce/consume blocks, innermost last */
	Node *async[FE_MAX_ASYNC];
	int npipes, nbars;
	Symbol **hobjs;
	int nhobjs, caphobjs;
	Symbol **tmaps;
	int ntmaps, captmaps;
	int ntmap_params;       /* their IR parameters (a per_rank tensor's map: one per rank) */
	Node **roles;
	int nroles, caproles;
	Symbol **tmems;         /* tensor memory (mma_tcgen05.c) */
	int ntmems, captmems;
	int tmem_used;          /* columns of all stages of all of them */
	int nturn_ids;          /* named barriers the roles' turns took (turns.c) */
	Node *rr;               /* the round_robin loop being checked (round_robin.c) */
};

typedef struct AsyncSema AsyncSema;

/* ---- async.c: helpers ---- */
const char *asy_a_what(const Symbol *s);     /* "a pipeline", "an mbarrier" */
/* Reports (naming `what`) unless s is at the top level of the kernel body. */
int asy_top_level(Sema *S, Node *s, const char *what);
/* A compile-time integer in [lo, hi]; a run-time or constant i32 value. */
int asy_const_in(Sema *S, Node *e, const char *what, int64_t lo, int64_t hi, int64_t *v);
int asy_i32_value(Sema *S, Node *e, const char *what);
/* The symbol of kind `kind` a name argument names, or NULL after reporting. */
Symbol *asy_name_of(Sema *S, Node *a, SymKind kind, const char *call, const char *what);
int64_t asy_elem_bytes(IrType t);
int64_t asy_stage_bytes(const Symbol *b);     /* one stage of a shared array */
int64_t asy_box_bytes(const Symbol *map);     /* one box of a tensor map */
/* Positional arguments (the count; -1 after reporting a named one not in names, a
 * NULL-terminated list; named[i] gets names[i]'s argument or NULL). */
int asy_split_args(Node *e, Node **pos, int max, const char *const *names, Node **named);
#define ASY_NAMES(...) ((const char *const[]){__VA_ARGS__, NULL})
int asy_want_nargs(Node *e, int n, int lo, int hi, const char *form);
int asy_cluster_size(const AsyncSema *h);

/* ---- async_call.c ---- */
/* A shared array named by argument a (its use recorded), or NULL after an error. */
Symbol *asy_buffer_arg(Sema *S, Node *a, const char *call);
/* [c0, ...]: rank i32 coordinates; whose says where the rank comes from. */
int asy_coords_arg(Sema *S, Node *a, int rank, const char *call, const char *whose);

/* ---- mma_wgmma.c ---- */
void asy_wgmma(Sema *S, Node *e);        /* acc = wgmma(acc, a, b) */
void asy_wgmma_store(Sema *S, Node *e);  /* store(tensor, acc, [row, col]) */
void asy_wgmma_fragment(Sema *S, Node *e);  /* fragment(tensor, [row, col], N) */
void asy_frag_rows(Sema *S, Node *e);  /* row_max, row_sum, by_row, mask_cols, mask_above */
void asy_store_rows(Sema *S, Node *e);  /* store_rows(vector, rv, [row]) */
void asy_wgmma_afrag(Sema *S, Node *e);  /* bf16a(acc), f16a(acc) */

/* ---- turns.c ---- */
void asy_turn_call(Sema *S, Node *e);    /* take_turn(), pass_turn() */
void asy_turn_role(Sema *S, Node *r);    /* after role r's body: the ring and the pairing */
int asy_is_acc(IrType t);                /* f32acc[64, N]: a fragment, or f32x4 for N = 8 */

/* ---- mma_tcgen05.c ---- */
#define TMEM_LANES 128
#define TMEM_COLS 512
#define TMEM_LD_MAX 128   /* columns of one tmem_load or tmem_store: tcgen05's .32x32b.x128 */
void asy_tmem(Sema *S, Node *s);          /* tmem NAME: f32[128, COLS] in PIPE; */
void asy_tcgen05_mma(Sema *S, Node *e);   /* tcgen05_mma(D, A, B, accumulate: E) */
void asy_tmem_store(Sema *S, Node *e);    /* tmem_store(D, lane0, col0, r) */
void asy_tmem_end(Sema *S, KernelInfo *ki);  /* ki's tmems */

#endif
