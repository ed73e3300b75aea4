#!/bin/bash
# session 55, the bundle of call1.sh (made at a364e94, before the fix): issue 12's
# acceptance 3 question (section 54: gdp's
# warp BV64 and tma BV64 c1s6 8-12% slower at 32768 heads than in 550a03e's build).
# Section 52's O build (550a03e, its sources, /tmp/bis/O) beside HEAD's sources compiled
# by HEAD's cakec (build-fast), as shipped and as variants:
#   warp: H (-O3, shipped), O2 (-O2), F (H's PTX with the 16 state loads sorted by address)
#   tma:  H (shipped), N (beta carried in f32, as before 491d520, narrow-carry off),
#         P (beta loaded in the iteration that uses it, no prefetch)
#   fused: H (the control: it did not slow down)
# Output: .device/ab.tar.xz holding ab/<label>/<kernel dir> and ab/labels.
set -e
ROOT=/work/main; C=$ROOT/build-fast/cakec; S=$ROOT/build-fast/gen/gdp/src; A=/tmp/ab55
W=gdp_t1_h1_k128v128_bv64_warp_bf16; T=gdp_t1_h1_k128v128_bv64_tma_c1s6_bf16; F=gdp_t1_h1_k128v128_bv64_fused_bf16
DW="-D KD=128 -D VD=128 -D BV=64 -D L2NORM=false -D T=1 -D NH=1"
DT="-D KD=128 -D VD=128 -D BV=64 -D L2NORM=false -D STAGES=6 -D CPS=1"
NOCARRY=--passes=schedule-check,expand-async,contract,canonicalize,cse,canonicalize,cse,staging-elision,dce,smem-layout
rm -rf $A; mkdir -p $A/src
comp() { out=$1; src=$2; shift 2; mkdir -p $A/$out; $C --target sm_90a --emit=ptx,host "$@" -I $ROOT/kernels_src/gdp -o $A/$out $src; }
mkdir -p $A/O; for k in $W $T $F; do cp -r /tmp/bis/O/build/gen/gdp/$k $A/O/$k; rm -f $A/O/$k/*.ir $A/O/$k/*sm_10*; done
mkdir -p $A/H; for k in $W $T $F; do cp -r $ROOT/build-fast/gen/gdp/$k $A/H/$k; rm -rf $A/H/$k/.cakec_torch; done
comp O2/$W $S/$W.cake -O2 $DW
# tma N: bn as f32 again
sed -e 's/var bn: bf16 = 0.0;/var bn: f32 = 0.0;/' -e 's/bn = beta\[\(.*\)\];/bn = f32(beta[\1]);/' -e 's/let be0 = f32(bn);/let be0 = bn;/' \
    $ROOT/kernels_src/gdp/gdp_decode_tma.cake > $A/src/tma_n.cake
grep -q "var bn: f32" $A/src/tma_n.cake && grep -q "let be0 = bn;" $A/src/tma_n.cake
comp N/$T $A/src/tma_n.cake $DT $NOCARRY
# tma P: no prefetch of beta; loaded where used
python3 - $ROOT/kernels_src/gdp/gdp_decode_tma.cake $A/src/tma_p.cake <<'PY'
import sys
s = open(sys.argv[1]).read()
s = s.replace("        var bn: bf16 = 0.0;\n", "")
s = s.replace("            bn = beta[block.x / NSLICE / HV, 0, 0, block.x / NSLICE % HV];\n", "")
s = s.replace("let be0 = f32(bn);", "let be0 = f32(beta[b, 0, 0, h]);")
s = s.replace("                bn = beta[nx / NSLICE / HV, 0, 0, nx / NSLICE % HV];\n", "")
assert "bn" not in s.split("role consumer")[1], "bn left"
open(sys.argv[2], "w").write(s)
PY
comp P/$T $A/src/tma_p.cake $DT
# warp F: H's PTX with the state loads in address order, its cubin by ptxas, into H's launcher
mkdir -p $A/F; cp -r $A/H/$W $A/F/$W
python3 $ROOT/bench/sessions/55/sort_loads.py $A/F/$W/$W.sm_90a.ptx
python3 $ROOT/bench/sessions/46/embed.py $A/F/$W/$W.c $A/F/$W/$W.sm_90a.ptx; rm -f $A/F/$W/*.cubin
for d in $A/*/; do n=$(basename $d); [ $n = src ] || echo "$n: $(ls $d | tr '\n' ' ')"; done
rm -rf $A/src; tar cJf $ROOT/.device/ab.tar.xz -C /tmp ab55; ls -la $ROOT/.device/ab.tar.xz
