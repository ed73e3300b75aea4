/* internal.h: the interpreter's state, shared by its files (not a public API).
 *
 * Values: every IR value has `width` 64-bit slots per lane (1 for scalars and pointers,
 * the lane count for vectors and accumulator fragments), at slot offset `slot` in its
 * warp's register file, laid out lane-minor: element e of value v in lane l is
 * regs[(slot[v] + e) * 32 + l]. A slot holds an integer normalized by ir_int_norm, a
 * float's bit pattern (f16/bf16: 16 bits, f32: 32, f64: 64, zero-extended), or a pointer
 * encoded as (memory object << 48) | 48-bit byte offset (memory.c). */
#ifndef CAKE_INTERP_INTERNAL_H
#define CAKE_INTERP_INTERNAL_H

#include <ucontext.h>

#include "interp.h"

#define WARP 32
#define ALL_LANES 0xffffffffu
/* for (each lane l of mask m): the set bits, lowest first */
#define LANES(l, m) for (uint32_t m_ = (m); m_ && ((l) = __builtin_ctz(m_), 1); m_ &= m_ - 1)

typedef struct Interp Interp;
typedef struct Block Block;
typedef struct Warp Warp;

/* Why a warp is not running. */
enum { W_RUNNABLE, W_BARRIER, W_MBAR, W_CLUSTER, W_TMEM, W_NAMED, W_POLL, W_DONE };

/* The tcgen05 ordering (tmem.c): per warp of a CTA pair (rank & 1) * warps per CTA + warp,
 * at most 64) and per kind of asynchronous tensor-memory access, the sequence number of
 * the last one ordered. */
enum { TC_MMA, TC_LD, TC_ST, TC_KINDS };
typedef struct TcClock {
	uint32_t v[TC_KINDS][64];
} TcClock;

/* A warp's tcgen05 state: its accesses issued and completed (tcgen05.mma: by the commit
 * agent; ld, st: by wait.ld, wait.st) and what it knows is ordered before its next ops:
 * kn (after tcgen05.fence.after), acq (acquired by a wait or a barrier, not yet fenced),
 * rel (published by its next arrive or barrier: set by tcgen05.fence.before). */
typedef struct TcWarp {
	uint32_t issued[TC_KINDS], done[TC_KINDS];
	TcClock kn, acq, rel;
	int any;        /* rel is not all zero */
	uint32_t *ld_tag;       /* per value: the tcgen05.ld (issued number) that defines it */
	const IrOp **ld_op;
	uint32_t ld_hi;         /* the newest tcgen05.ld tagged */
} TcWarp;

/* Shadow bytes of shared memory: what wrote a byte. */
enum {
	SH_UNWRITTEN,
	SH_WRITTEN,
	SH_PENDING,     /* an async copy in flight (TMA load, cp.async) will write it */
	SH_READING      /* a TMA store in flight still reads it */
};

/* A release that a warp acquired (memory.c): a store.release, or a relaxed atomic write
 * after a gpu-scope fence, read by a load.acquire or wait.ge, or by a relaxed atomic that
 * a gpu-scope fence then followed. The acquiring warp's later accesses, and its CTA's after
 * a barrier (epoch past `at`), are ordered after the releasing warp's accesses before it
 * (release number below `rel`) and its CTA's before a barrier (epoch below `epoch`). */
typedef struct Acquired {
	uint32_t run, rel;
	uint32_t epoch;         /* the releasing CTA's barrier interval at the release */
	uint32_t at;            /* the acquiring CTA's barrier interval at the acquire */
	uint16_t warp;          /* the releasing warp (Warp.gid) */
} Acquired;
#define MAX_ACQUIRED 16
#define MAX_PENDING 4

