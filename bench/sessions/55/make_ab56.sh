#!/bin/bash
# session 55: the bundle of call3.sh (.device/ab56.tar.xz), after make_ab.sh (/tmp/ab55) and
# a build of the fix (2d7f42d) in build-fast: O = 550a03e's build; O3 = /tmp/ab55's H (HEAD
# before the fix, a364e94); H = warp and P = tma of the fix; OB = 550a03e's warp PTX with
# its 16 state loads from one base and immediate offsets, as 4dd01a4 emits them.
set -e
ROOT=/work/main; A=/tmp/ab56
W=gdp_t1_h1_k128v128_bv64_warp_bf16; T=gdp_t1_h1_k128v128_bv64_tma_c1s6_bf16
rm -rf $A; mkdir -p $A/H $A/O3 $A/OB $A/P
cp -r /tmp/ab55/O $A/O
cp -r $ROOT/build-fast/gen/gdp/$W $A/H/; cp -r $ROOT/build-fast/gen/gdp/$T $A/P/
cp -r /tmp/ab55/H/$W /tmp/ab55/H/$T $A/O3/
cp -r /tmp/ab55/O/$W $A/OB/
python3 - $A/OB/$W/$W.sm_90a.ptx <<'PY'
import re, sys
# 550a03e's PTX gives row r the address %rd(r + 1) (and row 15 %rd15 + 512): row r from %rd1 + 512 r instead
s = open(sys.argv[1]).read()
def rep(m):
    row = int(m.group(2)) - 1 + int(m.group(3) or 0) // 512
    return m.group(1) + ("[%%rd1+%d];" % (512 * row) if row else "[%rd1];")
s, n = re.subn(r"(ld\.global\.v4\.b32\s+\{[^}]*\}, )\[%rd(\d+)(?:\+(\d+))?\];", rep, s)
assert n == 16, n
open(sys.argv[1], "w").write(s)
PY
python3 $ROOT/bench/sessions/46/embed.py $A/OB/$W/$W.c $A/OB/$W/$W.sm_90a.ptx
rm -f $A/OB/$W/*.cubin; find $A -name .cakec_torch -prune -exec rm -rf {} \;
tar cJf $ROOT/.device/ab56.tar.xz -C /tmp ab56
