/* cakec: the compiler driver. Reads .cake (or IR text), runs the pass pipeline, and emits
 * IR, LLVM IR, PTX, cubins and host launchers. Every output is built in memory first and
 * written only when the whole compile succeeded, each file whole or not at all. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE         /* madvise's MADV_HUGEPAGE (huge_heap) */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __linux__
#include <malloc.h>
#include <sys/mman.h>
#endif

#include "../backend_ptx/backend.h"
#include "../frontend/frontend.h"
#include "../host/host.h"
#include "../passes/passes.h"

#ifndef CAKEC_VERSION          /* CMakeLists.txt passes project()'s version */
#define CAKEC_VERSION "unknown"
#endif

enum {
	EMIT_AST = 1 << 0,
	EMIT_IR = 1 << 1,
	EMIT_LLVM = 1 << 2,
	EMIT_PTX = 1 << 3,
	EMIT_CUBIN = 1 << 4,
	EMIT_HOST = 1 << 5,
};

/* Whether a compile assembles cubins (decide_cubins). */
enum {
	CUBINS_NONE,            /* PTX only: no host or --ptx-only, or no ptxas */
	CUBINS_DEFAULT,         /* for the launchers, by default: ptxas's refusal is a warning */
	CUBINS_REQUIRED,        /* --emit=cubin: no ptxas, or its refusal, is an error */
};

static const struct {
	const char *name;
	unsigned bit;
} emit_names[] = {
	{"ast", EMIT_AST}, {"ir", EMIT_IR}, {"llvm", EMIT_LLVM},
	{"ptx", EMIT_PTX}, {"cubin", EMIT_CUBIN}, {"host", EMIT_HOST},
};

typedef struct Options {
	unsigned emit;
	int emit_given;         /* --emit was on the command line */
	int report_smem;        /* --report=smem */
	int report_staging;     /* --report=staging */
	int report_tmem;        /* --report=tmem */
	int no_staging_elision; /* --no-staging-elision */
	int no_fmad;            /* --fmad=false */
	int time_report;        /* --time-report */
	int lineinfo;           /* --lineinfo: .file/.loc in the PTX, a line table in cubins */
	int list_outputs;       /* --list-outputs: print the output names, write nothing */
	const char *check_dir;  /* --check-generated DIR: compare the outputs with DIR */
	int ptx_only;           /* --ptx-only: launchers embed no cubins */
	int cubins;             /* CUBINS_*: decided by decide_cubins */
	unsigned targets;       /* from --target; 0 = each kernel's own */
	const char *outdir;
	int input_ir;           /* -1: by extension */
	const char *passes;     /* --passes, or NULL */
	const char *print_after;
	int print_after_all;
	int opt_level;
	int jobs;               /* -j: threads for the backend (0: one per processor) */
	const char **kernels;   /* --kernel: compile only these (NULL: all) */
	int nkernels, capkernels;
	FeDefine *defines;
	int ndefines, capdefines;
	const char **import_dirs;   /* -I */
	int nimport_dirs, capimport_dirs;
	const char *depfile;        /* --depfile */
	const char **files;
	int nfiles, capfiles;
} Options;

/* One output file, or one chunk of stdout when there is no -o. */
typedef struct Output {
	char *name;
	char *data;
	size_t len;
	int binary;
} Output;

static Output *outputs;
static int noutputs, capoutputs;

static void
add_output(const char *name, char *data, size_t len, int binary)
{
	Output o = {xstrdup(name), data, len, binary};

	PUSH(outputs, noutputs, capoutputs, o);
}

static void
add_output_buf(const char *name, Buf *b)
{
	add_output(name, b->s ? b->s : xstrdup(""), (size_t)b->len, 0);
	b->s = NULL;
	b->len = b->cap = 0;
}

static void
usage(FILE *f)
{
	int i;

	fputs("usage: cakec [options] FILE...\n"
	      "Compiles .cake kernels (or IR text) to PTX and C99 host launchers.\n"
	      "\n"
	      "options:\n", f);
	fprintf(f, "  --target T, --target=T  compile for T: %s (repeatable;\n", ir_all_target_names(NULL));
	fputs("                          default: the targets each kernel lists)\n"
	      "  -o DIR                  write outputs into DIR (created if missing); without -o,\n"
	      "                          or with -o -, text outputs go to stdout\n"
	      "  --emit=LIST             comma list of ast, ir, llvm, ptx, cubin, host\n"
	      "                          (default: ptx; cubin and host need -o); with host\n"
	      "                          the launchers embed a cubin per target beside\n"
	      "                          the PTX when ptxas is found\n"
	      "  --ptx-only              launchers embed PTX only (no ptxas run; the driver\n"
	      "                          JIT-compiles it at the first launch in each process)\n"
	      "  --input=cake|ir         input language (default: by extension; .ir is IR text)\n"
	      "  --passes=LIST           run exactly these passes, in order (empty: none)\n"
	      "  --report=smem           print each kernel's shared-memory layout to stdout\n"
	      "                          (alone, without --emit, it emits nothing else)\n"
	      "  --report=staging        print staging-elision's decisions (buffer, barrier,\n"
	      "                          reason, bytes saved) to stdout; --report=smem,staging both\n"
	      "  --report=tmem           print each kernel's tensor-memory column map (tmem:\n"
	      "                          columns, stages, pipeline, writing and reading roles)\n"
	      "  --no-staging-elision    keep shared-memory staging as written (on at -O2)\n"
	      "  --fmad=true|false       fuse f32/f64 a * b + c into one fma (default true,\n"
	      "                          as nvcc and NVRTC; at every -O level)\n"
	      "  --print-after=PASS      print the IR after PASS to stderr\n"
	      "  --print-after-all       print the IR after every pass to stderr\n"
	      "  --kernel NAME           compile only kernel NAME of the inputs (repeatable;\n"
	      "                          an entry point comes with its instances only); only\n"
	      "                          the kernels named are checked\n"
	      "  -D NAME=VALUE           override the compile-time constant NAME\n"
	      "  -I DIR                  look for imported files in DIR after the importing\n"
	      "                          file's folder (repeatable, searched in order)\n"
	      "  --depfile FILE          write a make rule to FILE: the files written (in -o\n"
	      "                          DIR) depend on the inputs and every file they import\n"
	      "  --time-report           print the time each phase took to stderr\n"
	      "  --lineinfo              the PTX maps its instructions to .cake lines (.file,\n"
	      "                          .loc), and cubins keep them: ncu, compute-sanitizer\n"
	      "                          and cuobjdump show the kernel's source lines\n"
	      "  --list-outputs          print the names of the files -o would write;\n"
	      "                          write nothing\n"
	      "  --check-generated DIR   exit 0 if DIR holds exactly what cakec would write\n"
	      "                          now (instead of -o), else 1, listing the files\n"
	      "                          that differ\n"
	      "  -j N                    generate code (and run ptxas) on N threads (default:\n"
	      "                          one per processor, at most 8); the outputs are the\n"
	      "                          same for any N\n"
	      "  -O0, -O2, -O3           optimization level (default -O2; -O3 also runs LLVM's\n"
	      "                          instcombine and GVN after unrolling: slower compiles,\n"
	      "                          sometimes faster fully unrolled kernels)\n"
	      "  --help                  show this help\n"
	      "  --version               show the version\n"
	      "\n"
	      "exit status: 0 ok, 1 errors in the input, 2 bad command line, 70 internal error\n",
	      f);
	fputs("\npasses (for --passes and --print-after):", f);
	for (i = 0; pass_names[i]; i++)
		fprintf(f, " %s", pass_names[i]);
	fputc('\n', f);
}