struct Warp {
	Interp *it;
	Block *b;               /* its CTA */
	int id;                 /* its warp index in the CTA */
	int gid;                /* its index in Interp.warps (CTA rank * warps per CTA + id) */
	uint32_t exists;        /* lanes that are threads of the block */
	uint64_t *regs;
	int state;
	const IrOp *wait_op;    /* the barrier (or mbar.wait) it waits at */
	int64_t wait_bar;       /* W_MBAR: the mbarrier (its byte offset in shared memory);
	                         * W_NAMED: the named barrier's id (wait_parity: its count) */
	int wait_parity;        /* W_MBAR: the parity of the phase it waits for */
	uint32_t cp_groups[WARP];       /* per lane: cp.async groups committed */
	uint32_t bulk_groups[WARP];     /* per lane: TMA store (bulk) groups committed */
	uint32_t wgmma_groups;          /* wgmma groups committed */
	uint32_t wgmma_retired;         /* groups below this retired (wgmma.wait) */
	uint16_t csyncs;                /* cluster barriers passed in this block */
	int poll_timeout;               /* W_POLL: time ran out (nothing else could move) */
	uint32_t nrel;                  /* store.release and gpu-scope fences run in this block */
	int fenced;                     /* a gpu-scope fence ran: its atomic writes release */
	Acquired acq[MAX_ACQUIRED];     /* the releases it acquired, the newest kept */
	int nacq;
	Acquired pend[MAX_PENDING];     /* read by relaxed atomics: acquired at its next fence */
	int npend;
	TcWarp tc;                      /* tcgen05 and tensor memory (tmem.c) */
	/* per value: 1 + the wgmma group whose accumulator (or A fragment) it is, passed on
	 * by copies, wgmma.fence and wgmma.wait; in flight while that group has not retired
	 * (exec.c, acc_check); acc_op: that wgmma. acc_hi: 1 + the newest group tagged. */
	uint32_t *acc_group;
	const IrOp **acc_op;
	uint32_t acc_hi;
	ucontext_t ctx;
	char *stack;
};

/* Per byte of shared memory: the accesses of the current barrier interval (epoch), for the
 * race check. Entries of older epochs are stale, so nothing is cleared between blocks. */
typedef struct Access {
	uint32_t w_epoch, r_epoch;  /* the epoch of the last write; of the reads in r_mask */
	uint32_t r_mask;            /* the warps that read it in r_epoch */
	int w_warp;
	const IrOp *w_op, *r_op;    /* the last write; a read (for the report) */
} Access;

/* Per byte of shared memory: the last write by a thread (the generic proxy) while no
 * fence.proxy.async of that thread ordered it before the async proxy's reads (TMA stores,
 * wgmma): thread + 1 (0: none, or the async proxy wrote it since), and that thread's count
 * of fences at the write (async.c, proxy_check). */
typedef struct GenWrite {
	uint16_t thread;        /* Warp.gid * 32 + lane, + 1 */
	uint32_t fences;
	uint32_t epoch;         /* the writer's CTA's barrier interval then */
	const IrOp *op;
} GenWrite;

/* An mbarrier (async.c), one per 8 bytes of shared memory that mbar.init initialized. */
typedef struct Mbar {
	int init;
	int count;              /* arrivals per phase */
	int pending;            /* arrivals still missing in the current phase */
	int64_t tx;             /* the transaction count: bytes expected minus bytes arrived */
	uint64_t phase;         /* phases completed */
	/* the CTA's warps that arrived in the current phase; in earlier phases (a warp that
	 * finished without its arrival of this phase owed it: async_deadlock) */
	uint32_t arrived, arrived_before;
	int tc;                 /* 1 + its tcgen05 clocks in Block.tm (tmem.c), or 0 */
	/* the last complete-tx that left tx below zero (bytes before their expect-tx), for
	 * the finding when the block ends so (async_block_end) */
	const IrOp *early;
	int early_warp, early_lane;
} Mbar;

/* An asynchronous operation in flight (async.c), which the scheduler completes at a step
 * it draws from the seed (cp.async and TMA stores once their group is committed), or a
 * wait completes. */
