#!/bin/bash
# usage: bis.sh COMMIT...: per commit, cakec's PTX of gdp warp BV64 and tma c1s6 (hash-stripped md5)
cd /tmp/wt550
S=/work/main/build-fast/gen/gdp/src
for c in "$@"; do
  git checkout -q $c && cmake --build build -j2 --target cakec > /tmp/bis_$c.log 2>&1 || { echo "$c build failed"; continue; }
  w=$(./build/cakec -O3 -D T=1 -D NH=1 -D KD=128 -D VD=128 -D BV=64 -D L2NORM=false -I /work/main/kernels_src/gdp --target sm_90a $S/gdp_t1_h1_k128v128_bv64_warp_bf16.cake 2>&1 | sed -E 's/_[0-9a-f]{12}//g' | md5sum | cut -c1-8)
  t=$(./build/cakec -D KD=128 -D VD=128 -D BV=64 -D L2NORM=false -D STAGES=6 -D CPS=1 -I /tmp/tmasrc --target sm_90a /tmp/tmasrc/tma.cake 2>&1 | sed -E 's/_[0-9a-f]{12}//g' | md5sum | cut -c1-8)
  echo "$c warp $w tma $t"
done
