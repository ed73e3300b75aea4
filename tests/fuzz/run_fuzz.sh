#!/bin/sh
# run_fuzz.sh [SECONDS] [BUILD]: runs every fuzz target of a CAKEC_FUZZ build for SECONDS
# each (default 20: the short run .ci/run does; the campaign is an hour each) on a corpus
# under BUILD/fuzz-corpus/<target>, seeded from the repository's kernels and tests, with
# the dictionaries made from the lexer's and the IR's tables. Each target's last status
# line (executions, coverage) goes to stdout; a crash, a sanitizer report, an exit or a
# run over 10 s (60 s for the instrumented whole pipeline) leaves its input in BUILD/fuzz-artifacts/ and makes the script exit 1.
# Set FUZZ_JOBS=N to run N targets at once, FUZZ_SEED=N for libFuzzer's seed (CI fixes it,
# so that a run can be repeated).
set -u
secs=${1:-20}
build=${2:-build-fuzz}
root=$(cd "$(dirname "$0")/../.." && pwd)
corpus=$build/fuzz-corpus
art=$build/fuzz-artifacts
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
	seed "$t"
	# leaks on error paths of a one-shot compiler are not findings: the process ends
	ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1 \
	"$build/$t" -timeout=10 $extra -rss_limit_mb=4096 -max_total_time="$secs" \
		${FUZZ_SEED:+-seed=$FUZZ_SEED} -print_final_stats=1 -artifact_prefix="$art/$t-" "$corpus/$t" > "$build/$t.log" 2>&1
	rc=$?
	echo "$t: exit $rc; $(grep -E '^#[0-9]+' "$build/$t.log" | tail -1)"
	grep -E 'stat::(number_of_executed_units|average_exec_per_sec)' "$build/$t.log" | tr '\n' ' '
	echo
	return $rc
}

status=0
targets=""
for t in fuzz_cake fuzz_ir fuzz_ir_parse fuzz_grid fuzz_launcher; do
	[ -x "$build/$t" ] && targets="$targets $t"
done
[ -n "$targets" ] || { echo "run_fuzz.sh: no fuzz targets in $build (build with -DCAKEC_FUZZ=ON)"; exit 1; }
jobs=${FUZZ_JOBS:-1}
if [ "$jobs" -gt 1 ]; then
	for t in $targets; do run_one "$t" > "$build/$t.summary" 2>&1 & done
	wait
	for t in $targets; do cat "$build/$t.summary"; grep -q ': exit 0;' "$build/$t.summary" || status=1; done
else
	for t in $targets; do run_one "$t" || status=1; done
fi
[ $status -eq 0 ] || echo "run_fuzz.sh: findings: see $art and $build/<target>.log"
exit $status