/* AG_DONE: a completed agent's slot until the list is compacted (async.c, agent_run) */
enum { AG_TMA_LOAD, AG_TMA_STORE, AG_CP_ASYNC, AG_TC_MMA, AG_TC_COMMIT, AG_DONE };
typedef struct Agent {
	int kind;
	const IrOp *op;         /* the op that issued it (findings are reported there) */
	Block *cta;             /* the CTA whose shared memory it works on */
	int warp;               /* the issuing warp (Warp.gid) and lane */
	int lane;
	uint32_t group;         /* cp.async, TMA store: the thread's group it joined */
	int tmap;               /* TMA: the tensor-map parameter */
	int64_t coord[IR_MAX_RANK];
	int64_t smem;           /* the shared bytes it writes (load, cp.async) or reads (store) */
	int64_t bar;            /* TMA load: the mbarrier it completes bytes on (byte offset) */
	Block *bar_cta;         /* TMA load: the CTA of that mbarrier: cta, or the pair's leader */
	int64_t bytes;
	unsigned char *global;  /* cp.async: the source */
	uint64_t t_issue;       /* --trace: the clock when it was issued */
	/* tcgen05.mma: the descriptors, the D address, enable-input-d; both: the issuing
	 * warp's tcgen05.mma number (the mma's; the last one a commit tracks); commit: the
	 * mbarrier pointer and the multicast mask of cluster ranks (0: its own CTA) */
	uint64_t da, db, mbar;
	uint32_t taddr, seq, ranks;
	int accum;
} Agent;

/* Shared bytes a wgmma read that has not retired (wgmma.wait): a TMA load into them is a
 * finding (a stage released before its wgmmas retired). */
typedef struct WgmmaRead {
	int warp;               /* Warp.gid */
	uint32_t group;         /* the warp's wgmma group; TC_READ: a tcgen05.mma's */
	uint32_t seq;           /* TC_READ: the warp's tcgen05.mma number */
	int64_t lo, hi;         /* the bytes [lo, hi) */
	const IrOp *op;
} WgmmaRead;

#define TC_READ UINT32_MAX

struct Tmem;

struct Block {
	int64_t id[3];
	int rank;               /* in its cluster */
	unsigned char *smem;    /* the CTA's shared memory, smem_bytes */
	unsigned char *shadow;  /* per byte: written since the block started */
	Access *acc;            /* per byte (check_races) */
	GenWrite *gen;          /* per byte: a generic write the async proxy must not read yet */
	uint32_t epoch;         /* barrier intervals since the run began */
	Mbar *mbar;             /* per 8 bytes of shared memory */
	Agent *agents;          /* in flight, in issue order; ndead of them AG_DONE */
	int nagents, capagents, ndead;
	int64_t pending_bytes;  /* shared bytes marked SH_PENDING or SH_READING */
	WgmmaRead *reads;       /* of wgmmas not retired */
	int nreads, capreads;
	struct Tmem *tm;        /* tensor memory, once a warp allocates it (tmem.c) */
	int named[16];          /* per named barrier (bar.sync id): threads arrived this phase */
	Acquired acq[MAX_ACQUIRED];     /* releases its warps acquired, for its other warps */
	int nacq;
};

/* One access to an element of a global tensor, for the global race check (memory.c). */
typedef struct GlobalAcc {
	const IrOp *op;         /* NULL: none */
	uint32_t run;           /* the cluster run (Interp.run) */
	uint32_t epoch;         /* the CTA's barrier interval then */
	int32_t block;          /* the block's linear index in the grid */
	uint16_t warp;          /* Warp.gid */
	uint16_t csync;         /* cluster barriers the warp had passed */
	uint8_t lane, atomic;
	uint8_t rls;            /* a release: a store.release, or an atomic after a fence */
	uint32_t rel;           /* the warp's release count then (Warp.nrel; the op's own
	                         * number for a store.release) */
} GlobalAcc;

/* A memory object a pointer can point into. */
typedef struct MemObj {
	const char *name;
	int shared;             /* 1: a shared buffer (offset into the CTA's memory) */
	int64_t base;           /* shared: byte offset in the CTA's memory */
	int64_t bytes;          /* the extent accesses are checked against */
	int elem_bytes;
	unsigned char *data;    /* global: the tensor's elements */
	GlobalAcc *race;        /* out and inout tensors (check_global_races): per element,
	                         * the last write and the last two readers (by other warps) */
} MemObj;