static _Noreturn void
usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "cakec: error: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\ncakec: try 'cakec --help'\n");
	exit(EXIT_USAGE);
}

static void
parse_emit(Options *o, const char *list)
{
	const char *p = list;

	o->emit = 0;
	while (*p) {
		size_t n = strcspn(p, ",");
		size_t i;
		int found = 0;

		for (i = 0; i < sizeof emit_names / sizeof emit_names[0]; i++)
			if (strlen(emit_names[i].name) == n && strncmp(p, emit_names[i].name, n) == 0) {
				o->emit |= emit_names[i].bit;
				found = 1;
			}
		if (!found)
			usage_error("unknown --emit kind in '%s' (expected ast, ir, llvm, ptx, cubin, host)", list);
		p += n;
		if (*p == ',')
			p++;
	}
	if (!o->emit)
		usage_error("--emit needs at least one kind, got '%s'", list);
}

/* --fmad=true|false (nvcc's spelling): 1 when contraction is off. */
static int
parse_fmad(const char *v)
{
	if (strcmp(v, "true") == 0)
		return 0;
	if (strcmp(v, "false") == 0)
		return 1;
	usage_error("--fmad expects true or false, got '%s'", v);
}

/* --report=LIST: smem, staging, tmem. */
static void
parse_report(Options *o, const char *list)
{
	const char *p = list;

	while (*p) {
		size_t n = strcspn(p, ",");

		if (n == 4 && strncmp(p, "smem", 4) == 0)
			o->report_smem = 1;
		else if (n == 7 && strncmp(p, "staging", 7) == 0)
			o->report_staging = 1;
		else if (n == 4 && strncmp(p, "tmem", 4) == 0)
			o->report_tmem = 1;
		else {
			char kind[64];

			snprintf(kind, sizeof kind, "%.*s", (int)(n < 60 ? n : 60), p);
			usage_error("unknown --report kind '%s' (expected smem, staging or tmem)", kind);
		}
		p += n;
		if (*p == ',')
			p++;
	}
}

static void
add_define(Options *o, const char *arg)
{
	const char *eq = strchr(arg, '=');
	FeDefine d;

	if (!eq || eq == arg)
		usage_error("-D expects NAME=VALUE, got '%s'", arg);
	d.name = strndup(arg, (size_t)(eq - arg));
	d.value = eq + 1;
	PUSH(o->defines, o->ndefines, o->capdefines, d);
}

/* Returns the value of an option that takes one (`--x=V`, `--x V`, `-xV`, `-x V`), or NULL
 * when arg is not that option. */
static const char *
optval(int argc, char **argv, int *i, const char *name)
{
	size_t n = strlen(name);
	const char *arg = argv[*i];

	if (strncmp(arg, name, n) != 0)
		return NULL;
	if (arg[n] == '=' && name[1] == '-')
		return arg + n + 1;
	if (arg[n] && name[1] != '-')
		return arg + n;
	if (arg[n])
		return NULL;
	if (*i + 1 >= argc)
		usage_error("option '%s' needs a value", name);
	return argv[++*i];
}

