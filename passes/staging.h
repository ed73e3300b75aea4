/* passes/staging.h: the state of the staging-elision pass, shared by staging_core.c (the
 * state and the helpers every file asks: definitions, pointer roots, address equality),
 * staging_elision.c (the analysis, the report and the entry point), staging_rewrite.c
 * (barriers, the rewrite and the buffer table) and staging_disjoint.c (which threads touch
 * which global elements). Calls go only downwards: elision -> rewrite -> disjoint -> core.
 * Private to passes/. */
#ifndef CAKE_STAGING_H
#define CAKE_STAGING_H

#include "passes.h"

/* What a shared pointer points into, besides a buffer number. */
enum { ROOT_NONE = -1, ROOT_UNKNOWN = -2, ROOT_BARRIER = -3 };

#define STG_MAXLOOPS 16
#define STG_WHY 400

/* One op of the kernel; nodes are numbered in program order (pre-order: an op, then the
 * ops of its regions), so a node's descendants are the nodes up to `end`. */
typedef struct StgNode {
	IrOp *op;
	IrRegion *region;   /* the region it is in */
	int parent;         /* the node of the op owning that region, -1 in the body */
	int regno;
	int pos;            /* its index in the region */
	int end;
} StgNode;

/* Copy loop cl[i]'s induction variable stands for read loop rl[i]'s. */
typedef struct StgMap {
	int n;
	int cl[STG_MAXLOOPS], rl[STG_MAXLOOPS];
} StgMap;

/* A read that will become a global load: at its copy (early) or at the read. */
typedef struct StgRead {
	int node, copy;
	int early;
	StgMap map;
} StgRead;

typedef struct StgBuf {
	int refused;
	char why[STG_WHY];
	int *reads, nreads, capreads;       /* load nodes */
	int *copies, ncopies, capcopies;    /* cp.async nodes */
	StgRead *rds;
	int nrds, caprds;
} StgBuf;

/* A barrier met between a wait and a read: kept (with why) or removed. */
typedef struct StgBarrier {
	int node;
	SrcLoc loc;
	char why[STG_WHY];  /* empty when removed */
} StgBarrier;

typedef struct Stg {
	IrKernel *k;
	StgNode *nodes;
	int nnodes, capnodes;
	int *def;           /* per value: the node defining it as a result, or -1 */
	int *argof;         /* per value: the node whose region has it as an argument, or -1 */
	int *argno;         /* ... which argument */
	StgBuf *bufs;       /* per buffer of the kernel when the pass began */
	int nbufs;
	int unknown_at;     /* a node accessing shared memory through an unknown pointer, or -1 */
	StgBarrier *bars;
	int nbars, capbars;
	int removed_commits, removed_waits;
	signed char *uni;   /* per value: uniform() memo, -1 not yet known */
	int nuni;
	uint64_t *shape;    /* per value: stg_equal's shape hash memo, 0 not yet known */
	void **aff;         /* per value (nuni of them): the thread-mode affine form, once found
	                     * (malloc'd; stg_free frees them) */
} Stg;

/* ---- staging_core.c ---- */
/* Fills s for k: the op table, the definitions, empty memos and one StgBuf per buffer. */
void stg_init(Stg *s, IrKernel *k);
void stg_free(Stg *s);
int stg_is_ancestor(const Stg *s, int a, int x);
const IrOp *stg_def(const Stg *s, IrValue v);
const char *stg_where(SrcLoc loc);     /* "12:5"; a few rotating buffers */
int stg_shared_root(const Stg *s, IrValue v);
int stg_global_param(const Stg *s, IrValue v);
int stg_readonly(const Stg *s, IrValue gptr);
/* The loop node whose induction variable v is, or -1. */
int stg_loop_of_iv(const Stg *s, IrValue v);
/* a (at the read) and c (at the copy) compute the same for one thread, the loops of m
 * paired (NULL: none). */
int stg_equal(const Stg *s, const StgMap *m, IrValue a, IrValue c, int depth);

/* ---- staging_rewrite.c ---- */
/* Decides each barrier of s->bars: removed, or kept with the reason. */
void stg_decide_barriers(Stg *s);
/* Rewrites the reads, deletes copies, commits, waits and barriers, and the address ops of
 * the elided buffers. The nodes are stale afterwards. */
void stg_rewrite(Stg *s);
/* Drops the buffers with drop[i] set from k->bufs and renumbers smem and smem.stage. */
void stg_remove_buffers(IrKernel *k, const unsigned char *drop);

/* ---- staging_disjoint.c ---- */
/* 1 when no two threads of a block touch one element through the global pointers ptr[0..n)
 * (elemptr chains from one parameter), each access `elems[i]` elements wide: their element
 * offsets are affine in digits of the thread index with coefficients that make the map
 * injective (mixed radix), with the same thread-independent part. 0 when not proven. */
int stg_disjoint(const Stg *s, const IrValue *ptr, const int *elems, int n);
/* 1 when the shared pointer ptr (an elemptr chain from a buffer), `elems` elements wide,
 * names different elements in different iterations of the copy loops m->cl for one
 * thread: its offset is affine in their induction variables (constant bounds and steps)
 * with mixed-radix coefficients. 0 when not proven. */
int stg_iterations_distinct(const Stg *s, const StgMap *m, IrValue ptr, int elems);

#endif
