#!/bin/bash
# session 55: the bundle of call5.sh (.device/ab57.tar.xz), made after make_ab56.sh
# (/tmp/ab56: O = 550a03e's build, H = warp at -O2, P = tma's fix):
# C = H's warp with its state rows read through chain_loads.py's chain of addresses;
# S = warp_strided.cake (lane rows kl + 8 i: a warp instruction reads 8 consecutive rows;
# the same results up to the order of the sums over K: 7e-8 relative on cakec-run).
set -e
ROOT=/work/main; W=gdp_t1_h1_k128v128_bv64_warp_bf16; A=/tmp/ab57
rm -rf $A; mkdir -p $A/C; cp -r /tmp/ab56/O /tmp/ab56/H /tmp/ab56/P $A/; cp -r /tmp/ab56/H/$W $A/C/
python3 $ROOT/bench/sessions/55/chain_loads.py $A/H/$W/$W.sm_90a.ptx $A/C/$W/$W.sm_90a.ptx
python3 $ROOT/bench/sessions/46/embed.py $A/C/$W/$W.c $A/C/$W/$W.sm_90a.ptx
$ROOT/build-fast/cakec --target sm_90a --emit=ptx,host -D T=1 -D NH=1 -D KD=128 -D VD=128 -D BV=64 \
  -D L2NORM=false -I $ROOT/kernels_src/gdp -o $A/S/warp_strided $ROOT/bench/sessions/55/warp_strided.cake
rm -f $A/C/$W/*.cubin; find $A -name .cakec_torch -prune -exec rm -rf {} \;
tar cJf $ROOT/.device/ab57.tar.xz -C /tmp ab57
