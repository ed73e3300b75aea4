/* trace.c: the timeline of a run (cakec-run --trace FILE, docs/interpreter.md, "Timeline"),
 * as Chrome Trace Event JSON (what ui.perfetto.dev and chrome://tracing open).
 *
 * The clock is virtual: the warp-ops the cluster executed so far (Interp.steps, one per op
 * a warp runs for its lanes) plus one tick per scheduling step in which no warp could run
 * and an agent completed. It orders what the interpreter did, one warp at a time; it is
 * not a GPU's cycles. Each cluster's clock starts at 0 (on the GPU blocks run at the same
 * time; the interpreter runs them one after another). One step is written as 1 us.
 *
 * A block is a process (pid: its linear index, x fastest); each warp is a thread (tid: the
 * warp) named after its role; the spans of a warp are its role's body, its waits on
 * mbarriers and on the block and cluster barriers. The asynchronous work gets tracks of
 * its own per block, each a family of lanes so that its spans never overlap on one track:
 * "TMA" (a span per load or store, issue to completion), "cp.async" (a span per group of a
 * warp, its first copy's issue to its last copy's completion), "warpgroup N wgmma" (a span
 * per wgmma group, the first warp's issue to the last warp's retirement). Counters: the
 * TMA (and cp.async) bytes in flight, and per pipeline the stages full (full-barrier
 * phases completed minus empty-barrier phases completed).
 *
 * The hooks record raw facts; waits, roles and counters of pipelines become events at
 * once, the async spans and their lanes when the cluster ends. Events are sorted before
 * they are written (metadata first, then per track by time, an enclosing span before what
 * it encloses), so the file is the same bytes for the same seed and inputs. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

typedef struct Trace Trace;

/* Past this many events the rest are dropped (the file says so): a few hundred MB. */
#define MAX_EVENTS 2000000
/* Track families of async spans, indexed by FAM_*: lane l of a family is tid base + l
 * (wgmma: base + 16 * warpgroup + l; warps are tids 0 .. 31); a span that finds none of
 * its lanes free is dropped (the file says it is truncated). */
enum { FAM_TMA, FAM_CP, FAM_WGMMA };
#define MAX_LANES 64
static const struct {
	const char *label;
	int base, lanes;
} fams[] = {
	{"TMA", 100, MAX_LANES},
	{"cp.async", 200, MAX_LANES},
	{"wgmma", 300, 16},
};

typedef struct TEvent {
	char ph;                /* 'M', 'X', 'C' */
	int64_t pid, tid;
	uint64_t ts, dur;
	uint64_t seq;           /* emission order: the last tie-break */
	char *name;             /* JSON-escaped */
	char *args;             /* the args object's JSON, or NULL */
} TEvent;

/* An async span before it gets a lane (the cluster's end). */
typedef struct ASpan {
	int cta, fam, wg;
	uint64_t t0, t1, seq;
	int64_t bytes;
	char *name, *args;
} ASpan;

/* A raw record of a cp.async copy or a wgmma issue/retirement, grouped at the end. */
typedef struct GRec {
	int cta, key;           /* cp.async: the warp; wgmma: the warpgroup */
	uint32_t group;
	uint64_t t0, t1;        /* wgmma: t0 the issue or t1 the retirement (the other ~0) */
	int64_t bytes;
	int warp;
	const IrOp *op;
} GRec;

/* Per warp of the cluster. */
typedef struct TWarp {
	uint64_t wait_t0;
	int wait_state;         /* 0: not waiting */
	int ready;              /* what it waits for happened, at ready_t (the span ends there,
	                         * not when the scheduler resumes it) */
	uint64_t ready_t;
	int role;               /* the role's index, or -1 */
	int in_role;
	uint64_t role_t0;
	int64_t wg_issued;      /* the last wgmma group issued, -1 none */
	uint32_t wg_retired;    /* groups below this retired */
} TWarp;

typedef struct Role {
	const IrOp *op;         /* the role's `if` */
	char name[64];
} Role;

