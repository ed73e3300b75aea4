#!/bin/bash
# session 48: interleaved one-target compile medians of several cakec binaries on one kernel
# (the A/B figures of RESULTS section 48; run on the development machine, build and the base
# build side by side).
# Usage: compile_ab.sh RUNS KERNEL FILE TARGET CAKEC...   e.g.
#   bench/sessions/48/compile_ab.sh 11 gdp_decode_multi_8_1 kernels_src/gdp/gdp_decode_multi.cake sm_90a /tmp/headbuild/cakec build/cakec
set -eu
N=$1; K=$2; F=$3; T=$4; shift 4
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
i=0; for c in "$@"; do : > "$tmp/t$i"; i=$((i + 1)); done
for r in $(seq "$N"); do
  i=0
  for c in "$@"; do
    s=$(date +%s%N); "$c" --target "$T" --emit=ptx -o "$tmp/out" --kernel "$K" "$F"; e=$(date +%s%N)
    echo $(( (e - s) / 100000 )) >> "$tmp/t$i"; i=$((i + 1))
  done
done
i=0
for c in "$@"; do
  sort -n "$tmp/t$i" | awk -v n="$c" '{a[NR] = $1} END {printf "%s %.1f ms\n", n, a[int((NR + 1) / 2)] / 10}'
  i=$((i + 1))
done