static void
parse_args(Options *o, int argc, char **argv)
{
	int i, only_files = 0;
	const char *v;

	o->emit = EMIT_PTX;
	o->input_ir = -1;
	o->opt_level = 2;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (only_files || a[0] != '-' || strcmp(a, "-") == 0) {
			PUSH(o->files, o->nfiles, o->capfiles, a);
		} else if (strcmp(a, "--") == 0) {
			only_files = 1;
		} else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage(stdout);
			exit(EXIT_OK);
		} else if (strcmp(a, "--version") == 0) {
			printf("cakec %s (LLVM 22 NVPTX backend; targets", CAKEC_VERSION);
			for (int t = 0; t < TARGET_COUNT; t++)
				printf(" %s", ir_target_name(t));
			printf(")\n");
			exit(EXIT_OK);
		} else if ((v = optval(argc, argv, &i, "--target"))) {
			int t = ir_target_from_name(v);

			if (t < 0) {
				char msg[320];

				snprintf(msg, sizeof msg, "unknown target '%%s' (expected %s)", ir_all_target_names(" or "));
				usage_error(msg, v);
			}
			o->targets |= 1u << t;
		} else if ((v = optval(argc, argv, &i, "--emit"))) {
			parse_emit(o, v);
			o->emit_given = 1;
		} else if ((v = optval(argc, argv, &i, "--report"))) {
			parse_report(o, v);
		} else if (strcmp(a, "--no-staging-elision") == 0) {
			o->no_staging_elision = 1;
		} else if ((v = optval(argc, argv, &i, "--fmad"))) {
			o->no_fmad = parse_fmad(v);
		} else if ((v = optval(argc, argv, &i, "--kernel"))) {
			PUSH(o->kernels, o->nkernels, o->capkernels, v);
		} else if (strcmp(a, "--time-report") == 0) {
			o->time_report = 1;
		} else if (strcmp(a, "--lineinfo") == 0) {
			o->lineinfo = 1;
		} else if (strcmp(a, "--ptx-only") == 0) {
			o->ptx_only = 1;
		} else if (strcmp(a, "--list-outputs") == 0) {
			o->list_outputs = 1;
		} else if ((v = optval(argc, argv, &i, "--check-generated"))) {
			o->check_dir = v;
		} else if ((v = optval(argc, argv, &i, "--input"))) {
			if (strcmp(v, "ir") == 0)
				o->input_ir = 1;
			else if (strcmp(v, "cake") == 0)
				o->input_ir = 0;
			else
				usage_error("unknown --input language '%s' (expected cake or ir)", v);
		} else if ((v = optval(argc, argv, &i, "--passes"))) {
			o->passes = v;
		} else if ((v = optval(argc, argv, &i, "--print-after"))) {
			o->print_after = v;
		} else if (strcmp(a, "--print-after-all") == 0) {
			o->print_after_all = 1;
		} else if ((v = optval(argc, argv, &i, "-o"))) {
			/* "-o -" is standard output, as without -o (not a folder named "-") */
			o->outdir = strcmp(v, "-") == 0 ? NULL : v;
		} else if ((v = optval(argc, argv, &i, "-D"))) {
			add_define(o, v);
		} else if ((v = optval(argc, argv, &i, "-I"))) {
			PUSH(o->import_dirs, o->nimport_dirs, o->capimport_dirs, v);
		} else if ((v = optval(argc, argv, &i, "--depfile"))) {
			o->depfile = v;
		} else if ((v = optval(argc, argv, &i, "-j"))) {
			char *end;
			long n = strtol(v, &end, 10);

			if (*end || end == v || n < 1 || n > 1024)
				usage_error("-j takes a number of threads from 1 to 1024, not '%s'", v);
			o->jobs = (int)n;
		} else if (strcmp(a, "-O0") == 0) {
			o->opt_level = 0;
		} else if (strcmp(a, "-O2") == 0) {
			o->opt_level = 2;
		} else if (strcmp(a, "-O3") == 0) {
			o->opt_level = 3;
		} else {
			usage_error("unknown option '%s'", a);
		}
	}
	if (o->nfiles == 0)
		usage_error("%s", "no input file");
	if ((o->report_smem || o->report_staging || o->report_tmem) && !o->emit_given)
		o->emit = 0;
	if (o->check_dir && o->outdir)
		usage_error("%s", "--check-generated compares with its folder: give no -o");
	if (o->check_dir)
		o->outdir = o->check_dir;
	if ((o->emit & (EMIT_CUBIN | EMIT_HOST)) && !o->outdir && !o->list_outputs)
		usage_error("%s", "--emit=cubin and --emit=host write several files: give -o DIR");
	if (o->ptx_only && (o->emit & EMIT_CUBIN))
		usage_error("%s", "--ptx-only and --emit=cubin contradict each other: give one");
	if (o->depfile && !o->outdir)
		usage_error("%s", "--depfile names the files written: give -o DIR");
	if (o->print_after) {
		int k, known = 0;

		for (k = 0; pass_names[k]; k++)
			known |= strcmp(pass_names[k], o->print_after) == 0;
		if (!known)
			usage_error("--print-after names an unknown pass '%s'", o->print_after);
	}
}

static int
has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

static char *
file_stem(const char *path)
{
	const char *base = strrchr(path, '/');
	char *s, *dot;

	s = xstrdup(base ? base + 1 : path);
	dot = strrchr(s, '.');
	if (dot && dot != s)
		*dot = 0;
	return s;
}

/* Reads a file named on the command line ("-" is stdin). */
static char *
read_input(const char *path, size_t *len)
{
	Buf b = {0};
	char chunk[65536];
	size_t n;

	if (strcmp(path, "-") != 0)
		return read_file(path, len);
	while ((n = fread(chunk, 1, sizeof chunk, stdin)) > 0)
		buf_putn(&b, chunk, (int)n);
	*len = (size_t)b.len;
	return b.s ? b.s : xstrdup("");
}

static SrcLoc
file_loc(const IrKernel *k)
{
	SrcLoc loc = {k->file, 0, 0, 0};

	return loc;
}

/* Grid formulas are host code, parsed by the launcher emitter: check them on every compile,
 * not only with --emit=host, so a bad one is the same user error whatever is emitted. */
static void
check_grid(const IrKernel *k)
{
	int i;

	for (i = 0; i < 3; i++) {
		Buf err = {0};

		if (host_grid_check(k, k->grid[i] ? k->grid[i] : "1", &err) != 0) {
			diag_error(file_loc(k), "kernel %s: %s", k->name, err.s ? err.s : "bad grid formula");
			buf_free(&err);
			return;
		}
		buf_free(&err);
	}
}

/* One target's backend work: PTX (and LLVM IR, and a cubin) for one kernel. Jobs share
 * nothing but the read-only kernel, so they run on threads of their own. */
typedef struct TargetJob {
	const Options *o;
	PtxModule *m;           /* the kernel's optimized module */
	int target, copy;       /* copy: generate from a copy of m (all but the first job) */
	Buf ptx, cubin, log, err;
	int failed;             /* 1: the backend, 2: ptxas */
} TargetJob;

/* One kernel's backend work (ptx_build, then its targets): what compile_kernels computes,
 * on threads, and emit_kernel writes out, in the kernels' order. */
typedef struct KernelJob {
	const Options *o;
	IrKernel *k;
	char symbol[512];
	uint64_t hash;
	TargetJob jobs[TARGET_COUNT];
	int n;                  /* targets */
	int parallel;           /* each target on a thread of its own */
	Buf llvm, err;          /* err: ptx_build's message when it failed */
	int build_failed;
} KernelJob;

static void *
run_target(void *arg)
{
	TargetJob *j = arg;
	double t0;

	if (ptx_codegen(j->m, j->target, j->copy, &j->ptx, &j->err) != 0) {
		j->failed = 1;
		return NULL;
	}
	if (j->o->cubins != CUBINS_NONE) {
		t0 = clock_ms();
		if (ptx_assemble(j->ptx.s ? j->ptx.s : "", (size_t)j->ptx.len, j->target, &j->cubin, &j->log) != 0)
			j->failed = 2;
		time_add("ptxas", clock_ms() - t0);
	}
	return NULL;
}

/* Runs the jobs: each on a thread of its own if parallel, else one after another (the
 * first takes the module itself, so it goes first either way). */