struct Trace {
	FILE *f;
	const char *path;
	int64_t blocks;
	TEvent *ev;
	int nev, capev;
	uint64_t seq;
	int truncated;
	Role *roles;
	int nroles, caproles;
	/* the cluster that runs */
	uint64_t idle;
	TWarp *w;
	ASpan *spans;
	int nspans, capspans;
	GRec *cp, *wg;
	int ncp, capcp, nwg, capwg;
	int64_t *fulls;         /* per CTA and pipeline: full phases minus empty phases */
};

/* ---- strings ---- */

static void
json_str(Buf *b, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			buf_printf(b, "\\%c", c);
		else if (c < 0x20)
			buf_printf(b, "\\u%04x", c);
		else
			buf_putn(b, s, 1);
	}
}

static char *
fmt_name(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *
fmt_name(const char *fmt, ...)
{
	Buf raw = {0}, esc = {0};
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(&raw, fmt, ap);
	va_end(ap);
	json_str(&esc, raw.s ? raw.s : "");
	buf_free(&raw);
	return esc.s ? esc.s : xstrdup("");
}

/* "loc": "file:line:col" as the first member of an args object being built */
static void
args_loc(Buf *b, SrcLoc loc)
{
	buf_puts(b, "{\"loc\": \"");
	json_str(b, diag_source_path(loc.file));
	buf_printf(b, ":%d:%d\"", loc.line, loc.col);
}

/* "sb[stage 1]+0": the shared buffer (and stage) holding byte off; staged buffers share
 * their stride with the pipeline's others, so the memory object's extent is not enough. */
static void
smem_arg(const Interp *it, Buf *b, int64_t off)
{
	const IrKernel *k = it->k;
	int i;

	for (i = 0; i < k->nbufs; i++) {
		const IrBuffer *f = &k->bufs[i];
		int64_t size = f->count * ir_type_bytes(ir_scalar(f->elem)), stride = f->stages > 1 ? f->stage_stride : size;
		int64_t rel = off - f->offset, st = stride > 0 ? rel / stride : 0;

		if (f->offset < 0 || rel < 0 || st >= f->stages || rel - st * stride >= size)
			continue;
		json_str(b, f->name);
		if (f->stages > 1)
			buf_printf(b, "[stage %lld]", (long long)st);
		buf_printf(b, "+%lld", (long long)(rel - st * stride));
		return;
	}
	buf_printf(b, "+%lld", (long long)off);
}

static int64_t
pid_of(const Interp *it, const Block *b)
{
	return b->id[0] + it->grid[0] * (b->id[1] + it->grid[1] * b->id[2]);
}

/* ---- events ---- */

static void
push(Trace *t, char ph, int64_t pid, int64_t tid, uint64_t ts, uint64_t dur, char *name, char *args)
{
	TEvent e;

	if (ph != 'M' && t->nev >= MAX_EVENTS) {
		t->truncated = 1;
		free(name);
		free(args);
		return;
	}
	e.ph = ph;
	e.pid = pid;
	e.tid = tid;
	e.ts = ts;
	e.dur = dur;
	e.seq = t->seq++;
	e.name = name;
	e.args = args;
	PUSH(t->ev, t->nev, t->capev, e);
}

/* A metadata event: what (process_name, thread_name, ..._sort_index) of pid/tid. */
static void
meta(Trace *t, const char *what, int64_t pid, int64_t tid, const char *name, int64_t index)
{
	Buf a = {0};

	if (name) {
		buf_puts(&a, "{\"name\": \"");
		json_str(&a, name);
		buf_puts(&a, "\"}");
	} else {
		buf_printf(&a, "{\"sort_index\": %lld}", (long long)index);
	}
	push(t, 'M', pid, tid, 0, 0, xstrdup(what), a.s);
}

/* A span ending now on warp w's track. */
static void
warp_span(Warp *w, uint64_t t0, char *name, Buf *args, int unfinished)
{
	Interp *it = w->it;

	if (unfinished)
		buf_puts(args, ", \"unfinished\": true");
	buf_puts(args, "}");
	push(it->trace, 'X', pid_of(it, w->b), w->id, t0, trace_now(it) - t0, name, args->s);
}

/* ---- roles ---- */

static int
ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* The role named at loc in text: the IR keeps a role's source location (its name's, the
 * `if` expand-async makes of it has it too), not its name; the name is the identifier
 * there when the word before it is `role`. 0 when it is not a role's. */