struct Interp {
	const IrKernel *k;
	const InterpOptions *o;
	InterpArg *args;
	int64_t grid[3];
	int nthreads, nwarps;
	int *slot, *width;      /* per value id */
	int nslots;
	MemObj *objs;           /* 1..nparams: tensors; nparams+1+i: shared buffer i */
	int nobjs;
	int shared_obj0;        /* object id of shared buffer 0 */
	int mbar_obj0;          /* object id of mbarrier array 0 */
	Block *ctas;            /* the CTAs of the cluster that runs (one without clusters) */
	int ncta;
	Block *blk;             /* the CTA of the warp that runs now (or of the agent that completes) */
	Warp *warps;            /* ncta * nwarps: CTA rank r's warp i at r * nwarps + i */
	ucontext_t sched_ctx;
	Warp *cur;              /* the warp running now */
	uint64_t rng;
	int failed;             /* a finding was reported: everything unwinds */
	uint32_t run;           /* clusters (blocks) started so far */
	uint64_t steps;         /* warp-ops the current block executed */
	uint64_t max_steps;     /* per block; past it a finding (a loop that never ends) */
	int poll_round;         /* the warps polling flags (W_POLL) were woken because nothing
	                         * else could run, and none has seen its value since */
	/* per thread (Warp.gid * 32 + lane), for the proxy fence check (async.c): its
	 * fence.proxy.async count, the epoch of its last one, and the count of those a
	 * barrier interval boundary has since ordered before other warps' accesses */
	uint32_t *fence_no, *fence_epoch, *fence_ordered;
	struct Trace *tracer;   /* --trace: the timeline being recorded (trace.c), or NULL */
	struct Trace *trace;    /* tracer while the cluster that runs is traced, else NULL:
	                         * the hooks below run only when it is set */
};

/* ---- exec.c: the op evaluator ---- */
typedef void (*ExecFn)(Warp *w, const IrOp *op, uint32_t mask);
/* The handler of opcode opc, or NULL when the interpreter does not know the op. */
ExecFn exec_handler(int opc);
/* Runs the kernel body in warp w over all its lanes (the coroutine's body). */
void exec_body(Warp *w);
/* Value v of w holds the accumulator (or A fragment) of w's current wgmma group `op`. */
void exec_acc_tag(Warp *w, IrValue v, const IrOp *op);
/* dst takes src's tag (a copy of the value, a pass-through by wgmma.fence or wait) */
static inline void
exec_acc_copy(Warp *w, IrValue dst, IrValue src)
{
	if (w->acc_group) {
		w->acc_group[dst] = w->acc_group[src];
		w->acc_op[dst] = w->acc_op[src];
		w->tc.ld_tag[dst] = w->tc.ld_tag[src];
		w->tc.ld_op[dst] = w->tc.ld_op[src];
	}
}

static inline uint64_t *
reg(Warp *w, IrValue v, int e)
{
	return &w->regs[(size_t)(w->it->slot[v] + e) * WARP];
}

/* ---- sched.c: blocks, warps, barriers, findings ---- */
/* Blocks warp w at barrier op until every warp of the block (state W_BARRIER) or of the
 * cluster (W_CLUSTER) reached it. */
void sched_barrier(Warp *w, const IrOp *op, int state);
/* Reports a finding at op for lanes of w (mask: the lanes involved, 0 for the warp as a
 * whole) and stops the run. */
