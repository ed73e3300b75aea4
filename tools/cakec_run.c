/* cakec-run: runs one kernel of a .cake (or .ir) file on the CPU through the interpreter
 * (interp/, docs/interpreter.md), after the same pass pipeline cakec runs before emitting
 * code. Tensors come from .npy files and out/inout tensors are written back to them;
 * scalars and syms come from the command line; the grid is the launcher's. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../frontend/frontend.h"
#include "../interp/interp.h"
#include "../passes/passes.h"

typedef struct RunArg {
	const char *name, *value;
} RunArg;

typedef struct Options {
	const char *file, *kernel;
	int target;             /* -1: the kernel's first */
	int input_ir;           /* -1: by extension */
	int opt_level;
	int no_fmad;            /* --fmad=false */
	int nseeds;             /* --seeds: runs under seeds seed .. seed + nseeds - 1 */
	const char *passes;     /* --passes: exactly these passes (smem-layout added if needed) */
	const char *trace;      /* --trace: the first seed's run writes its timeline there */
	InterpOptions io;
	FeDefine *defines;
	int ndefines, capdefines;
	const char **import_dirs;   /* -I */
	int nimport_dirs, capimport_dirs;
	RunArg *args;
	int nargs, capargs;
} Options;

static void
usage(FILE *f)
{
	fprintf(f, "usage: cakec-run [options] FILE KERNEL [NAME=VALUE]...\n"
		"Runs KERNEL of FILE (.cake, or IR text) on the CPU through cakec's IR interpreter,\n"
		"after the pass pipeline cakec uses to emit code.\n"
		"\n"
		"arguments, one per kernel parameter:\n"
		"  NAME=PATH.npy           a tensor (C order, the parameter's element type; bf16 as\n"
		"                          uint16 bit patterns); out and inout tensors are written\n"
		"                          back to PATH (an out tensor's file may be missing: its\n"
		"                          shape then comes from the syms)\n"
		"  NAME=NUMBER             a scalar, or a sym not bound by a tensor shape\n"
		"\n"
		"options:\n"
		"  --target T              run as target T: %s\n"
		"                          (default: the kernel's first target)\n"
		"  --seed N                the scheduler's seed: block and warp order (default 0)\n"
		"  --seeds N               run under N seeds from --seed on, each from the same\n"
		"                          inputs: a finding under any, or results that differ\n"
		"                          between seeds (a race), is an error\n"
		"  --num-sms N             what num_sms is in grid formulas (default 132)\n"
		"  --no-uninit-check       do not report reads of shared memory no thread wrote\n"
		"  --no-race-check         do not report data races on shared memory (faster)\n"
		"  --no-global-race-check  do not report data races on global memory (out and\n"
		"                          inout tensors)\n"
		"  --max-steps N           stop with an error when a block executes more than N\n"
		"                          warp-ops (a loop that never ends; default 2^32)\n"
		"  --trace FILE            write a timeline of the run to FILE as Chrome Trace Event\n"
		"                          JSON (ui.perfetto.dev, chrome://tracing): per warp its\n"
		"                          role, waits, TMA, wgmma and cp.async spans; with --seeds,\n"
		"                          of the first seed's run\n"
		"  --trace-blocks N        trace the blocks (their clusters) of linear index below N\n"
		"                          (x fastest; default 1: the first block)\n"
		"  --input=cake|ir         input language (default: by extension; .ir is IR text)\n"
		"  -D NAME=VALUE           override the compile-time constant NAME\n"
		"  -I DIR                  look for imported files in DIR after the importing\n"
		"                          file's folder (repeatable, searched in order)\n"
		"  -O0, -O2                the pass pipeline's level (default -O2)\n"
		"  --fmad=true|false       fuse f32/f64 a * b + c into one fma, as cakec does\n"
		"                          (default true)\n"
		"  --passes=LIST           run exactly these passes, as cakec --passes does\n"
		"                          (smem-layout is added when the list leaves no layout);\n"
		"                          e.g. to run IR that schedule-check would reject\n"
		"  --no-static-tmem-rules  skip the verifier's whole-kernel tensor-memory rules\n"
		"                          (pairing, relinquish, fences): to see what the\n"
		"                          run-time checks find in IR those rules refuse\n"
		"  --help                  show this help\n"
		"\n"
		"exit status: 0 ok, 1 a finding (out-of-bounds access, divergent barrier or\n"
		"collective, ...) or an error in the input, 2 bad command line, 70 internal error\n",
		ir_all_target_names(NULL));
}

