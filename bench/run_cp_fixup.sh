#!/usr/bin/env bash
# The cp_fixup family on a GPU machine (docs/cp_fixup.md): test_cp_fixup (every instance and
# the entry point against the float64 reference; a skip is a failure here), then
# bench/cp_fixup.py (the instances and the entry point against a torch.baddbmm loop and
# the memory floor). Uses what the build folder holds; nothing is compiled (except by
# cakec_torch with cc if a prebuilt library is missing).
#
# Usage: bench/run_cp_fixup.sh [extra bench/cp_fixup.py arguments]
# Environment: BUILD (default build), OUT (logs and cp_fixup.md are copied there), PYTHON
# (default python3), SKIP_BENCH=1. Exit status 0 when every step passed.
set -u
cd "$(dirname "$0")/.."
build=${BUILD:-build}
py=${PYTHON:-python3}
logs="$build/cp_fixup-logs"
rm -rf "$logs"
mkdir -p "$logs"
failed=0
copy_out() {
	if [ -n "${OUT:-}" ]; then
		mkdir -p "$OUT"
		cp -r "$logs"/. "$OUT"/
	fi
}
trap copy_out EXIT

echo "run_cp_fixup.sh: $(date -u '+%Y-%m-%d %H:%M UTC') on $(hostname), build folder $build" | tee "$logs/summary.txt"
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a "$logs/summary.txt"

if [ -x "$build/tests/gpu/test_cp_fixup" ]; then
	CAKE_GPU_TEST_REQUIRE=1 "$build/tests/gpu/test_cp_fixup" >"$logs/test_cp_fixup.log" 2>&1
	rc=$?
	echo "test_cp_fixup: exit $rc, $(grep -c '^PASS' "$logs/test_cp_fixup.log") PASS, $(grep -c '^FAIL' "$logs/test_cp_fixup.log") FAIL lines; $(tail -1 "$logs/test_cp_fixup.log")" | tee -a "$logs/summary.txt"
	grep -m 10 '^FAIL' "$logs/test_cp_fixup.log" | tee -a "$logs/summary.txt"
	[ $rc -eq 0 ] || failed=1
else
	echo "FAIL: $build/tests/gpu/test_cp_fixup is missing (build first)" | tee -a "$logs/summary.txt"
	failed=1
fi

if [ -n "${SKIP_BENCH:-}" ]; then
	echo "bench: skipped (SKIP_BENCH)" | tee -a "$logs/summary.txt"
elif ! "$py" -c 'import torch' >/dev/null 2>&1; then
	echo "bench: skipped: $py cannot import torch" | tee -a "$logs/summary.txt"
else
	"$py" bench/cp_fixup.py --build "$build" --out "$logs/cp_fixup.md" "$@" >"$logs/cp_fixup.log" 2>&1
	rc=$?
	if [ $rc -eq 0 ] && [ -f "$logs/cp_fixup.md" ]; then
		cat "$logs/cp_fixup.md" | tee -a "$logs/summary.txt"
	else
		echo "FAIL bench/cp_fixup.py: exit $rc; see cp_fixup.log" | tee -a "$logs/summary.txt"
		tail -5 "$logs/cp_fixup.log" | tee -a "$logs/summary.txt"
		failed=1
	fi
fi
exit $failed