static int
role_at(const char *text, size_t len, SrcLoc loc, char *out, size_t size)
{
	const char *p = text, *end = text + len, *s, *e;
	int line = 1;

	while (p < end && line < loc.line)
		line += *p++ == '\n';
	if (line != loc.line || loc.col < 1 || p + loc.col - 1 >= end)
		return 0;
	s = e = p + loc.col - 1;
	while (e < end && ident(*e))
		e++;
	if (e == s || (size_t)(e - s) >= size)
		return 0;
	while (s > p && (s[-1] == ' ' || s[-1] == '\t'))
		s--;
	if (s - p < 4 || strncmp(s - 4, "role", 4) != 0 || (s - 4 > p && ident(s[-5])) || s == p + loc.col - 1)
		return 0;
	memcpy(out, p + loc.col - 1, (size_t)(e - (p + loc.col - 1)));
	out[e - (p + loc.col - 1)] = 0;
	return 1;
}

/* Roles are at the top level of the kernel body (the verifier's rule). */
static void
find_roles(Trace *t, const IrKernel *k)
{
	size_t len;
	char *text = k->file >= 0 ? read_file(diag_source_path(k->file), &len) : NULL;
	int i;

	if (!text)
		return;
	for (i = 0; i < k->body.nops; i++) {
		const IrOp *op = &k->body.ops[i];
		Role r;

		if (op->opc != IR_IF || op->loc.file != k->file)
			continue;
		r.op = op;
		if (role_at(text, len, op->loc, r.name, sizeof r.name))
			PUSH(t->roles, t->nroles, t->caproles, r);
	}
	free(text);
}

/* ---- the hooks ---- */

int
trace_open(Interp *it, Buf *err)
{
	Trace *t;
	FILE *f;

	if (!it->o->trace_path)
		return 0;
	if (!(f = fopen(it->o->trace_path, "w"))) {
		buf_printf(err, "cannot write the trace '%s': %s", it->o->trace_path, strerror(errno));
		return -1;
	}
	t = xcalloc(1, sizeof *t);
	t->f = f;
	t->path = it->o->trace_path;
	t->blocks = it->o->trace_blocks > 0 ? it->o->trace_blocks : 1;
	find_roles(t, it->k);
	it->tracer = t;
	return 0;
}

uint64_t
trace_now(const Interp *it)
{
	return it->steps + it->trace->idle;
}

void
trace_idle(Interp *it)
{
	it->trace->idle++;
}

void
trace_cluster_start(Interp *it)
{
	Trace *t = it->tracer;
	int i, p, traced = 0;

	it->trace = NULL;
	for (i = 0; i < it->ncta; i++)
		traced |= pid_of(it, &it->ctas[i]) < t->blocks;
	if (!traced)
		return;
	it->trace = t;
	t->idle = 0;
	t->w = xcalloc((size_t)(it->ncta * it->nwarps), sizeof *t->w);
	for (i = 0; i < it->ncta * it->nwarps; i++) {
		t->w[i].role = -1;
		t->w[i].wg_issued = -1;
	}
	t->fulls = xcalloc((size_t)(it->ncta * it->k->npipelines) + 1, sizeof *t->fulls);
	for (i = 0; i < it->ncta; i++)
		for (p = 0; p < it->k->npipelines; p++)
			push(t, 'C', pid_of(it, &it->ctas[i]), 0, 0, 0, fmt_name("%s stages full", it->k->pipelines[p].name),
			     xstrdup("{\"stages\": 0}"));
}

/* Warp w arrived at a block (or cluster) barrier: when every warp of the block (of the
 * cluster) waits there now, the scheduler releases them all at this step (sched.c's
 * release_barrier and release_cluster: a finished warp makes it a finding instead). */