static void
run_targets(TargetJob *jobs, int n, int parallel)
{
	pthread_t th[TARGET_COUNT];
	int started[TARGET_COUNT] = {0}, i;

	if (parallel)
		for (i = 1; i < n; i++)
			started[i] = pthread_create(&th[i], NULL, run_target, &jobs[i]) == 0;
	run_target(&jobs[0]);
	for (i = 1; i < n; i++) {
		if (started[i])
			pthread_join(th[i], NULL);
		else
			run_target(&jobs[i]);
	}
}

/* The kernel's LLVM module, lowered and optimized once (the optimized LLVM IR is the same
 * for every target), then each target's code generation and ptxas. */
static void
compile_kernel(KernelJob *kj)
{
	PtxModule *m;
	int i;

	if (kj->n == 0)
		return;
	m = ptx_build(kj->k, kj->jobs[0].target, kj->symbol, kj->o->opt_level, kj->o->lineinfo,
		      (kj->o->emit & EMIT_LLVM) ? &kj->llvm : NULL, &kj->err);
	if (!m) {
		kj->build_failed = 1;
		return;
	}
	if (kj->n > 1)
		ptx_module_share(m);
	for (i = 0; i < kj->n; i++)
		kj->jobs[i].m = m;
	run_targets(kj->jobs, kj->n, kj->parallel);
	ptx_module_free(m);
}

/* The kernels' backend work on -j threads (default: one per processor, at most 8): a thread takes
 * the next kernel until none is left. With fewer kernels than processors, each kernel's
 * targets also run on threads of their own (one kernel, three targets: three threads).
 * Only emit_kernel, in the kernels' order, writes anything, so the outputs do not depend
 * on which thread finished first. */
typedef struct KernelPool {
	KernelJob *kjs;
	int n, next;
	pthread_mutex_t lock;
} KernelPool;

static void *
pool_worker(void *arg)
{
	KernelPool *p = arg;

	for (;;) {
		int i;

		pthread_mutex_lock(&p->lock);
		i = p->next++;
		pthread_mutex_unlock(&p->lock);
		if (i >= p->n)
			return NULL;
		compile_kernel(&p->kjs[i]);
	}
}

/* The threads -j asks for; by default one per processor, at most 8: a build that runs one
 * cakec per processor (make -j) would otherwise hold processors squared kernels in memory
 * at once. */
static long
thread_count(int jobs)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	if (jobs > 0)
		return jobs;
	return ncpu < 1 ? 1 : ncpu > 8 ? 8 : ncpu;
}

static void
compile_kernels(KernelJob *kjs, int n, int jobs)
{
	KernelPool p = {kjs, n, 0, PTHREAD_MUTEX_INITIALIZER};
	long ncpu = thread_count(jobs);
	int nth = ncpu > 64 ? 64 : (int)ncpu, i, started = 0;
	pthread_t th[64];

	if (nth > n)
		nth = n;
	for (i = 0; i < n; i++)
		kjs[i].parallel = ncpu > 1 && n < ncpu;
	ptx_init();     /* LLVM's one-time set-up, before any thread uses it */
	for (i = 1; i < nth; i++)
		if (pthread_create(&th[started], NULL, pool_worker, &p) == 0)
			started++;
	pool_worker(&p);
	for (i = 0; i < started; i++)
		pthread_join(th[i], NULL);
}

/* ptxas assembles wgmma code whose input registers change while a group is in flight by
 * serializing the wgmmas, and says so only in an info line ("(C7513) Potential
 * Performance Loss: wgmma.mma_async instructions are serialized ..."); the kernel runs,
 * at a fraction of its speed, so the line becomes a warning. */
static void
warn_serialized(const char *kernel, int target, const char *log)
{
	const char *p = log ? strstr(log, "instructions are serialized") : NULL, *b, *e;

	if (!p)
		return;
	for (b = p; b > log && b[-1] != '\n'; b--)
		;
	e = strchr(p, '\n');
	fprintf(stderr, "cakec: warning: kernel '%s' for %s: ptxas serializes its wgmma (docs/language.md, "
		"\"Overlapping groups\"): %.*s\n", kernel, ir_target_name(target),
		(int)(e ? e - b : (long)strlen(b)), b);
}

/* A kernel whose passes have run, ready for compile_kernels: its symbol (the name and a
 * hash of its IR) and its targets (none when nothing beyond the IR is emitted); the IR
 * goes out now, in order. */
static void
prepare_kernel(const Options *o, IrKernel *k, KernelJob *kj)
{
	Buf ir = {0};
	char name[600];
	int t;

	memset(kj, 0, sizeof *kj);
	kj->o = o;
	kj->k = k;
	ir_print_kernel(&ir, k);
	kj->hash = ir_symbol_hash(ir.s, (size_t)ir.len);
	snprintf(kj->symbol, sizeof kj->symbol, "%s_%012llx", k->name,
		 (unsigned long long)(kj->hash & 0xffffffffffffull));
	if (o->emit & EMIT_IR) {
		snprintf(name, sizeof name, "%s.ir", k->name);
		add_output_buf(name, &ir);
	}
	buf_free(&ir);
	if (!(o->emit & (EMIT_LLVM | EMIT_PTX | EMIT_CUBIN | EMIT_HOST)))
		return;
	for (t = 0; t < TARGET_COUNT; t++) {
		if (!(k->targets & (1u << t)))
			continue;
		kj->jobs[kj->n].o = o;
		kj->jobs[kj->n].target = t;
		kj->jobs[kj->n].copy = kj->n > 0;
		kj->n++;
	}
}

