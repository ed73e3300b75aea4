#!/bin/sh
# run_fuzz.sh [SECONDS] [BUILD]: runs every fuzz target of a CAKEC_FUZZ build for SECONDS
# each (default 20: the short run .ci/run does; the campaign is an hour each) on a corpus
# under BUILD/fuzz-corpus/<target>, seeded from the repository's kernels and tests, with
# the dictionaries made from the lexer's and the IR's tables. A crash, a sanitizer report,
# an exit or a run over 10 s (60 s for the instrumented whole pipeline) leaves its input in
# BUILD/fuzz-artifacts/ and makes the script exit 1. Per target it prints the executions,
# exec/s, coverage (cov, ft), the workers, the seconds and the artifacts found.
# Environment:
#   FUZZ_TARGETS="fuzz_cake fuzz_ir"  the targets to run (default: all that are built)
#   FUZZ_WORKERS=N  N worker processes per target sharing one corpus (libFuzzer's -fork=N;
#                   the campaign on a many-core machine); default 1, in-process
#   FUZZ_JOBS=N     N targets at once (N > 1: all of them in parallel)
#   FUZZ_SEED=N     libFuzzer's seed (CI fixes it, so that a run can be repeated)
# The binaries need no compiler at run time: a machine with python3 and the repository
# runs a build made elsewhere.
set -u
secs=${1:-20}
build=${2:-build-fuzz}
root=$(cd "$(dirname "$0")/../.." && pwd)
corpus=$build/fuzz-corpus
art=$build/fuzz-artifacts
workers=${FUZZ_WORKERS:-1}
mkdir -p "$corpus" "$art"
python3 "$root/tests/fuzz/make_dict.py" cake "$root" "$build/cake.dict"
python3 "$root/tests/fuzz/make_dict.py" ir "$root" "$build/ir.dict"

# seeds: target -> files
seed() {
	mkdir -p "$corpus/$1"
	case $1 in
	fuzz_cake) find "$root/kernels_src" "$root/tests/frontend" "$root/tests/errors" "$root/tests/gpu/checks" -name '*.cake' ;;
	fuzz_ir|fuzz_ir_parse) find "$root/tests" -name '*.ir' ;;
	fuzz_grid) printf 'cdiv(M, 128)\nmin(num_sms, cdiv(M, 64) * cdiv(N, 256))\nmax(N / 3, 1)\n' |
		while read -r f; do
			printf '\001\0\0\0\0\0\0\0\002\0\0\0\0\0\0\0\003\0\0\0\0\0\0\0\004\0\0\0\0\0\0\0\005\0\0\0\0\0\0\0\006\0\0\0\0\0\0\0\007\0\0\0\0\0\0\0\204\0\0\0\0\0\0\0%s' "$f" > "$corpus/$1/seed-$(echo "$f" | cksum | cut -d' ' -f1)"
		done ;;
	esac | while read -r f; do cp "$f" "$corpus/$1/$(basename "$f")"; done
}

