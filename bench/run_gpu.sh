#!/usr/bin/env bash
# The one command to run on a GPU machine (docs/testing.md): every GPU test, the tests
# again under compute-sanitizer (memcheck, racecheck, synccheck) with small sizes, the
# Python helper's test against torch, and the bandwidth benchmark. It uses what the build
# folder already holds (the test binaries, build/gen/ and its prebuilt Python library);
# nothing is downloaded or compiled, except by cakec_torch with cc if that library is missing.
#
# Usage: bench/run_gpu.sh            (from anywhere; BUILD=build by default)
# Environment: BUILD (the build folder), OUT (logs and the benchmark report are copied
# there), PYTHON (default python3), SANITIZER (compute-sanitizer's path), SKIP_BENCH=1,
# SKIP_SANITIZER=1. Exit status: 0 when every step passed (a missing tool is reported as
# skipped, not failed), 1 otherwise.
set -u
cd "$(dirname "$0")/.."
root=$(pwd)
build=${BUILD:-build}
py=${PYTHON:-python3}
logs="$build/gpu-logs"
rm -rf "$logs"
mkdir -p "$logs"
summary="$logs/summary.txt"
: >"$summary"
failed=0

note() {
	echo "$*" | tee -a "$summary"
}

copy_out() {
	if [ -n "${OUT:-}" ]; then
		mkdir -p "$OUT"
		cp -r "$logs"/. "$OUT"/
	fi
}
trap copy_out EXIT

note "run_gpu.sh: $(date -u '+%Y-%m-%d %H:%M UTC') on $(uname -n), build folder $build"
# CAKEC_COMMIT first: the GPU machine's copy of the tree may carry a stale .git
note "commit: ${CAKEC_COMMIT:-$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)}"
if command -v nvidia-smi >/dev/null; then
	nvidia-smi >"$logs/nvidia-smi.txt" 2>&1
	note "gpu: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | head -1)"
fi

tests=()
# the gemm tests run on sm_90 only (their kernels are sm_90a-only); on sm_100 / sm_103 they
# print a NOTE and pass
for t in test_axpby test_silu_mul test_rmsnorm test_softmax test_sgemm_tiled test_threads test_graph \
	test_gemm_bf16 test_gemm_f16 test_gemm_bf16_f32 test_gemm_f16_f32; do
	if [ -x "$build/tests/gpu/$t" ]; then
		tests+=("$t")
	else
		note "FAIL $t: $build/tests/gpu/$t is missing (build first; see docs/testing.md)"
		failed=1
	fi
done
# any other test_<kernel> a later kernel brought
for f in "$build"/tests/gpu/test_*; do
	t=$(basename "$f")
	case " ${tests[*]-} " in *" $t "*) ;; *) [ -x "$f" ] && tests+=("$t") ;; esac
done

# ---- 1. the tests at full size; a skip is a failure here ----
note ""
note "== GPU tests (CAKE_GPU_TEST_REQUIRE=1) =="
for t in ${tests[@]+"${tests[@]}"}; do
	start=$(date +%s)
	CAKE_GPU_TEST_REQUIRE=1 "$build/tests/gpu/$t" >"$logs/$t.log" 2>&1
	rc=$?
	secs=$(($(date +%s) - start))
	npass=$(grep -c '^PASS' "$logs/$t.log")
	nfail=$(grep -c '^FAIL' "$logs/$t.log")
	nnote=$(grep -c '^NOTE' "$logs/$t.log")
	if [ $rc -eq 0 ]; then
		note "ok   $t: $npass cases passed, $nnote notes (${secs}s)"
	else
		note "FAIL $t: exit $rc, $nfail failed, $npass passed (${secs}s); see $t.log"
		grep -m 5 -E '^(FAIL|SKIPPED)' "$logs/$t.log" | sed 's/^/       /' | tee -a "$summary"
		failed=1
	fi
	grep '^NOTE' "$logs/$t.log" | sed 's/^/       /' | tee -a "$summary"
done

# ---- 2. the tests under compute-sanitizer, small sizes ----
note ""
note "== compute-sanitizer (CAKE_GPU_TEST_SMALL=1) =="
san=${SANITIZER:-}
if [ -z "$san" ]; then
	for c in compute-sanitizer /usr/local/cuda/bin/compute-sanitizer /usr/local/cuda/compute-sanitizer/compute-sanitizer /usr/local/cuda-*/bin/compute-sanitizer; do
		if command -v "$c" >/dev/null 2>&1; then
			san=$(command -v "$c")
			break
		fi
	done