/* Writes out what compile_kernels made for one kernel: PTX, LLVM IR, cubins, launcher. */
static void
emit_kernel(KernelJob *kj, Buf *manifest)
{
	const Options *o = kj->o;
	IrKernel *k = kj->k;
	HostImages img;
	char name[600];
	double t0;
	int t, i;

	if (kj->n == 0)
		return;
	memset(&img, 0, sizeof img);
	if (kj->build_failed)
		ICE("backend failed on kernel '%s' for %s: %s", k->name, ir_target_name(kj->jobs[0].target),
		    kj->err.s ? kj->err.s : "?");
	for (i = 0; i < kj->n; i++) {
		TargetJob *j = &kj->jobs[i];

		t = j->target;
		if (j->failed == 1)
			ICE("backend failed on kernel '%s' for %s: %s", k->name, ir_target_name(t),
			    j->err.s ? j->err.s : "?");
		if (j->failed == 2 && o->cubins == CUBINS_REQUIRED)
			ICE("ptxas rejected the PTX of kernel '%s' for %s:\n%s", k->name,
			    ir_target_name(t), j->log.s ? j->log.s : "");
		if (!j->failed)
			warn_serialized(k->name, t, j->log.s);
		if (j->failed == 2) {
			/* an older ptxas than the PTX needs, most likely: the PTX still works */
			fprintf(stderr, "cakec: warning: ptxas rejected the PTX of kernel '%s' for %s; its launcher embeds the PTX only:\n%s",
				k->name, ir_target_name(t), j->log.s ? j->log.s : "");
			j->cubin.len = 0;
		}
		if (o->emit & EMIT_LLVM) {
			Buf copy = {0};

			buf_puts(&copy, kj->llvm.s ? kj->llvm.s : "");
			snprintf(name, sizeof name, "%s.%s.ll", k->name, ir_target_name(t));
			add_output_buf(name, &copy);
		}
		img.ptx[t] = j->ptx.s ? j->ptx.s : "";
		if (o->cubins != CUBINS_NONE && j->cubin.len > 0) {
			img.cubin[t] = (const unsigned char *)j->cubin.s;
			img.cubin_len[t] = (size_t)j->cubin.len;
		}
	}
	for (t = 0; t < TARGET_COUNT; t++) {
		if (!img.ptx[t])
			continue;
		if (o->emit & EMIT_PTX) {
			Buf copy = {0};

			buf_puts(&copy, img.ptx[t]);
			snprintf(name, sizeof name, "%s.%s.ptx", k->name, ir_target_name(t));
			add_output_buf(name, &copy);
		}
		if (o->emit & EMIT_CUBIN) {
			snprintf(name, sizeof name, "%s.%s.cubin", k->name, ir_target_name(t));
			add_output(name, xmalloc(img.cubin_len[t] + 1), img.cubin_len[t], 1);
			memcpy(outputs[noutputs - 1].data, img.cubin[t], img.cubin_len[t]);
		}
	}
	if (o->emit & EMIT_HOST) {
		Buf h = {0}, c = {0}, m = {0};

		t0 = clock_ms();
		host_emit(k, kj->symbol, kj->hash, &img, &h, &c, &m);
		time_add("host-emit", clock_ms() - t0);
		snprintf(name, sizeof name, "%s.h", k->name);
		add_output_buf(name, &h);
		snprintf(name, sizeof name, "%s.c", k->name);
		add_output_buf(name, &c);
		buf_puts(manifest, manifest->len ? ",\n  " : "[\n  ");
		buf_puts(manifest, m.s ? m.s : "{}");
		buf_free(&m);
	}
}

static void
free_kernel_job(KernelJob *kj)
{
	int i;

	buf_free(&kj->llvm);
	buf_free(&kj->err);
	for (i = 0; i < kj->n; i++) {
		buf_free(&kj->jobs[i].ptx);
		buf_free(&kj->jobs[i].cubin);
		buf_free(&kj->jobs[i].log);
		buf_free(&kj->jobs[i].err);
	}
}

/* Every kernel of the inputs, from IR to outputs: the backend work of all of them on
 * threads (compile_kernels), then their outputs in order. */
static void
emit_kernels(const Options *o, IrModule **mods, Buf *manifest)
{
	KernelJob *kjs;
	int f, i, n = 0;

	for (f = 0; f < o->nfiles; f++)
		n += mods[f]->nkernels;
	kjs = xcalloc((size_t)n + 1, sizeof *kjs);
	n = 0;
	for (f = 0; f < o->nfiles; f++)
		for (i = 0; i < mods[f]->nkernels; i++)
			prepare_kernel(o, mods[f]->kernels[i], &kjs[n++]);
	compile_kernels(kjs, n, o->jobs);
	for (i = 0; i < n; i++) {
		emit_kernel(&kjs[i], manifest);
		free_kernel_job(&kjs[i]);
	}
	free(kjs);
}

/* A compile allocates tens of MB (LLVM's analyses and SelectionDAG mostly), each 4 KB page
 * faulted in as it is first touched: a few thousand faults, 2-5% of a large kernel's
 * compile (bench/RESULTS.md section 43). So the heap's first 64 MB are made once, asked to
 * be backed by huge pages where the system gives them on request (transparent huge pages
 * in madvise mode), and kept: glibc then carves every allocation of the main thread's
 * arena from them. */
static void
huge_heap(void)
{
#if defined(__linux__) && defined(M_MMAP_THRESHOLD) && defined(MADV_HUGEPAGE)
	enum { PAD = 64 << 20, HUGE = 2 << 20 };
	char *p;
	uintptr_t lo, hi;

	mallopt(M_MMAP_THRESHOLD, 2 * PAD);     /* else a large block would be an mmap of its own */
	mallopt(M_TRIM_THRESHOLD, 4 * PAD);     /* else free() would give the pad back */
	p = malloc(PAD);
	if (!p)
		return;
	lo = ((uintptr_t)p + HUGE - 1) & ~(uintptr_t)(HUGE - 1);
	hi = ((uintptr_t)p + PAD) & ~(uintptr_t)(HUGE - 1);
	if (hi > lo)
		madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
	free(p);
#endif
}

static int
mkdirs(const char *path)
{
	char *p = xstrdup(path), *s;
	int rc = 0;

	for (s = p + 1; ; s++) {
		if (*s == '/' || *s == 0) {
			char c = *s;

			*s = 0;
			if (mkdir(p, 0777) != 0 && errno != EEXIST)
				rc = -1;
			*s = c;
			if (!c)
				break;
		}
	}
	free(p);
	return rc;
}

static int
write_outputs(const Options *o)
{
	int i;

	if (!o->outdir) {
		for (i = 0; i < noutputs; i++)
			fwrite(outputs[i].data, 1, outputs[i].len, stdout);
		return fflush(stdout) == 0 ? 0 : -1;
	}
	if (mkdirs(o->outdir) != 0) {
		fprintf(stderr, "cakec: error: cannot create output folder '%s': %s\n", o->outdir,
			strerror(errno));
		return -1;
	}
	for (i = 0; i < noutputs; i++) {
		size_t n = strlen(o->outdir) + strlen(outputs[i].name) + 2;
		char *path = xmalloc(n);

		snprintf(path, n, "%s/%s", o->outdir, outputs[i].name);
		if (write_file_atomic(path, outputs[i].data, outputs[i].len) != 0) {
			fprintf(stderr, "cakec: error: cannot write '%s': %s\n", path, strerror(errno));
			free(path);
			return -1;
		}
		free(path);
	}
	return 0;
}