static void
barrier_ready(Interp *it, const Warp *w)
{
	int i, lo = 0, n = it->ncta * it->nwarps;

	if (w->state == W_BARRIER) {
		lo = w->b->rank * it->nwarps;
		n = lo + it->nwarps;
	}
	for (i = lo; i < n; i++) {
		const Warp *o = &it->warps[i];

		if (o->state != w->state || (w->state == W_BARRIER && o->wait_op != w->wait_op))
			return;
	}
	for (i = lo; i < n; i++)
		if (it->warps[i].state == w->state) {
			it->trace->w[i].ready = 1;
			it->trace->w[i].ready_t = trace_now(it);
		}
}

void
trace_wait(Warp *w, int begin)
{
	Interp *it = w->it;
	TWarp *tw = &it->trace->w[w->gid];
	Buf a = {0};
	char *name;

	if (begin > 0 && w->state == W_TMEM)
		return;         /* a tmem.alloc waiting for columns has no span yet */
	if (begin > 0) {
		tw->wait_t0 = trace_now(it);
		tw->wait_state = w->state;
		tw->ready = 0;
		if (w->state != W_MBAR && w->state != W_POLL)
			barrier_ready(it, w);
		return;
	}
	if (!tw->wait_state)
		return;
	args_loc(&a, w->wait_op->loc);
	if (tw->wait_state == W_MBAR) {
		int64_t rel;
		const char *bn = mem_shared_name(it, w->wait_bar, &rel);

		name = fmt_name("wait %s[%lld] (parity %d)", bn, (long long)(rel / 8), w->wait_parity);
		buf_printf(&a, ", \"mbarrier\": \"");
		json_str(&a, bn);
		buf_printf(&a, "[%lld]\", \"parity\": %d", (long long)(rel / 8), w->wait_parity);
	} else {
		name = xstrdup(tw->wait_state == W_CLUSTER ? "cluster barrier"
			       : tw->wait_state == W_NAMED ? "named barrier"
			       : tw->wait_state == W_POLL ? "flag wait" : "barrier");
	}
	if (tw->ready) {
		buf_puts(&a, "}");
		push(it->trace, 'X', pid_of(it, w->b), w->id, tw->wait_t0, tw->ready_t - tw->wait_t0, name, a.s);
	} else {
		warp_span(w, tw->wait_t0, name, &a, begin < 0);
	}
	tw->wait_state = 0;
}

void
trace_if(Warp *w, const IrOp *op, int begin)
{
	Trace *t = w->it->trace;
	TWarp *tw = &t->w[w->gid];
	Buf a = {0};
	int r;

	for (r = 0; r < t->nroles && t->roles[r].op != op; r++)
		;
	if (r == t->nroles)
		return;
	if (begin > 0) {
		if (tw->role < 0)
			tw->role = r;
		tw->in_role = 1;
		tw->role_t0 = trace_now(w->it);
		return;
	}
	if (!tw->in_role)
		return;
	tw->in_role = 0;
	args_loc(&a, op->loc);
	warp_span(w, tw->role_t0, fmt_name("role %s", t->roles[r].name), &a, begin < 0);
}