fi
if [ -n "${SKIP_SANITIZER:-}" ]; then
	note "skipped: SKIP_SANITIZER is set"
elif [ -z "$san" ]; then
	note "skipped: compute-sanitizer not found (set SANITIZER=/path/to/compute-sanitizer)"
else
	note "using $san ($("$san" --version 2>/dev/null | grep -i version | head -1))"
	for tool in memcheck racecheck synccheck; do
		extra=()
		[ "$tool" = memcheck ] && extra=(--leak-check full)
		for t in ${tests[@]+"${tests[@]}"}; do
			log="$logs/sanitizer-$tool-$t.log"
			CAKE_GPU_TEST_SMALL=1 CAKE_GPU_TEST_REQUIRE=1 \
				"$san" --tool "$tool" ${extra[@]+"${extra[@]}"} --print-limit 50 "$build/tests/gpu/$t" >"$log" 2>&1
			rc=$?
			errors=$(grep -o 'ERROR SUMMARY: [0-9]* error' "$log" | tail -1 | grep -o '[0-9]*')
			hazards=$(grep -o 'RACECHECK SUMMARY: .*' "$log" | tail -1)
			if [ -z "$errors" ] && [ -n "$hazards" ]; then
				errors=$(echo "$hazards" | grep -o '([0-9]* error' | grep -o '[0-9]*')
			fi
			if [ $rc -eq 0 ] && [ "${errors:-x}" = 0 ]; then
				note "ok   $tool $t: 0 errors${hazards:+ ($hazards)}"
			else
				note "FAIL $tool $t: exit $rc, ${errors:-?} errors${hazards:+ ($hazards)}; see $(basename "$log")"
				failed=1
			fi
		done
	done
fi

# ---- 3. the Python helper against torch ----
note ""
note "== python/cakec_torch.py =="
gens=()
for d in "$build"/gen/*/; do
	[ -f "$d/manifest.json" ] && gens+=(--gen "${d%/}")
done
if ! "$py" -c 'import torch' >/dev/null 2>&1; then
	note "skipped: $py cannot import torch"
else
	"$py" python/test_cakec_torch.py --prebuilt ${gens[@]+"${gens[@]}"} >"$logs/cakec_torch.log" 2>&1
	rc=$?
	if [ $rc -eq 0 ]; then
		note "ok   test_cakec_torch: $(grep -c '^PASS' "$logs/cakec_torch.log") checks passed$(grep -q '^note' "$logs/cakec_torch.log" && echo ' (torch launches NOT run: see log)')"
	else
		note "FAIL test_cakec_torch: exit $rc; see cakec_torch.log"
		grep -m 5 -E '^FAIL|Error' "$logs/cakec_torch.log" | sed 's/^/       /' | tee -a "$summary"
		failed=1
	fi
fi

# ---- 4. the bandwidth benchmark ----
note ""
note "== bench/bandwidth.py =="
if [ -n "${SKIP_BENCH:-}" ]; then
	note "skipped: SKIP_BENCH is set"
elif ! "$py" -c 'import torch' >/dev/null 2>&1; then
	note "skipped: $py cannot import torch"
else
	"$py" bench/bandwidth.py --build "$build" --out "$logs/bandwidth.md" >"$logs/bandwidth.log" 2>&1
	rc=$?
	if [ $rc -eq 0 ] && [ -f "$logs/bandwidth.md" ]; then
		note "ok   bandwidth: report in bandwidth.md"
		cat "$logs/bandwidth.md" >>"$summary"
		cat "$logs/bandwidth.md"
	else
		note "FAIL bandwidth: exit $rc; see bandwidth.log"
		tail -5 "$logs/bandwidth.log" | sed 's/^/       /' | tee -a "$summary"
		failed=1
	fi
fi

note ""
if [ $failed -eq 0 ]; then
	note "run_gpu.sh: all steps passed; logs in $logs${OUT:+ and $OUT}"
else
	note "run_gpu.sh: FAILURES above; logs in $logs${OUT:+ and $OUT}"
fi
exit $failed