/* One JSON string element of the header's option list. */
static void
header_opt(Buf *m, int *first, const char *a, const char *b)
{
	const char *parts[2] = {a, b ? b : ""}, *p;
	int i;

	buf_puts(m, *first ? "\"" : ", \"");
	*first = 0;
	for (i = 0; i < 2; i++)
		for (p = parts[i]; *p; p++) {
			if (*p == '"' || *p == '\\')
				buf_putn(m, "\\", 1);
			if ((unsigned char)*p >= 0x20)
				buf_putn(m, p, 1);
		}
	buf_puts(m, "\"");
}

/* The manifest's first entry: the cakec that wrote the folder and the options that shape
 * its files (not -o or the input paths), so that a drift check can regenerate it the same
 * way (--check-generated). Readers skip entries without "kernel" or "entry". */
static void
manifest_header(const Options *o, Buf *m)
{
	char emit[64] = "--emit=", opt[16];
	int i, t, first = 1;
	Buf ver = {0};

	for (i = 0; i < (int)(sizeof emit_names / sizeof emit_names[0]); i++)
		if (o->emit & emit_names[i].bit)
			snprintf(emit + strlen(emit), sizeof emit - strlen(emit), "%s%s",
				 emit[7] ? "," : "", emit_names[i].name);
	buf_printf(m, "[\n  {\"cakec\": \"%s\", \"options\": [", CAKEC_VERSION);
	header_opt(m, &first, emit, NULL);
	for (t = 0; t < TARGET_COUNT; t++)
		if (o->targets & (1u << t))
			header_opt(m, &first, "--target=", ir_target_name(t));
	snprintf(opt, sizeof opt, "-O%d", o->opt_level);
	header_opt(m, &first, opt, NULL);
	if (o->no_staging_elision)
		header_opt(m, &first, "--no-staging-elision", NULL);
	if (o->no_fmad)
		header_opt(m, &first, "--fmad=false", NULL);
	if (o->ptx_only)
		header_opt(m, &first, "--ptx-only", NULL);
	for (i = 0; i < o->nkernels; i++)
		header_opt(m, &first, "--kernel=", o->kernels[i]);
	for (i = 0; i < o->ndefines; i++) {
		Buf d = {0};

		buf_printf(&d, "-D%s=%s", o->defines[i].name, o->defines[i].value);
		header_opt(m, &first, d.s, NULL);
		buf_free(&d);
	}
	buf_puts(m, "]");
	if (o->cubins != CUBINS_NONE && ptx_ptxas_version(&ver) == 0)
		buf_printf(m, ", \"images\": \"cubin+ptx\", \"ptxas\": \"%s\"", ver.s);
	else if (o->cubins != CUBINS_NONE)
		buf_puts(m, ", \"images\": \"cubin+ptx\", \"ptxas\": \"unknown version\"");
	else
		buf_printf(m, ", \"images\": \"ptx\", \"why\": \"%s\"",
			   o->ptx_only ? "--ptx-only" : "no ptxas found");
	buf_puts(m, "}");
	buf_free(&ver);
}

/* Whether this compile assembles cubins: always for --emit=cubin (ptxas required), and by
 * default when writing launchers, so that a launch loads machine code instead of making
 * the driver JIT-compile the PTX in every process (hundreds of ms for a GEMM). The PTX is
 * embedded either way: the runtime falls back on it when the driver refuses the cubin. */
static void
decide_cubins(Options *o)
{
	static const char *const why = "set CAKEC_PTXAS or install the CUDA toolkit";

	if (o->emit & EMIT_CUBIN) {
		if (!ptx_find_ptxas()) {
			fprintf(stderr, "cakec: error: --emit=cubin needs ptxas: none found (%s)\n", why);
			exit(EXIT_USER);
		}
		o->cubins = CUBINS_REQUIRED;
	} else if (!(o->emit & EMIT_HOST) || o->ptx_only || o->list_outputs) {
		o->cubins = CUBINS_NONE;        /* --list-outputs: cubins add no file */
	} else if (ptx_find_ptxas()) {
		o->cubins = CUBINS_DEFAULT;
	} else {
		o->cubins = CUBINS_NONE;
		fprintf(stderr, "cakec: note: no ptxas found (%s): the launchers embed PTX only, "
			"which the driver JIT-compiles at the first launch in each process\n", why);
	}
}

/* --list-outputs: the names -o would write, one per line. */
static int
list_outputs(void)
{
	int i;

	for (i = 0; i < noutputs; i++)
		printf("%s\n", outputs[i].name);
	return fflush(stdout) == 0 ? 0 : -1;
}

/* 1 when dir/name holds exactly data. */
static int
same_file(const char *dir, const char *name, const char *data, size_t len)
{
	size_t n = strlen(dir) + strlen(name) + 2, got = 0;
	char *path = xmalloc(n);
	char *text;
	int same;

	snprintf(path, n, "%s/%s", dir, name);
	text = read_input(path, &got);
	same = text && got == len && memcmp(text, data, len) == 0;
	free(text);
	free(path);
	return same;
}

/* --check-generated DIR: DIR must hold exactly what cakec writes now (same names, same
 * bytes; files cakec would not write, dotfiles aside, are extra). Lists every difference;
 * returns the number. What a consuming project's CI runs on its checked-in folder. */