static _Noreturn void
usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "cakec-run: error: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\ncakec-run: try 'cakec-run --help'\n");
	exit(EXIT_USAGE);
}

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

static int64_t
parse_int(const char *s, const char *what)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 0);
	if (!*s || *end || errno)
		usage_error(what, s);
	return v;
}

static void
parse_args(Options *o, int argc, char **argv)
{
	int i, pos = 0;
	const char *v;

	o->target = -1;
	o->input_ir = -1;
	o->opt_level = 2;
	o->nseeds = 1;
	interp_options_default(&o->io);
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (a[0] != '-' || strcmp(a, "-") == 0) {
			if (pos == 0)
				o->file = a;
			else if (pos == 1)
				o->kernel = a;
			else {
				const char *eq = strchr(a, '=');
				RunArg r;

				if (!eq || eq == a)
					usage_error("expected NAME=VALUE, got '%s'", a);
				r.name = strndup(a, (size_t)(eq - a));
				r.value = eq + 1;
				PUSH(o->args, o->nargs, o->capargs, r);
			}
			pos++;
		} else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage(stdout);
			exit(EXIT_OK);
		} else if ((v = optval(argc, argv, &i, "--target"))) {
			if ((o->target = ir_target_from_name(v)) < 0)
				usage_error("unknown target '%s'", v);
		} else if ((v = optval(argc, argv, &i, "--seed"))) {
			o->io.seed = (uint64_t)parse_int(v, "--seed expects an integer, got '%s'");
		} else if ((v = optval(argc, argv, &i, "--seeds"))) {
			int64_t n = parse_int(v, "--seeds expects an integer, got '%s'");

			if (n <= 0 || n > 1000000)
				usage_error("--seeds must be 1..1000000, got '%s'", v);
			o->nseeds = (int)n;
		} else if ((v = optval(argc, argv, &i, "--num-sms"))) {
			o->io.num_sms = parse_int(v, "--num-sms expects an integer, got '%s'");
			if (o->io.num_sms <= 0)
				usage_error("--num-sms must be positive, got '%s'", v);
		} else if ((v = optval(argc, argv, &i, "--max-steps"))) {
			o->io.max_steps = (uint64_t)parse_int(v, "--max-steps expects an integer, got '%s'");
			if ((int64_t)o->io.max_steps <= 0)
				usage_error("--max-steps must be positive, got '%s'", v);
		} else if ((v = optval(argc, argv, &i, "--trace-blocks"))) {
			o->io.trace_blocks = parse_int(v, "--trace-blocks expects an integer, got '%s'");
			if (o->io.trace_blocks <= 0)
				usage_error("--trace-blocks must be positive, got '%s'", v);
		} else if ((v = optval(argc, argv, &i, "--trace"))) {
			o->trace = v;
		} else if (strcmp(a, "--no-race-check") == 0) {
			o->io.check_races = 0;
		} else if (strcmp(a, "--no-global-race-check") == 0) {
			o->io.check_global_races = 0;
		} else if (strcmp(a, "--no-static-tmem-rules") == 0) {
			ir_verify_tmem_kernel_rules = 0;
		} else if (strcmp(a, "--no-uninit-check") == 0) {
			o->io.check_uninit = 0;
		} else if ((v = optval(argc, argv, &i, "--input"))) {
			if (strcmp(v, "ir") == 0 || strcmp(v, "cake") == 0)
				o->input_ir = strcmp(v, "ir") == 0;
			else
				usage_error("unknown --input language '%s' (expected cake or ir)", v);
		} else if ((v = optval(argc, argv, &i, "--passes"))) {
			o->passes = v;
		} else if ((v = optval(argc, argv, &i, "-D"))) {
			const char *eq = strchr(v, '=');
			FeDefine d;

			if (!eq || eq == v)
				usage_error("-D expects NAME=VALUE, got '%s'", v);
			d.name = strndup(v, (size_t)(eq - v));
			d.value = eq + 1;
			PUSH(o->defines, o->ndefines, o->capdefines, d);
		} else if ((v = optval(argc, argv, &i, "-I"))) {
			PUSH(o->import_dirs, o->nimport_dirs, o->capimport_dirs, v);
		} else if (strcmp(a, "-O0") == 0 || strcmp(a, "-O2") == 0) {
			o->opt_level = a[2] - '0';
		} else if ((v = optval(argc, argv, &i, "--fmad"))) {
			if (strcmp(v, "true") != 0 && strcmp(v, "false") != 0)
				usage_error("--fmad expects true or false, got '%s'", v);
			o->no_fmad = strcmp(v, "false") == 0;
		} else {
			usage_error("unknown option '%s'", a);
		}
	}
	if (!o->file || !o->kernel)
		usage_error("%s", "expected a FILE and a KERNEL name");
}

