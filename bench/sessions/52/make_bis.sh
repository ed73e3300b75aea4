#!/bin/bash
# session 52: the bundle of call_bis.sh (run for Z, A, B with cakec built at 550a03e, b2d9bf2~1
# and b2d9bf2 in a worktree at /tmp/wt550; O is copied from 550a03e's build/gen/gdp), then
# `tar cJf .device/bis.tar.xz -C /tmp bis`
# mkbis.sh NAME CAKEC: /tmp/bis/NAME/build/gen/gdp with the warp BV64, tma c1s6 and fused BV64 variants (HEAD's sources) compiled by CAKEC
set -e
N=$1; C=$2; S=/work/main/build-fast/gen/gdp/src; G=/tmp/bis/$N/build/gen/gdp
rm -rf /tmp/bis/$N; mkdir -p $G
comp() { v=$1; shift; $C --target sm_90a --emit=ptx,host "$@" -I /work/main/kernels_src/gdp -o $G/$v $S/$v.cake; }
comp gdp_t1_h1_k128v128_bv64_warp_bf16 -O3 -D KD=128 -D VD=128 -D BV=64 -D L2NORM=false -D T=1 -D NH=1
comp gdp_t1_h1_k128v128_bv64_tma_c1s6_bf16 -D KD=128 -D VD=128 -D BV=64 -D L2NORM=false -D STAGES=6 -D CPS=1
comp gdp_t1_h1_k128v128_bv64_fused_bf16 -D KD=128 -D VD=128 -D BV=64 -D L2NORM=false -D T=1 -D NH=1
python3 - "$G" <<'PY'
import json,sys
src=json.load(open('/work/main/build-fast/gen/gdp/variants.json'))
keep=[v for v in src if v['name'] in ('gdp_t1_h1_k128v128_bv64_warp_bf16','gdp_t1_h1_k128v128_bv64_tma_c1s6_bf16','gdp_t1_h1_k128v128_bv64_fused_bf16')]
json.dump(keep,open(sys.argv[1]+'/variants.json','w'),indent=1)
PY
echo "$N: $(ls $G | tr '\n' ' ')"
