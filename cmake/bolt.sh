#!/usr/bin/env bash
# Lays out cakec's machine code by a profile of cakec at work (LLVM BOLT), in place: run by
# the build after each link of cakec when CAKEC_BOLT is on (CMakeLists.txt).
#
# Why: nine tenths of a compile is LLVM's optimizer and NVPTX code generation, 29 MB of
# machine code whose hot paths are spread over the whole binary. Laid out by where the
# time goes (hot blocks together, cold ones split off), the same code compiles a large
# kernel 11-16% faster (bench/RESULTS.md section 50). The profile is taken here, from an
# instrumented copy compiling a fixed set of kernels_src files and bench/naive for every
# target they list, single-threaded: the same binary and sources give the same profile.
#
# Usage: bolt.sh LLVM_BOLT CAKEC SOURCE_DIR
# CAKEC is linked with --emit-relocs (BOLT needs the relocations to move functions). On any
# failure the unchanged binary stays and the build goes on with a warning: a slower cakec,
# never a broken one.
set -uo pipefail
bolt=$1
exe=$2
src=$3
work="$exe.bolt.d"

fail() {
	echo "warning: BOLT: $1; $exe is left as linked (correct, not laid out by a profile)" >&2
	rm -rf "$work"
	exit 0
}

rm -rf "$work"
mkdir -p "$work/out" || fail "cannot make $work"
"$bolt" "$exe" -instrument -instrumentation-file="$work/prof.fdata" -o "$work/cakec.inst" \
	>"$work/instrument.log" 2>&1 || fail "instrumenting failed (see $work/instrument.log)"
# The training set: a kernel of each kind of code cakec makes (wgmma and TMA pipelines,
# tcgen05, unrolled SIMT recurrences, plain loops), for every target each file lists.
train=()
for f in kernels_src/ssd/ssd.cake kernels_src/vsa/vsa.cake kernels_src/gemm/gemm.cake \
	kernels_src/gemm/gemm_sm100.cake kernels_src/gdp/gdp_decode_multi.cake \
	kernels_src/cp_fixup/cp_fixup.cake kernels_src/reduction/softmax_rows.cake \
	bench/naive/*.cake; do
	[ -f "$src/$f" ] && train+=("$src/$f")
done
(cd "$src" && "$work/cakec.inst" -j1 --emit=ptx -o "$work/out" "${train[@]}") \
	>"$work/train.log" 2>&1 || fail "the instrumented cakec failed (see $work/train.log)"
[ -s "$work/prof.fdata" ] || fail "no profile written"
"$bolt" "$exe" -data="$work/prof.fdata" -o "$work/cakec" -reorder-blocks=ext-tsp \
	-reorder-functions=cdsort -split-functions -split-all-cold \
	>"$work/optimize.log" 2>&1 || fail "laying out failed (see $work/optimize.log)"
# the laid-out binary must still work before it replaces the linked one
"$work/cakec" --version >/dev/null 2>&1 || fail "the laid-out cakec does not run"
mv -f "$work/cakec" "$exe" || fail "cannot replace $exe"
rm -rf "$work"