/* Agent a of CTA it->blk completes now (unfinished: the run stopped with it in flight). */
static void
agent_span(Interp *it, const Agent *a, int unfinished)
{
	Trace *t = it->trace;
	int cta = it->blk->rank;
	Buf b = {0};
	int64_t rel;
	const char *nm;
	ASpan s;
	int i;

	if (a->kind == AG_TC_MMA || a->kind == AG_TC_COMMIT)
		return;         /* tcgen05 has no track yet */
	if (a->kind == AG_CP_ASYNC) {
		GRec g;

		memset(&g, 0, sizeof g);
		g.cta = cta;
		g.key = it->warps[a->warp].id;
		g.group = a->group;
		g.t0 = a->t_issue;
		g.t1 = trace_now(it);
		g.bytes = a->bytes;
		g.op = a->op;
		PUSH(t->cp, t->ncp, t->capcp, g);
		return;
	}
	memset(&s, 0, sizeof s);
	s.cta = cta;
	s.fam = FAM_TMA;
	s.t0 = a->t_issue;
	s.t1 = trace_now(it);
	s.seq = t->seq++;
	s.name = fmt_name("TMA %s %s", a->kind == AG_TMA_LOAD ? "load" : "store", it->k->params[a->tmap].name);
	args_loc(&b, a->op->loc);
	buf_printf(&b, ", \"bytes\": %lld, \"smem\": \"", (long long)a->bytes);
	smem_arg(it, &b, a->smem);
	buf_puts(&b, "\", \"coords\": \"[");
	for (i = 0; i < it->k->params[a->tmap].rank; i++)
		buf_printf(&b, "%s%lld", i ? ", " : "", (long long)a->coord[i]);
	buf_printf(&b, "]\", \"warp\": %d", it->warps[a->warp].id);
	if (a->kind == AG_TMA_LOAD) {
		nm = mem_shared_name(it, a->bar, &rel);
		buf_puts(&b, ", \"mbarrier\": \"");
		json_str(&b, nm);
		buf_printf(&b, "[%lld]\"", (long long)(rel / 8));
	}
	buf_puts(&b, unfinished ? ", \"unfinished\": true}" : "}");
	s.bytes = a->bytes;
	s.args = b.s;
	PUSH(t->spans, t->nspans, t->capspans, s);
}

void
trace_agent(Interp *it, const Agent *a)
{
	agent_span(it, a, 0);
}

void
trace_phase(Interp *it, const Mbar *m)
{
	Trace *t = it->trace;
	const IrKernel *k = it->k;
	int64_t off = (int64_t)(m - it->blk->mbar) * 8;
	int p, i;

	/* the warps waiting for this phase can go on from now */
	for (i = 0; i < it->ncta * it->nwarps; i++) {
		const Warp *o = &it->warps[i];
		TWarp *tw = &t->w[i];

		if (tw->wait_state == W_MBAR && !tw->ready && o->b == it->blk && o->wait_bar == off && async_ready(it, o)) {
			tw->ready = 1;
			tw->ready_t = trace_now(it);
		}
	}
	for (p = 0; p < k->npipelines; p++) {
		const IrPipeline *pl = &k->pipelines[p];
		const IrBarrier *full = &k->barriers[pl->full], *empty = &k->barriers[pl->empty];
		int64_t *n = &t->fulls[it->blk->rank * k->npipelines + p];
		Buf a = {0};

		if (off >= full->offset && off < full->offset + 8 * full->n)
			++*n;
		else if (off >= empty->offset && off < empty->offset + 8 * empty->n)
			--*n;
		else
			continue;
		buf_printf(&a, "{\"stages\": %lld}", (long long)*n);
		push(t, 'C', pid_of(it, it->blk), 0, trace_now(it), 0, fmt_name("%s stages full", pl->name), a.s);
	}
}

void
trace_wgmma(Warp *w, const IrOp *op)
{
	Trace *t = w->it->trace;
	TWarp *tw = &t->w[w->gid];
	GRec g;
	uint32_t upto;

	memset(&g, 0, sizeof g);
	g.cta = w->b->rank;
	g.key = w->id / 4;
	g.warp = w->id;
	g.op = op;
	if (op->opc == IR_WGMMA) {
		if ((int64_t)w->wgmma_groups == tw->wg_issued)
			return;
		tw->wg_issued = w->wgmma_groups;
		g.group = w->wgmma_groups;
		g.t0 = trace_now(w->it);
		g.t1 = ~0ull;
		PUSH(t->wg, t->nwg, t->capwg, g);
		return;
	}
	upto = w->wgmma_groups > (uint32_t)op->imm ? w->wgmma_groups - (uint32_t)op->imm : 0;
	for (; tw->wg_retired < upto; tw->wg_retired++) {
		if ((int64_t)tw->wg_retired > tw->wg_issued)
			continue;       /* a group without wgmma */
		g.group = tw->wg_retired;
		g.t0 = ~0ull;
		g.t1 = trace_now(w->it);
		PUSH(t->wg, t->nwg, t->capwg, g);
	}
}