/* An error about the command line's files or arguments (no source location). */
static void
tool_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "cakec-run: error: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static int
has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Parses and compiles the input; the kernel after the pass pipeline, or NULL. */
static IrKernel *
compile(Options *o, IrModule **mod)
{
	int is_ir = o->input_ir >= 0 ? o->input_ir : has_suffix(o->file, ".ir");
	size_t len;
	char *text = read_file(o->file, &len);
	IrKernel *k = NULL;
	PassOptions po;
	int i, nrule;

	if (!text) {
		tool_error("cannot read '%s': %s", o->file, strerror(errno));
		return NULL;
	}
	if (is_ir) {
		*mod = ir_parse(o->file, text, len);
	} else {
		FeOptions fo;

		memset(&fo, 0, sizeof fo);
		fo.defines = o->defines;
		fo.ndefines = o->ndefines;
		fo.import_dirs = o->import_dirs;
		fo.nimport_dirs = o->nimport_dirs;
		*mod = fe_compile(o->file, text, len, &fo);
	}
	if (!*mod)
		return NULL;
	for (i = 0; i < (*mod)->nkernels; i++)
		if (strcmp((*mod)->kernels[i]->name, o->kernel) == 0)
			k = (*mod)->kernels[i];
	if (!k) {
		tool_error("no kernel '%s' in %s", o->kernel, o->file);
		return NULL;
	}
	if (o->target >= 0) {
		if (k->targets && !(k->targets & (1u << o->target))) {
			tool_error("kernel '%s' does not list target %s in its targets(...)", k->name,
				   ir_target_name(o->target));
			return NULL;
		}
		k->targets = 1u << o->target;
	}
	if (ir_verify_rules(k, "before the first pass", is_ir ? "before the first pass" : NULL, &nrule))
		return NULL;
	memset(&po, 0, sizeof po);
	po.opt_level = o->opt_level;
	po.no_fmad = o->no_fmad;
	po.verify = 1;
	po.need_layout = 1;
	po.only = o->passes;
	if (pass_pipeline(k, &po) != 0 || interp_check(k) != 0)
		return NULL;
	return k;
}

/* The parameter named name, or -1. */
static int
find_param(const IrKernel *k, const char *name)
{
	int i;

	for (i = 0; i < k->nparams; i++)
		if (strcmp(k->params[i].name, name) == 0)
			return i;
	return -1;
}