static int
check_generated(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int i, bad = 0;

	if (!d) {
		fprintf(stderr, "cakec: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	for (i = 0; i < noutputs; i++)
		if (!same_file(dir, outputs[i].name, outputs[i].data, outputs[i].len)) {
			fprintf(stderr, "cakec: %s/%s: differs from what cakec generates now\n", dir,
				outputs[i].name);
			bad++;
		}
	while ((e = readdir(d))) {
		for (i = 0; i < noutputs && strcmp(outputs[i].name, e->d_name) != 0; i++)
			;
		if (i == noutputs && e->d_name[0] != '.') {
			fprintf(stderr, "cakec: %s/%s: not generated by these sources and options\n",
				dir, e->d_name);
			bad++;
		}
	}
	closedir(d);
	if (bad)
		fprintf(stderr, "cakec: %s is stale: %d file(s) differ; regenerate it\n", dir, bad);
	return bad;
}

/* The files the inputs depend on for --depfile: each input, then what it imports. */
static char **deps;
static int ndeps, capdeps;

static void
add_dep(void *ctx, const char *path)
{
	char *s = xstrdup(path);

	(void)ctx;
	PUSH(deps, ndeps, capdeps, s);
}

/* A path in a make rule: spaces, '#' and '$' escaped as make (and Ninja) read them. */
static void
put_make_path(Buf *b, const char *path)
{
	for (; *path; path++) {
		if (*path == ' ' || *path == '#' || *path == '\\')
			buf_putn(b, "\\", 1);
		if (*path == '$')
			buf_putn(b, "$", 1);
		buf_putn(b, path, 1);
	}
}

/* A path in the depfile: relative ones made absolute, since the build system reading it
 * need not run cakec from the folder they are relative to (the outputs never see this). */
static void
put_dep_path(Buf *b, const char *cwd, const char *path)
{
	if (path[0] != '/' && cwd) {
		put_make_path(b, cwd);
		buf_putn(b, "/", 1);
	}
	put_make_path(b, path);
}

/* --depfile: one make rule, every file written in -o DIR depending on every file read. */
static int
write_depfile(const Options *o)
{
	Buf b = {0};
	char cwdbuf[4096];
	const char *cwd = getcwd(cwdbuf, sizeof cwdbuf);
	int i, rc;

	for (i = 0; i < noutputs; i++) {
		if (i)
			buf_putn(&b, " ", 1);
		put_dep_path(&b, cwd, o->outdir);
		buf_putn(&b, "/", 1);
		put_make_path(&b, outputs[i].name);
	}
	buf_putn(&b, ":", 1);
	for (i = 0; i < ndeps; i++) {
		buf_puts(&b, " \\\n  ");
		put_dep_path(&b, cwd, deps[i]);
	}
	buf_putn(&b, "\n", 1);
	rc = write_file_atomic(o->depfile, b.s, (size_t)b.len);
	if (rc != 0)
		fprintf(stderr, "cakec: error: cannot write '%s': %s\n", o->depfile, strerror(errno));
	buf_free(&b);
	return rc;
}

/* What main allocates, file-level so that every exit path can free it (finish). */
static Options o;
static IrModule **mods;
static Buf manifest, printed, report;

static int
selected(const Options *o, const char *name)
{
	int i;

	for (i = 0; i < o->nkernels; i++)
		if (strcmp(o->kernels[i], name) == 0)
			return 1;
	return 0;
}

/* --kernel: keeps the kernels named (and an entry point only when all its instances stay);
 * a name that is no kernel of the inputs is a usage error. Returns nonzero after one. */
static int
select_kernels(const Options *o, IrModule **mods)
{
	int f, i, j, n, bad = 0;

	for (i = 0; i < o->nkernels; i++) {
		int found = 0;

		for (f = 0; f < o->nfiles; f++)
			for (j = 0; j < mods[f]->nkernels; j++)
				found |= strcmp(mods[f]->kernels[j]->name, o->kernels[i]) == 0;
		if (!found) {
			fprintf(stderr, "cakec: error: --kernel %s: no kernel of that name in the inputs\n", o->kernels[i]);
			bad = 1;
		}
	}
	if (bad)
		return 1;
	for (f = 0; f < o->nfiles; f++) {
		IrModule *m = mods[f];

		for (i = n = 0; i < m->nkernels; i++) {
			if (selected(o, m->kernels[i]->name))
				m->kernels[n++] = m->kernels[i];
			else
				ir_kernel_free(m->kernels[i]);
		}
		m->nkernels = n;
		for (i = n = 0; i < m->nentries; i++) {
			IrEntry *e = &m->entries[i];
			int keep = 1;

			for (j = 0; j < e->ninst; j++)
				keep &= selected(o, e->insts[j]);
			if (keep) {
				m->entries[n++] = *e;
				continue;
			}
			ir_entry_free(e);
		}
		m->nentries = n;
	}
	return 0;
}

/* The entry points of m's generic kernels (host_emit_entry), beside their instances'
 * launchers. Each instance is there (the --kernel filter keeps an entry's instances with
 * it), and they have one argument struct (the frontend's check_signatures). */
static void
emit_entries(const IrModule *m, Buf *manifest)
{
	int i, j, k;

	for (i = 0; i < m->nentries; i++) {
		const IrEntry *e = &m->entries[i];
		IrKernel **insts = xcalloc((size_t)e->ninst + 1, sizeof *insts);
		Buf h = {0}, c = {0};
		char name[600];

		for (j = 0; j < e->ninst; j++)
			for (k = 0; k < m->nkernels; k++)
				if (strcmp(m->kernels[k]->name, e->insts[j]) == 0)
					insts[j] = m->kernels[k];
		for (j = 0; j < e->ninst; j++)
			if (!insts[j])
				ICE("entry point %s: its instance %s is not in the module", e->name, e->insts[j]);
		host_emit_entry(e, insts, &h, &c);
		snprintf(name, sizeof name, "%s.h", e->name);
		add_output_buf(name, &h);
		snprintf(name, sizeof name, "%s.c", e->name);
		add_output_buf(name, &c);
		buf_puts(manifest, manifest->len ? ",\n  " : "[\n  ");
		host_entry_manifest(e, insts, manifest);
		free(insts);
	}
}
static char **names;
static int nnames, capnames;

/* Frees what the compile allocated and returns rc, so that leak checkers see a clean exit
 * on every path, the error paths included. */
static int
finish(int rc)
{
	int f, i;

	for (f = 0; mods && f < o.nfiles; f++)
		ir_module_free(mods[f]);
	free(mods);
	for (i = 0; i < noutputs; i++) {
		free(outputs[i].name);
		free(outputs[i].data);
	}
	free(outputs);
	free(names);
	for (i = 0; i < ndeps; i++)
		free(deps[i]);
	free(deps);
	free(o.import_dirs);
	for (i = 0; i < o.ndefines; i++)
		free((char *)o.defines[i].name);
	free(o.defines);
	free(o.files);
	free(o.kernels);
	buf_free(&manifest);
	buf_free(&printed);
	buf_free(&report);
	ptx_shutdown();
	return rc;
}

int
main(int argc, char **argv)
{
	double start = clock_ms(), t0;
	int f, i, j;

	huge_heap();
	parse_args(&o, argc, argv);
	mods = xcalloc((size_t)o.nfiles, sizeof *mods);

	for (f = 0; f < o.nfiles; f++) {
		const char *path = o.files[f];
		int is_ir = o.input_ir >= 0 ? o.input_ir : has_suffix(path, ".ir");
		size_t len;
		char *text = read_input(path, &len);

		if (!text) {
			fprintf(stderr, "cakec: error: cannot read '%s': %s\n", path, strerror(errno));
			return finish(EXIT_USER);
		}
		if (memchr(text, 0, len)) {
			/* the position of the first NUL; the line itself is not shown (binary) */
			const char *nul = memchr(text, 0, len), *p;
			SrcLoc loc = {diag_add_source(path, NULL, 0), 1, 1, 0};

			for (p = text; p < nul; p++, loc.col++)
				if (*p == '\n') {
					loc.line++;
					loc.col = 0;
				}

			diag_error(loc, "input contains a NUL byte; expected %s text", is_ir ? "IR" : ".cake");
			continue;
		}
		if (strcmp(path, "-") != 0)
			add_dep(NULL, path);
		t0 = clock_ms();
		if (is_ir) {
			mods[f] = ir_parse(path, text, len);
			time_add("ir-parse", clock_ms() - t0);
		} else {
			Buf ast = {0};
			FeOptions fo;

			memset(&fo, 0, sizeof fo);
			fo.defines = o.defines;
			fo.ndefines = o.ndefines;
			fo.import_dirs = o.import_dirs;
			fo.nimport_dirs = o.nimport_dirs;
			fo.imported = add_dep;
			fo.ast_out = (o.emit & EMIT_AST) ? &ast : NULL;
			fo.kernels = o.kernels;
			fo.nkernels = o.nkernels;
			mods[f] = fe_compile(path, text, len, &fo);
			time_add("frontend", clock_ms() - t0);
			if (o.emit & EMIT_AST) {
				char *stem = file_stem(path);
				char name[600];

				snprintf(name, sizeof name, "%s.ast", stem);
				free(stem);
				add_output_buf(name, &ast);
			}
		}
		if (!mods[f] && !diag_errors())
			ICE("the %s reader returned nothing without reporting an error", is_ir ? "IR" : ".cake");
	}
	if (diag_errors())
		return finish(EXIT_USER);
	if (o.nkernels && select_kernels(&o, mods))
		return finish(EXIT_USAGE);

	for (f = 0; f < o.nfiles; f++) {
		for (i = 0; i < mods[f]->nkernels; i++) {
			IrKernel *k = mods[f]->kernels[i];
			PassOptions po;
			int t, failed, is_ir, nerr, nrule;

			for (j = 0; j < nnames; j++)
				if (strcmp(names[j], k->name) == 0)
					diag_error(file_loc(k), "kernel '%s' is defined in more than one input", k->name);
			PUSH(names, nnames, capnames, (char *)k->name);
			if (o.targets) {
				for (t = 0; t < TARGET_COUNT; t++)
					if ((o.targets & (1u << t)) && !(k->targets & (1u << t)))
						diag_error(file_loc(k), "kernel '%s' does not list target %s in its targets(...)",
							   k->name, ir_target_name(t));
				k->targets &= o.targets;
			}
			if (!(o.emit & EMIT_HOST))
				check_grid(k);
			/* The verifier owns the schedule rules a .cake user can break: those are user
			 * errors at the user's line; any other error means the frontend is wrong. */
			is_ir = o.input_ir >= 0 ? o.input_ir : has_suffix(o.files[f], ".ir");
			nerr = ir_verify_rules(k, "before the first pass", is_ir ? "before the first pass" : NULL, &nrule);
			if (nerr) {
				if (is_ir || nerr == nrule)
					continue;
				ICE("the frontend produced invalid IR for kernel '%s'", k->name);
			}
			memset(&po, 0, sizeof po);
			po.opt_level = o.opt_level;
			po.verify = 1;
			po.only = o.passes;
			po.print_after = o.print_after;
			po.print_after_all = o.print_after_all;
			po.print_out = &printed;
			po.no_staging_elision = o.no_staging_elision;
			po.no_fmad = o.no_fmad;
			po.staging_report = o.report_staging ? &report : NULL;
			po.need_layout = (o.emit & ~(EMIT_AST | EMIT_IR)) || o.report_smem;
			if (o.report_staging && !o.passes && (o.opt_level == 0 || o.no_staging_elision))
				buf_printf(&report, "staging: %s: staging elision is off (%s)\n", k->name,
					   o.opt_level == 0 ? "-O0" : "--no-staging-elision");
			failed = pass_pipeline(k, &po);
			if (printed.len) {
				fwrite(printed.s, 1, (size_t)printed.len, stderr);
				printed.len = 0;
			}
			if (failed) {
				if (!diag_errors())
					ICE("pass pipeline failed on kernel '%s' without a diagnostic", k->name);
				continue;
			}
			if (o.report_smem)
				pass_smem_report(&report, k);
			if (o.report_tmem)
				pass_tmem_report(&report, k);
		}
	}
	if (diag_errors())
		return finish(EXIT_USER);

	decide_cubins(&o);
	if (o.emit & EMIT_HOST)
		manifest_header(&o, &manifest);
	emit_kernels(&o, mods, &manifest);
	if (diag_errors())
		return finish(EXIT_USER);

	if (o.emit & EMIT_HOST)
		for (f = 0; f < o.nfiles; f++)
			emit_entries(mods[f], &manifest);
	if (o.emit & EMIT_HOST) {
		const HostFile *hf;

		buf_puts(&manifest, manifest.len ? "\n]\n" : "[]\n");
		add_output_buf("manifest.json", &manifest);
		for (hf = host_runtime_files; hf->name; hf++) {
			Buf text = {0};

			host_runtime_text(hf, &text);
			add_output_buf(hf->name, &text);
		}
	}
	/* The report goes to stdout even with -o, ahead of any text outputs. */
	if (report.len)
		fwrite(report.s, 1, (size_t)report.len, stdout);
	buf_free(&report);
	if (o.list_outputs)
		return finish(list_outputs() == 0 ? EXIT_OK : EXIT_USER);
	if (o.check_dir)
		return finish(check_generated(o.check_dir) ? EXIT_USER : EXIT_OK);
	t0 = clock_ms();
	if (write_outputs(&o) != 0 || (o.depfile && write_depfile(&o) != 0))
		return finish(EXIT_USER);
	time_add("write-outputs", clock_ms() - t0);
	if (o.time_report) {
		Buf tr = {0};

		time_report(&tr, clock_ms() - start);
		fwrite(tr.s, 1, (size_t)tr.len, stderr);
		buf_free(&tr);
	}
	return finish(EXIT_OK);
}