/* ---- the cluster's end: groups, lanes, counters, names ---- */

static int
grec_cmp(const void *x, const void *y)
{
	const GRec *a = x, *b = y;

	if (a->cta != b->cta)
		return a->cta < b->cta ? -1 : 1;
	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	if (a->group != b->group)
		return a->group < b->group ? -1 : 1;
	if (a->t0 != b->t0)
		return a->t0 < b->t0 ? -1 : 1;
	if (a->t1 != b->t1)
		return a->t1 < b->t1 ? -1 : 1;
	return a->warp - b->warp;
}

/* cp.async copies into a span per (warp, group); wgmma issues and retirements into a span
 * per (warpgroup, group). */
static void
group_spans(Interp *it, GRec *r, int n, int fam)
{
	Trace *t = it->trace;
	uint64_t now = trace_now(it);
	int i, j;

	if (n > 0)      /* r is NULL when nothing was recorded: qsort wants a pointer */
		qsort(r, (size_t)n, sizeof *r, grec_cmp);
	for (i = 0; i < n; i = j) {
		uint64_t t0 = ~0ull, t1 = 0;
		int64_t bytes = 0;
		int issued = 0, retired = 0, copies = 0;
		const IrOp *first = NULL;
		ASpan s;
		Buf a = {0};

		for (j = i; j < n && r[j].cta == r[i].cta && r[j].key == r[i].key && r[j].group == r[i].group; j++) {
			if (r[j].t0 != ~0ull && r[j].t0 < t0) {
				t0 = r[j].t0;
				first = r[j].op;
			}
			if (r[j].t1 != ~0ull && r[j].t1 > t1)
				t1 = r[j].t1;
			issued += r[j].t0 != ~0ull;
			retired += r[j].t1 != ~0ull;
			bytes += r[j].bytes;
			copies++;
		}
		if (!first)
			continue;       /* retirements of a group issued before the trace began */
		memset(&s, 0, sizeof s);
		s.cta = r[i].cta;
		s.fam = fam;
		s.wg = fam == FAM_WGMMA ? r[i].key : 0;
		s.t0 = t0;
		s.t1 = t1 < t0 ? t0 : t1;
		s.seq = t->seq++;
		args_loc(&a, first->loc);
		if (fam == FAM_CP) {
			s.name = fmt_name("cp.async group %u (warp %d)", r[i].group, r[i].key);
			buf_printf(&a, ", \"bytes\": %lld, \"copies\": %d}", (long long)bytes, copies);
			s.bytes = bytes;
		} else {
			s.name = fmt_name("wgmma group %u", r[i].group);
			buf_printf(&a, ", \"warps\": %d", issued);
			if (retired < issued) {
				s.t1 = now;
				buf_puts(&a, ", \"unfinished\": true");
			}
			buf_puts(&a, "}");
		}
		s.args = a.s;
		PUSH(t->spans, t->nspans, t->capspans, s);
	}
}