/* Reads the command-line arguments into args and arrays (one per parameter). */
static int
load_args(const Options *o, const IrKernel *k, InterpArg *args, NpyArray *arrays, const char **paths)
{
	int i, p;

	for (i = 0; i < o->nargs; i++) {
		const RunArg *r = &o->args[i];
		const IrParam *pr;
		char *end;

		if ((p = find_param(k, r->name)) < 0) {
			tool_error("kernel '%s' has no parameter '%s'", k->name, r->name);
			return -1;
		}
		pr = &k->params[p];
		if (pr->kind == PARAM_TENSOR) {
			Buf err = {0};
			IrBase elem = (IrBase)pr->type.elem;

			paths[p] = r->value;
			if (pr->access == ACC_OUT && access(r->value, F_OK) != 0)
				continue;       /* created after the run */
			if (npy_read(r->value, &arrays[p], &err) != 0) {
				tool_error("tensor '%s': %s", pr->name, err.s);
				buf_free(&err);
				return -1;
			}
			if (!npy_descr_fits(arrays[p].descr, elem)) {
				tool_error("tensor '%s' is %s: '%s' holds '%s', expected '%s'", pr->name,
					   ir_base_name(elem), r->value, arrays[p].descr, npy_descr_of(elem));
				return -1;
			}
			if (arrays[p].rank != pr->rank) {
				tool_error("tensor '%s' has rank %d in '%s', expected %d", pr->name, arrays[p].rank,
					   r->value, pr->rank);
				return -1;
			}
			args[p].data = arrays[p].data;
			args[p].rank = arrays[p].rank;
			memcpy(args[p].shape, arrays[p].shape, sizeof args[p].shape);
		} else if (pr->kind == PARAM_TMAP) {
			tool_error("parameter '%s' is a tensor map: it is built from tensor '%s', give that instead", pr->name,
				   k->params[pr->tmap_tensor].name);
			return -1;
		} else {
			errno = 0;
			if (ir_is_float(pr->type))
				args[p].f = strtod(r->value, &end);
			else
				args[p].i = strtoll(r->value, &end, 0);
			if (!*r->value || *end || errno) {
				tool_error("parameter '%s': '%s' is not a number", pr->name, r->value);
				return -1;
			}
			args[p].set = 1;
		}
	}
	for (p = 0; p < k->nparams; p++) {
		const IrParam *pr = &k->params[p];

		if ((pr->kind == PARAM_TENSOR && !paths[p]) || pr->kind == PARAM_SCALAR) {
			if (pr->kind == PARAM_SCALAR && args[p].set)
				continue;
			tool_error("no argument for parameter '%s' of kernel '%s'", pr->name, k->name);
			return -1;
		}
	}
	return 0;
}

/* Out tensors without a file get their shape from the syms (given or bound by the
 * other tensors). */
static int
make_outputs(const IrKernel *k, InterpArg *args, NpyArray *arrays)
{
	int p, d, missing = 0;

	for (p = 0; p < k->nparams; p++)
		missing |= k->params[p].kind == PARAM_TENSOR && !args[p].data;
	if (!missing)
		return 0;
	/* each sym a missing tensor names: given, or taken from a tensor that has the file */
	for (p = 0; p < k->nparams; p++) {
		const IrParam *pr = &k->params[p];

		if (pr->kind != PARAM_TENSOR || args[p].data)
			continue;
		for (d = 0; d < pr->rank; d++)
			if (pr->dims[d].sym >= 0 && !args[pr->dims[d].sym].set) {
				int q, found = 0;

				for (q = 0; q < k->nparams && !found; q++) {
					const IrParam *t = &k->params[q];
					int e;

					if (t->kind != PARAM_TENSOR || !args[q].data)
						continue;
					for (e = 0; e < t->rank && e < args[q].rank; e++)
						if (t->dims[e].sym == pr->dims[d].sym) {
							args[pr->dims[d].sym].i = args[q].shape[e];
							args[pr->dims[d].sym].set = found = 1;
							break;
						}
				}
				if (!found) {
					tool_error("the shape of out tensor '%s' is unknown: sym '%s' is not bound; give it as %s=N or give the file",
						   pr->name, k->params[pr->dims[d].sym].name, k->params[pr->dims[d].sym].name);
					return -1;
				}
			}
		arrays[p].rank = args[p].rank = pr->rank;
		for (d = 0; d < pr->rank; d++)
			arrays[p].shape[d] = args[p].shape[d] =
				pr->dims[d].sym >= 0 ? args[pr->dims[d].sym].i : pr->dims[d].size;
		snprintf(arrays[p].descr, sizeof arrays[p].descr, "%s", npy_descr_of((IrBase)pr->type.elem));
		arrays[p].elem_bytes = ir_type_bytes(ir_scalar((IrBase)pr->type.elem));
		arrays[p].count = interp_tensor_elems(k, p, args);
		/* NaN-like garbage, as a fresh allocation would hold */
		arrays[p].data = xmalloc((size_t)(arrays[p].count * arrays[p].elem_bytes) + 1);
		memset(arrays[p].data, 0xff, (size_t)(arrays[p].count * arrays[p].elem_bytes));
		args[p].data = arrays[p].data;
	}
	return 0;
}

static size_t
tensor_bytes(const NpyArray *a)
{
	return (size_t)(a->count * a->elem_bytes);
}

/* Runs k under each seed of o, every run from the same inputs; the written tensors of the
 * first run are the results, and every other run must give the same bytes. Returns 0, or
 * -1 after reporting a finding (with its seed) or a difference between seeds. */
