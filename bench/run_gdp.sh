#!/usr/bin/env bash
# The gdp family on a GPU machine (docs/gdp.md): test_gdp (every variant against the
# float64 reference and bitwise against its staged twin; a skip is a failure here), then
# bench/gdp.py (bandwidth against copies, staging elision on vs off, fla's fused recurrent
# gated delta rule). Uses what the build folder holds; nothing is compiled (except by
# cakec_torch with cc if a prebuilt library is missing).
#
# Usage: bench/run_gdp.sh [extra bench/gdp.py arguments]
# Environment: BUILD (default build), OUT (logs and gdp.md are copied there), PYTHON
# (default python3), SKIP_BENCH=1. Exit status 0 when every step passed.
set -u
cd "$(dirname "$0")/.."
build=${BUILD:-build}
py=${PYTHON:-python3}
logs="$build/gdp-logs"
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

echo "run_gdp.sh: $(date -u '+%Y-%m-%d %H:%M UTC') on $(hostname), build folder $build" | tee "$logs/summary.txt"
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a "$logs/summary.txt"

if [ -x "$build/tests/gpu/test_gdp" ]; then
	CAKE_GPU_TEST_REQUIRE=1 "$build/tests/gpu/test_gdp" >"$logs/test_gdp.log" 2>&1
	rc=$?
	echo "test_gdp: exit $rc, $(grep -c '^PASS' "$logs/test_gdp.log") PASS, $(grep -c '^FAIL' "$logs/test_gdp.log") FAIL lines; $(tail -1 "$logs/test_gdp.log")" | tee -a "$logs/summary.txt"
	grep -m 10 '^FAIL' "$logs/test_gdp.log" | tee -a "$logs/summary.txt"
	[ $rc -eq 0 ] || failed=1
else
	echo "FAIL: $build/tests/gpu/test_gdp is missing (build first)" | tee -a "$logs/summary.txt"
	failed=1
fi

if [ -n "${SKIP_BENCH:-}" ]; then
	echo "bench: skipped (SKIP_BENCH)" | tee -a "$logs/summary.txt"
elif ! "$py" -c 'import torch' >/dev/null 2>&1; then
	echo "bench: skipped: $py cannot import torch" | tee -a "$logs/summary.txt"
else
	"$py" bench/gdp.py --build "$build" --out "$logs/gdp.md" "$@" >"$logs/gdp.log" 2>&1
	rc=$?
	if [ $rc -eq 0 ] && [ -f "$logs/gdp.md" ]; then
		cat "$logs/gdp.md" | tee -a "$logs/summary.txt"
	else
		echo "FAIL bench/gdp.py: exit $rc; see gdp.log" | tee -a "$logs/summary.txt"
		tail -5 "$logs/gdp.log" | tee -a "$logs/summary.txt"
		failed=1
	fi
fi
exit $failed
