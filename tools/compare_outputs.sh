#!/usr/bin/env bash
# Compares everything two cakec builds emit, byte for byte: for a refactor that must not
# change generated code. For every kernels_src kernel and every target it lists it emits the
# optimized IR, PTX, launchers and manifest at -O0, -O2 and -O3, plus --report=smem,staging;
# for every tests/ .cake and .ir file it also compares stdout, stderr and the exit status of
# an IR+PTX compile (so a changed diagnostic shows up as a diff, to be listed as intended).
#
# Usage: tools/compare_outputs.sh REF [NEW_CAKEC]
#   REF        a git revision (built into a temporary folder) or the path of a cakec binary
#   NEW_CAKEC  the cakec to compare (default: build/cakec)
# Exit status 0 when everything is identical, 1 with a list of the differing files otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
ref=${1:?usage: tools/compare_outputs.sh REF [NEW_CAKEC]}
new=$(realpath "${2:-build/cakec}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ -x "$ref" ]; then
	old=$(realpath "$ref")
else
	echo "compare: building $ref"
	mkdir -p "$work/src"
	git archive "$ref" | tar -x -C "$work/src"
	cmake -S "$work/src" -B "$work/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	cmake --build "$work/build" --target cakec -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
	old=$work/build/cakec
fi

# emit CAKEC DIR: everything one cakec produces, into DIR
emit() {
	local cakec=$1 dir=$2 f name opt rc
	mkdir -p "$dir/kernels"
	for f in $(find kernels_src -name '*.cake' | sort); do
		name=$(basename "$f" .cake)
		# a file only imported by others (no kernel of its own) fails alone: its status
		# and diagnostics are compared like the rest
		for opt in -O0 -O2 -O3; do
			rc=0
			"$cakec" "$opt" --emit=ir,ptx,host -o "$dir/kernels/$name$opt" "$f" \
				2>"$dir/kernels/$name$opt.err" || rc=$?
			echo "$rc" >"$dir/kernels/$name$opt.rc"
		done
		"$cakec" --report=smem,staging "$f" >"$dir/kernels/$name.report" 2>&1 || true
	done
	# tests: outputs and diagnostics, success or not (paths relative, so both runs agree)
	for f in $(find tests -name '*.cake' -o -name '*.ir' | sort); do
		name=$(echo "$f" | tr / _)
		rc=0
		"$cakec" --emit=ir,ptx "$f" >"$dir/tests/$name.out" 2>"$dir/tests/$name.err.raw" || rc=$?
		echo "$rc" >"$dir/tests/$name.rc"
		# an internal error names the cakec source line it came from: not part of the output
		sed 's/internal compiler error at [^ ]*:[0-9]*:/internal compiler error at SRC:LINE:/' \
			"$dir/tests/$name.err.raw" >"$dir/tests/$name.err"
		rm "$dir/tests/$name.err.raw"
	done 2>/dev/null
}

mkdir -p "$work/old/tests" "$work/new/tests"
emit "$old" "$work/old"
emit "$new" "$work/new"

if diff -rq "$work/old" "$work/new" >"$work/diff"; then
	echo "compare: identical ($(find "$work/new" -type f | wc -l) files, $old vs $new)"
else
	sed "s|$work/||g" "$work/diff"
	echo "compare: $(wc -l <"$work/diff") files differ"
	[ -z "${COMPARE_KEEP:-}" ] || { cp -r "$work" "$COMPARE_KEEP"; echo "compare: kept in $COMPARE_KEEP"; }
	exit 1
fi