static int
span_cmp(const void *x, const void *y)
{
	const ASpan *a = x, *b = y;

	if (a->cta != b->cta)
		return a->cta < b->cta ? -1 : 1;
	if (a->fam != b->fam)
		return a->fam < b->fam ? -1 : 1;
	if (a->wg != b->wg)
		return a->wg < b->wg ? -1 : 1;
	if (a->t0 != b->t0)
		return a->t0 < b->t0 ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* The lane names of a family: "TMA 0", "warpgroup 1 wgmma 0". */
static void
lane_names(Trace *t, int64_t pid, int fam, int wg, int nlanes)
{
	int base = fams[fam].base + 16 * wg, l;
	char nm[64];

	for (l = 0; l < nlanes; l++) {
		if (fam == FAM_WGMMA)
			snprintf(nm, sizeof nm, "warpgroup %d wgmma %d", wg, l);
		else
			snprintf(nm, sizeof nm, "%s %d", fams[fam].label, l);
		meta(t, "thread_name", pid, base + l, nm, 0);
		meta(t, "thread_sort_index", pid, base + l, NULL, base + l);
	}
}

/* A counter of bytes in flight from the spans of one CTA (sorted by start): +bytes at a
 * span's start, -bytes at its end. */
typedef struct Delta {
	uint64_t t;
	int64_t d;
} Delta;

static int
delta_cmp(const void *x, const void *y)
{
	const Delta *a = x, *b = y;

	if (a->t != b->t)
		return a->t < b->t ? -1 : 1;
	return (a->d > b->d) - (a->d < b->d);   /* ends before starts: the smaller peak */
}

static void
bytes_counter(Trace *t, int64_t pid, const ASpan *s, int n, const char *name)
{
	Delta *d = xmalloc((size_t)(2 * n + 1) * sizeof *d);
	int64_t v = 0;
	int i, nd = 0;

	for (i = 0; i < n; i++) {
		int64_t b = s[i].bytes;

		d[nd].t = s[i].t0;
		d[nd++].d = b;
		d[nd].t = s[i].t1;
		d[nd++].d = -b;
	}
	if (nd > 0)
		qsort(d, (size_t)nd, sizeof *d, delta_cmp);
	push(t, 'C', pid, 0, 0, 0, xstrdup(name), xstrdup("{\"bytes\": 0}"));
	for (i = 0; i < nd; i++) {
		Buf a = {0};

		v += d[i].d;
		if (i + 1 < nd && d[i + 1].t == d[i].t)
			continue;
		buf_printf(&a, "{\"bytes\": %lld}", (long long)v);
		push(t, 'C', pid, 0, d[i].t, 0, xstrdup(name), a.s);
	}
	free(d);
}

/* Gives each async span the lowest lane of its family free at its start; the counters. */
static void
lay_out(Interp *it)
{
	Trace *t = it->trace;
	int i, j;

	if (t->nspans > 0)
		qsort(t->spans, (size_t)t->nspans, sizeof *t->spans, span_cmp);
	for (i = 0; i < t->nspans; i = j) {
		uint64_t end[MAX_LANES];
		int nlanes = 0, cap = fams[t->spans[i].fam].lanes;
		int64_t pid = pid_of(it, &it->ctas[t->spans[i].cta]);

		for (j = i; j < t->nspans && t->spans[j].cta == t->spans[i].cta && t->spans[j].fam == t->spans[i].fam &&
		     t->spans[j].wg == t->spans[i].wg; j++) {
			ASpan *s = &t->spans[j];
			int l;

			for (l = 0; l < nlanes && end[l] > s->t0; l++)
				;
			if (l == cap) {
				t->truncated = 1;
				free(s->name);
				free(s->args);
				s->args = NULL;
				continue;
			}
			if (l == nlanes)
				nlanes++;
			end[l] = s->t1;
			push(t, 'X', pid, fams[s->fam].base + 16 * s->wg + l, s->t0, s->t1 - s->t0, s->name, xstrdup(s->args));
		}
		lane_names(t, pid, t->spans[i].fam, t->spans[i].wg, nlanes);
		if (t->spans[i].fam != FAM_WGMMA)
			bytes_counter(t, pid, &t->spans[i], j - i,
				      t->spans[i].fam == FAM_TMA ? "TMA bytes in flight" : "cp.async bytes in flight");
		for (; i < j; i++)
			free(t->spans[i].args);
	}
	t->nspans = 0;
}

void
trace_cluster_end(Interp *it)
{
	Trace *t = it->trace;
	int c, i;

	/* what the run left open (it stopped at a finding) ends now */
	for (i = 0; i < it->ncta * it->nwarps; i++) {
		Warp *w = &it->warps[i];

		if (t->w[i].wait_state)
			trace_wait(w, -1);
	}
	for (i = 0; i < it->ncta * it->nwarps; i++)
		if (t->w[i].in_role)
			trace_if(&it->warps[i], t->roles[t->w[i].role].op, -1);
	for (c = 0; c < it->ncta; c++) {
		it->blk = &it->ctas[c];
		for (i = 0; i < it->ctas[c].nagents; i++)
			if (it->ctas[c].agents[i].kind != AG_DONE)
				agent_span(it, &it->ctas[c].agents[i], 1);
	}
	group_spans(it, t->cp, t->ncp, FAM_CP);
	group_spans(it, t->wg, t->nwg, FAM_WGMMA);
	lay_out(it);
	for (c = 0; c < it->ncta; c++) {
		const Block *b = &it->ctas[c];
		int64_t pid = pid_of(it, b);
		char nm[96];

		snprintf(nm, sizeof nm, "block (%lld,%lld,%lld)", (long long)b->id[0], (long long)b->id[1], (long long)b->id[2]);
		if (it->ncta > 1)
			snprintf(nm + strlen(nm), sizeof nm - strlen(nm), " rank %d", c);
		meta(t, "process_name", pid, 0, nm, 0);
		meta(t, "process_sort_index", pid, 0, NULL, pid);
		for (i = 0; i < it->nwarps; i++) {
			const TWarp *tw = &t->w[c * it->nwarps + i];

			if (tw->role >= 0)
				snprintf(nm, sizeof nm, "warp %d (%s)", i, t->roles[tw->role].name);
			else
				snprintf(nm, sizeof nm, "warp %d", i);
			meta(t, "thread_name", pid, i, nm, 0);
			meta(t, "thread_sort_index", pid, i, NULL, i);
		}
	}
	t->ncp = t->nwg = 0;
	free(t->w);
	free(t->fulls);
	t->w = NULL;
	t->fulls = NULL;
	it->trace = NULL;
}

/* ---- writing ---- */

static int
ev_cmp(const void *x, const void *y)
{
	const TEvent *a = x, *b = y;

	if ((a->ph == 'M') != (b->ph == 'M'))
		return a->ph == 'M' ? -1 : 1;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	if (a->ts != b->ts)
		return a->ts < b->ts ? -1 : 1;
	if (a->dur != b->dur)
		return a->dur > b->dur ? -1 : 1;   /* the enclosing span first */
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

int
trace_close(Interp *it, Buf *err)
{
	Trace *t = it->tracer;
	const IrKernel *k = it->k;
	int i, rc = 0;

	if (!t)
		return 0;
	if (it->trace)
		trace_cluster_end(it);
	if (t->nev > 0)
		qsort(t->ev, (size_t)t->nev, sizeof *t->ev, ev_cmp);
	fprintf(t->f, "{\"traceEvents\": [\n");
	for (i = 0; i < t->nev; i++) {
		const TEvent *e = &t->ev[i];

		fprintf(t->f, "{\"name\": \"%s\", \"ph\": \"%c\", \"pid\": %lld, \"tid\": %lld, \"ts\": %llu", e->name, e->ph,
			(long long)e->pid, (long long)e->tid, (unsigned long long)e->ts);
		if (e->ph == 'X')
			fprintf(t->f, ", \"dur\": %llu", (unsigned long long)e->dur);
		fprintf(t->f, ", \"args\": %s}%s\n", e->args ? e->args : "{}", i + 1 < t->nev ? "," : "");
		free(e->name);
		free(e->args);
	}
	fprintf(t->f, "],\n\"otherData\": {\"kernel\": \"");
	{
		Buf b = {0};

		json_str(&b, k->name);
		fprintf(t->f, "%s", b.s ? b.s : "");
		buf_free(&b);
	}
	fprintf(t->f, "\", \"seed\": %llu, \"clock\": \"interpreter steps: warp-ops the cluster executed, plus one per "
		"scheduling step in which no warp could run (1 us = 1 step; not GPU cycles)\", \"truncated\": %s}}\n",
		(unsigned long long)it->o->seed, t->truncated ? "true" : "false");
	if (ferror(t->f) | fclose(t->f)) {
		buf_printf(err, "cannot write the trace '%s': %s", t->path, strerror(errno));
		rc = -1;
	}
	free(t->ev);
	free(t->roles);
	free(t->spans);
	free(t->cp);
	free(t->wg);
	free(t);
	it->tracer = NULL;
	return rc;
}