static int
run_seeds(Options *o, const IrKernel *k, InterpArg *args, NpyArray *arrays)
{
	unsigned char **init = xcalloc((size_t)k->nparams + 1, sizeof *init);
	unsigned char **first = xcalloc((size_t)k->nparams + 1, sizeof *first);
	uint64_t seed0 = o->io.seed;
	int s, p, rc = 0;

	for (p = 0; p < k->nparams && o->nseeds > 1; p++)
		if (k->params[p].kind == PARAM_TENSOR) {
			init[p] = xmalloc(tensor_bytes(&arrays[p]) + 1);
			memcpy(init[p], arrays[p].data, tensor_bytes(&arrays[p]));
		}
	for (s = 0; s < o->nseeds && rc == 0; s++) {
		o->io.seed = seed0 + (uint64_t)s;
		o->io.trace_path = s == 0 ? o->trace : NULL;
		for (p = 0; p < k->nparams && s > 0; p++)
			if (init[p])
				memcpy(arrays[p].data, init[p], tensor_bytes(&arrays[p]));
		if (interp_run(k, args, &o->io) != 0) {
			if (s > 0)      /* (seed0 is the one the command line names) */
				fprintf(stderr, "cakec-run: note: under --seed %llu\n", (unsigned long long)o->io.seed);
			rc = -1;
			break;
		}
		for (p = 0; p < k->nparams && o->nseeds > 1; p++) {
			size_t n = tensor_bytes(&arrays[p]), i;
			const unsigned char *now = arrays[p].data;

			if (!init[p] || k->params[p].access == ACC_IN)
				continue;
			if (s == 0) {
				first[p] = xmalloc(n + 1);
				memcpy(first[p], now, n);
				continue;
			}
			for (i = 0; i < n && now[i] == first[p][i]; i++)
				;
			if (i < n) {
				tool_error("the results depend on the schedule (a race): tensor '%s' element %zu differs between --seed %llu and --seed %llu",
					   k->params[p].name, i / (size_t)arrays[p].elem_bytes, (unsigned long long)seed0,
					   (unsigned long long)o->io.seed);
				rc = -1;
				break;
			}
		}
	}
	/* the results are the first seed's */
	for (p = 0; p < k->nparams; p++) {
		if (first[p])
			memcpy(arrays[p].data, first[p], tensor_bytes(&arrays[p]));
		free(init[p]);
		free(first[p]);
	}
	free(init);
	free(first);
	o->io.seed = seed0;
	return rc;
}

int
main(int argc, char **argv)
{
	Options o;
	IrModule *mod = NULL;
	IrKernel *k;
	InterpArg *args;
	NpyArray *arrays;
	const char **paths;
	int p, rc = EXIT_USER;

	memset(&o, 0, sizeof o);
	parse_args(&o, argc, argv);
	if (!(k = compile(&o, &mod))) {
		ir_module_free(mod);
		return EXIT_USER;
	}
	args = xcalloc((size_t)k->nparams + 1, sizeof *args);
	arrays = xcalloc((size_t)k->nparams + 1, sizeof *arrays);
	paths = xcalloc((size_t)k->nparams + 1, sizeof *paths);
	if (load_args(&o, k, args, arrays, paths) == 0 && make_outputs(k, args, arrays) == 0 &&
	    run_seeds(&o, k, args, arrays) == 0) {
		rc = EXIT_OK;
		for (p = 0; p < k->nparams; p++) {
			Buf err = {0};

			if (k->params[p].kind != PARAM_TENSOR || k->params[p].access == ACC_IN)
				continue;
			if (npy_write(paths[p], &arrays[p], &err) != 0) {
				tool_error("%s", err.s);
				rc = EXIT_USER;
			}
			buf_free(&err);
		}
	}
	for (p = 0; p < k->nparams; p++)
		free(arrays[p].data);
	free(arrays);
	free(args);
	free(paths);
	ir_module_free(mod);
	for (p = 0; p < o.nargs; p++)
		free((char *)o.args[p].name);
	free(o.args);
	for (p = 0; p < o.ndefines; p++)
		free((char *)o.defines[p].name);
	free(o.defines);
	free(o.import_dirs);
	return rc;
}