void interp_fail(Warp *w, const IrOp *op, uint32_t lanes, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* "lanes 0-15", "lane 3", "lanes 0, 2, 4-7" */
void lanes_str(char *out, size_t size, uint32_t mask);
/* the same with another noun: "warps 0-3" */
void mask_str(char *out, size_t size, uint32_t mask, const char *noun);

/* Whether warp w's op (lane l) reaches the shared memory of cluster rank r after that CTA
 * exited (every warp of it finished: its shared memory is gone): reports it (1), else 0.
 * what names the access. */
int sched_gone(Warp *w, const IrOp *op, int l, int r, const char *what);

/* Blocks warp w at op until the phase of parity `parity` of the mbarrier at shared byte
 * offset bar completed. */
void sched_mbar_wait(Warp *w, const IrOp *op, int64_t bar, int parity);
/* Blocks warp w, polling a flag at op (wait.ge), until the scheduler wakes it to poll
 * again: when nothing else can run. Woken twice with no other progress between, its
 * time runs out (w->poll_timeout). */
void sched_poll(Warp *w, const IrOp *op);
/* bar.sync (wait) / bar.arrive of warp w on named barrier id of its CTA, counting `count`
 * threads a phase; a sync blocks (W_NAMED) until the phase completes. */
void sched_named(Warp *w, const IrOp *op, int id, int count, int wait);

/* ---- async.c: mbarriers, TMA, wgmma ---- */
void ex_mbar(Warp *w, const IrOp *op, uint32_t mask);
void ex_mbar_init(Warp *w, const IrOp *op, uint32_t mask);
void ex_mbar_arrive(Warp *w, const IrOp *op, uint32_t mask);
void ex_mbar_wait(Warp *w, const IrOp *op, uint32_t mask);
void ex_tma_load(Warp *w, const IrOp *op, uint32_t mask);
void ex_tma_load_mc(Warp *w, const IrOp *op, uint32_t mask);
void ex_wgmma_desc(Warp *w, const IrOp *op, uint32_t mask);
void ex_wgmma(Warp *w, const IrOp *op, uint32_t mask);
void ex_wgmma_pass(Warp *w, const IrOp *op, uint32_t mask);
void ex_wgmma_commit(Warp *w, const IrOp *op, uint32_t mask);
void ex_wgmma_wait(Warp *w, const IrOp *op, uint32_t mask);
void ex_setmaxnreg(Warp *w, const IrOp *op, uint32_t mask);
void ex_fence_proxy_async(Warp *w, const IrOp *op, uint32_t mask);
void ex_cluster(Warp *w, const IrOp *op, uint32_t mask);     /* cluster.rank, mapa */
void ex_cluster_sync(Warp *w, const IrOp *op, uint32_t mask);
void ex_tma_store(Warp *w, const IrOp *op, uint32_t mask);
void ex_cp_async(Warp *w, const IrOp *op, uint32_t mask);
/* cp.async.commit, tma.commit: close the lanes' current group */
void ex_async_commit(Warp *w, const IrOp *op, uint32_t mask);
/* cp.async.wait, tma.wait: complete the lanes' groups older than the newest imm */
void ex_async_wait(Warp *w, const IrOp *op, uint32_t mask);
/* Whether the phase w waits for (W_MBAR) completed. */
int async_ready(const Interp *it, const Warp *w);
/* Completes one agent in flight, drawn by r; 0, or -1 after a finding. */
int async_complete(Interp *it, uint64_t r);
/* Every unfinished warp is blocked and nothing is in flight: reports the deadlock of the
 * CTA of warp first. */
void async_deadlock(Interp *it, const Warp *first);
void async_block_start(Interp *it, Block *b);
/* The CTA finished: reports a TMA load still in flight. Returns 0 when none is. */
int async_block_end(Interp *it, Block *b);

/* The descriptor-decoded K-major operand tile of an MMA: rows [r0, r0 + nrows), the 32
 * bytes of one K step each (16 elements of 16 bits, 32 of 8; mn: an N-major operand, as
 * wgmma reads B with imm-trans-b), as doubles into out (NULL:
 * only the checks: bytes in flight, uninitialized, written without a proxy fence); the
 * bytes it reads in [*lo, *hi). 0, or -1 after a finding. */
int async_desc_read(Warp *w, const IrOp *op, uint64_t desc, int mn, int r0, int nrows, IrBase et, double *out, int64_t *lo,
		    int64_t *hi);
/* Records that warp w's wgmma group (or TC_READ: tcgen05.mma number seq) reads shared
 * bytes [lo, hi) of CTA it->blk until it retires (completes). */
void async_read_record(Warp *w, const IrOp *op, uint32_t group, uint32_t seq, int64_t lo, int64_t hi);
/* One thread's arrival on the mbarrier at p in CTA it->blk; -1 after a finding. */
int async_arrive(Warp *w, const IrOp *op, int l, uint64_t p);
Agent *async_agent_new(Warp *w, const IrOp *op, int l, int kind);
/* A collective needs every lane of the warp: 1, or 0 after reporting a divergent one. */
int exec_full_warp(Warp *w, const IrOp *op, uint32_t mask);

/* ---- tmem.c: tensor memory, tcgen05 ordering; tcgen05.c: mma and commit ---- */
void ex_tmem_alloc(Warp *w, const IrOp *op, uint32_t mask);
void ex_tmem_dealloc(Warp *w, const IrOp *op, uint32_t mask);
void ex_tmem_relinquish(Warp *w, const IrOp *op, uint32_t mask);
void ex_tcgen05_ld(Warp *w, const IrOp *op, uint32_t mask);
void ex_tcgen05_st(Warp *w, const IrOp *op, uint32_t mask);
void ex_tcgen05_wait(Warp *w, const IrOp *op, uint32_t mask);
void ex_tcgen05_fence(Warp *w, const IrOp *op, uint32_t mask);
void ex_tcgen05_mma(Warp *w, const IrOp *op, uint32_t mask);
void ex_tcgen05_commit(Warp *w, const IrOp *op, uint32_t mask);
/* Whether warp w (W_TMEM) can allocate now. */
int tmem_ready(const Interp *it, const Warp *w);
/* The deadlock report's words for a warp blocked in tmem.alloc. */
void tmem_wait_str(const Interp *it, const Warp *w, Buf *msg);
/* The tcgen05 ordering at synchronization: w arrives on mbarrier m (of CTA it->blk),
 * w's wait on m returned, m completes a phase, b's warps pass a block barrier. */
void tmem_arrive(Warp *w, Mbar *m);
void tmem_acquire(Warp *w, const Mbar *m);
void tmem_phase(Interp *it, Mbar *m);
void tmem_barrier(Interp *it, Block *b);
/* ... or the warps of the cluster pass a cluster barrier */
void tmem_cluster_barrier(Interp *it);
/* Tensor-memory cells a tcgen05.mma of warp w writes: the access checks, then the marks.
 * 0, or -1 after a finding. */
int tmem_mma_issue(Warp *w, const IrOp *op, Block *bk, uint32_t taddr, int m, int n, int accum);
/* ... and the cells it reads as A from tensor memory (m lanes, ncols columns at taddr):
 * ordered after their last write; then marked read by the mma until a commit orders it. */
int tmem_mma_read_a(Warp *w, const IrOp *op, Block *bk, uint32_t taddr, int m, int ncols);
/* The cells' values (the mma computes at completion) */
uint32_t *tmem_cell(Block *b, int lane, int col);
/* Agent a (AG_TC_MMA, AG_TC_COMMIT) of CTA it->blk completes. 0, or -1 after a finding. */
int tcgen05_complete(Interp *it, const Agent *a);
void tmem_block_start(Interp *it, Block *b);
void tmem_free(Block *b);
/* tcgen05.fence.before's effect (tcgen05.commit implies it) */
void tmem_fence_before(Warp *w);
/* The CTA finished: tensor memory still allocated is a finding (-1). */
int tmem_block_end(Interp *it, Block *b);

/* ---- trace.c: the timeline of --trace (docs/interpreter.md, "Timeline") ----
 * The clock is the cluster's warp-ops (Interp.steps) plus one tick per scheduling step in
 * which no warp could run and an agent completed. Each hook but trace_open, trace_close
 * and trace_cluster_start is called only when it->trace is set. */
/* Creates it->tracer when o->trace_path is set; -1 with a message in err when the file
 * cannot be created. */
int trace_open(Interp *it, Buf *err);
/* Writes the trace (also after a finding: open spans end where the run stopped) and
 * frees it; -1 with a message in err. */
int trace_close(Interp *it, Buf *err);
/* The CTAs of it->ctas are about to run: sets it->trace when they are traced. */
void trace_cluster_start(Interp *it);
void trace_cluster_end(Interp *it);
uint64_t trace_now(const Interp *it);
/* A scheduling step in which no warp could run (the clock advances). */
void trace_idle(Interp *it);
/* w blocks at w->wait_op (begin: state W_BARRIER, W_CLUSTER or W_MBAR), or resumes. */
void trace_wait(Warp *w, int begin);
/* w enters (begin) or leaves the then-region of `if` op (a role's, after expand-async). */
void trace_if(Warp *w, const IrOp *op, int begin);
/* Agent a (of CTA it->blk) completes. */
void trace_agent(Interp *it, const Agent *a);
/* The mbarrier m of CTA it->blk completed a phase. */
void trace_phase(Interp *it, const Mbar *m);
/* w issues a wgmma (op IR_WGMMA) or retires groups (IR_WGMMA_WAIT, before it runs). */
void trace_wgmma(Warp *w, const IrOp *op);

/* ---- memory.c ---- */
uint64_t mem_ptr_make(int obj, int64_t off);
/* p in the shared memory of the cluster's CTA of rank r (mapa) */
uint64_t mem_ptr_at_rank(uint64_t p, int r);
uint64_t mem_ptr_add(uint64_t p, int64_t bytes);
uint64_t mem_ptr_swizzle(const Interp *it, uint64_t p, int span);
/* The shared-memory byte address p points at, or -1 when p is not into shared memory. */
int64_t mem_shared_addr(const Interp *it, uint64_t p);
/* The host address of an access of n bytes (aligned to align) by lane l through pointer
 * p; reports the finding and returns NULL when it is out of bounds, misaligned or (for a
 * read of shared memory) uninitialized. write: marks shared bytes initialized. */
unsigned char *mem_access(Warp *w, const IrOp *op, int l, uint64_t p, int n, int align, int write);
/* The byte offset in shared memory of an access of n bytes (aligned to align) through p,
 * which must point into a shared object; reports the finding and returns -1 otherwise.
 * No shadow or race check (the async ops do their own). */
int64_t mem_shared_at(Warp *w, const IrOp *op, int l, uint64_t p, int n, int align);
/* "byte offset 4 (element 1) of tensor 'y' (...)": where pointer p points (a static buffer) */
const char *mem_where(const Interp *it, uint64_t p);
/* The name of the shared object (buffer or mbarrier array) holding byte offset off. */
const char *mem_shared_name(const Interp *it, int64_t off, int64_t *rel);
int mem_setup(Interp *it, Buf *err);
void mem_block_start(Interp *it, Block *b);
/* The block's warps passed a barrier: accesses before it are ordered before those after. */
void mem_barrier(Interp *it);
void mem_acquire(Warp *w, const Acquired *e);
void mem_free(Interp *it);

/* ---- numeric.c: float formats ---- */
/* The GPU's canonical NaNs. */
#define NUM_F32_NAN 0x7fffffffu
#define NUM_F64_NAN 0x7fffffffffffffffull
double num_to_double(IrBase b, uint64_t bits);
uint64_t num_from_double(IrBase b, double x);      /* one rounding, to nearest even */
static inline float
num_f32(uint64_t bits)
{
	union { uint32_t u; float f; } c;

	c.u = (uint32_t)bits;
	return c.f;
}
static inline uint64_t
num_f32_bits(float f)
{
	union { uint32_t u; float f; } c;

	c.f = f;
	return c.u;
}
static inline double
num_f64(uint64_t bits)
{
	union { uint64_t u; double f; } c;

	c.u = bits;
	return c.f;
}
static inline uint64_t
num_f64_bits(double f)
{
	union { uint64_t u; double f; } c;

	c.f = f;
	return c.u;
}
/* A value conversion (IR_CAST) of one element from type `from` to `to`. */
uint64_t num_convert(IrBase from, IrBase to, uint64_t bits);

#endif
