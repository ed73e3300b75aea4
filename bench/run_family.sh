#!/usr/bin/env bash
# A kernel family on a GPU machine: its test program build/tests/gpu/test_FAMILY (every
# kernel against the float64 reference; a skip is a failure here), then its benchmark
# bench/FAMILY.py. Uses what the build folder holds; nothing is compiled (except by
# cakec_torch with cc if a prebuilt library is missing). bench/run_gdp.sh and
# bench/run_cp_fixup.sh are this script for their family (docs/gdp.md, docs/cp_fixup.md).
#
# Usage: bench/run_family.sh FAMILY [extra bench/FAMILY.py arguments]
# Environment: BUILD (default build), OUT (logs and FAMILY.md are copied there), PYTHON
# (default python3), SKIP_BENCH=1. Exit status 0 when every step passed.
set -u
cd "$(dirname "$0")/.."
if [ $# -lt 1 ]; then
	echo "usage: bench/run_family.sh FAMILY [bench/FAMILY.py arguments]" >&2
	exit 2
fi
fam=$1
shift
build=${BUILD:-build}
# a bundle (bench/make_bundle.sh) names the commit it was built from beside its build folder
if [ -z "${CAKEC_COMMIT:-}" ] && [ -f "$build/../COMMIT" ]; then
	CAKEC_COMMIT=$(cat "$build/../COMMIT")
	export CAKEC_COMMIT
fi
py=${PYTHON:-python3}
logs="$build/$fam-logs"
test="test_$fam"
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

echo "run_family.sh $fam: $(date -u '+%Y-%m-%d %H:%M UTC') on $(hostname), build folder $build" | tee "$logs/summary.txt"
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a "$logs/summary.txt"

if [ -x "$build/tests/gpu/$test" ]; then
	CAKE_GPU_TEST_REQUIRE=1 "$build/tests/gpu/$test" >"$logs/$test.log" 2>&1
	rc=$?
	echo "$test: exit $rc, $(grep -c '^PASS' "$logs/$test.log") PASS, $(grep -c '^FAIL' "$logs/$test.log") FAIL lines; $(tail -1 "$logs/$test.log")" | tee -a "$logs/summary.txt"
	grep -m 10 '^FAIL' "$logs/$test.log" | tee -a "$logs/summary.txt"
	[ $rc -eq 0 ] || failed=1
else
	echo "FAIL: $build/tests/gpu/$test is missing (build first)" | tee -a "$logs/summary.txt"
	failed=1
fi

if [ -n "${SKIP_BENCH:-}" ]; then
	echo "bench: skipped (SKIP_BENCH)" | tee -a "$logs/summary.txt"
elif ! "$py" -c 'import torch' >/dev/null 2>&1; then
	echo "bench: skipped: $py cannot import torch" | tee -a "$logs/summary.txt"
else
	"$py" "bench/$fam.py" --build "$build" --out "$logs/$fam.md" "$@" >"$logs/$fam.log" 2>&1
	rc=$?
	if [ $rc -eq 0 ] && [ -f "$logs/$fam.md" ]; then
		cat "$logs/$fam.md" | tee -a "$logs/summary.txt"
	else
		echo "FAIL bench/$fam.py: exit $rc; see $fam.log" | tee -a "$logs/summary.txt"
		tail -5 "$logs/$fam.log" | tee -a "$logs/summary.txt"
		failed=1
	fi
fi
exit $failed