# The summary of one target's log. In-process runs end with libFuzzer's final stats; in
# fork runs (-fork=N) the parent's status lines `#N: cov: C ft: F ... time: Ts` count all
# workers' executions (its own final stats count only the parent's), so exec/s is N / T.
summary() {
	t=$1 rc=$2 log=$3 since=$4
	if [ "$workers" -gt 1 ]; then
		last=$(grep -E '^#[0-9]+: cov' "$log" | tail -1)
		execs=$(echo "$last" | sed -n 's/^#\([0-9]*\):.*/\1/p')
		t_s=$(echo "$last" | sed -n 's/.* time: \([0-9]*\)s.*/\1/p')
		eps=$([ -n "$execs" ] && [ "${t_s:-0}" -gt 0 ] && echo $((execs / t_s)))
	else
		last=$(grep -E '^#[0-9]+' "$log" | tail -1)
		execs=$(grep -E 'stat::number_of_executed_units' "$log" | tail -1 | awk '{print $2}')
		eps=$(grep -E 'stat::average_exec_per_sec' "$log" | tail -1 | awk '{print $2}')
	fi
	cov=$(echo "$last" | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
	ft=$(echo "$last" | sed -n 's/.*ft: \([0-9]*\).*/\1/p')
	# findings: crash-, timeout-, oom-, leak-; slow-unit- files are libFuzzer's note of its
	# slowest input (under the timeout), not findings
	found=$(find "$art" -maxdepth 1 -name "$t-*" -newer "$since" ! -name "$t-slow-unit-*" | sort)
	slow=$(find "$art" -maxdepth 1 -name "$t-slow-unit-*" -newer "$since" | wc -l)
	echo "$t: exit $rc; executions ${execs:-?}, exec/s ${eps:-?}, cov ${cov:-?}, ft ${ft:-?}; workers $workers, $secs s"
	if [ -n "$found" ]; then
		echo "$found" | sed 's/^/  artifact: /'
	else
		echo "  artifacts: none"
	fi
	[ "$slow" -eq 0 ] || echo "  (slow-unit notes, not findings: $slow)"
	[ "$rc" -eq 0 ] && [ -z "$found" ]
}

run_one() {
	t=$1
	# the instrumented compile is 10-20x slower than cakec's: a kernel that compiles for
	# three targets in 1 s takes over 10 s here, so the whole-pipeline targets get 60 s
	# (re-time a timeout artifact with build/cakec, whose limit is 10 s)
	case $t in
	fuzz_cake) extra="-dict=$build/cake.dict -max_len=8192 -timeout=60" ;;
	fuzz_ir) extra="-dict=$build/ir.dict -max_len=8192 -timeout=60" ;;
	fuzz_ir_parse) extra="-dict=$build/ir.dict -max_len=8192" ;;
	fuzz_grid) extra="-max_len=512" ;;
	*) extra="-max_len=1024" ;;
	esac
	# fork mode: the workers share the corpus and stop at the first crash, timeout or
	# out-of-memory (libFuzzer's default), which the parent's exit status reports
	[ "$workers" -gt 1 ] && extra="$extra -fork=$workers"
	seed "$t"
	since=$build/$t.start
	: > "$since"
	# leaks on error paths of a one-shot compiler are not findings: the process ends
	ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1 \
	"$build/$t" -timeout=10 $extra -rss_limit_mb=4096 -max_total_time="$secs" \
		${FUZZ_SEED:+-seed=$FUZZ_SEED} -print_final_stats=1 -artifact_prefix="$art/$t-" "$corpus/$t" > "$build/$t.log" 2>&1
	summary "$t" $? "$build/$t.log" "$since"
}

status=0
targets=""
for t in ${FUZZ_TARGETS:-fuzz_cake fuzz_ir fuzz_ir_parse fuzz_grid fuzz_launcher}; do
	if [ -x "$build/$t" ]; then
		targets="$targets $t"
	elif [ -n "${FUZZ_TARGETS:-}" ]; then
		echo "run_fuzz.sh: no fuzz target $t in $build"
		exit 1
	fi
done
[ -n "$targets" ] || { echo "run_fuzz.sh: no fuzz targets in $build (build with -DCAKEC_FUZZ=ON)"; exit 1; }
jobs=${FUZZ_JOBS:-1}
if [ "$jobs" -gt 1 ]; then
	for t in $targets; do run_one "$t" > "$build/$t.summary" 2>&1 & done
	wait
	for t in $targets; do cat "$build/$t.summary"; grep -q "^$t: exit 0;" "$build/$t.summary" &&
		grep -q 'artifacts: none' "$build/$t.summary" || status=1; done
else
	for t in $targets; do run_one "$t" || status=1; done
fi
[ $status -eq 0 ] || echo "run_fuzz.sh: findings: see $art and $build/<target>.log"
exit $status
