#!/bin/bash
# session 55, call 1: issue 12's acceptance 3 question in one process (gdp_ab.py), twice,
# the second time in reverse order. Bundle: make_ab.sh (.device/ab.tar.xz).
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
tar xJf .device/ab.tar.xz -C /tmp
W=gdp_t1_h1_k128v128_bv64_warp_bf16; T=gdp_t1_h1_k128v128_bv64_tma_c1s6_bf16; F=gdp_t1_h1_k128v128_bv64_fused_bf16
A=/tmp/ab55
set -- warp.O=$A/O/$W warp.H=$A/H/$W warp.O2=$A/O2/$W warp.F=$A/F/$W tma.O=$A/O/$T tma.H=$A/H/$T tma.N=$A/N/$T tma.P=$A/P/$T fused.O=$A/O/$F fused.H=$A/H/$F
timeout 200 python3 bench/sessions/55/gdp_ab.py --heads ${HEADS:-32768} "$@" 2>&1
rev=(); for x in "$@"; do rev=("$x" "${rev[@]}"); done
timeout 150 python3 bench/sessions/55/gdp_ab.py --heads 32768 --rounds 7 "${rev[@]}" 2>&1
# then the fix (bundle: bench/sessions/54/make_cur.sh build-fast fix; warp at -O2, tma's
# beta loaded in its own item) against 550a03e's build (base, section 52's) in
# bench/gdp.py --quick, in the order GQ (default: base fix), and fix's test_gdp
D=/tmp/dev; mkdir -p $D; tar xJf .device/fix.tar.xz -C $D; [ -d $D/base ] || tar xJf .device/base.tar.xz -C $D
CAKE_GPU_TEST_REQUIRE=1 timeout 60 $D/fix/build/tests/gpu/test_gdp > /tmp/tg.log 2>&1; echo "test_gdp fix rc=$? $(grep -c '^PASS' /tmp/tg.log) PASS $(grep -c '^FAIL' /tmp/tg.log) FAIL | $(tail -1 /tmp/tg.log)"
i=0; for b in ${GQ:-base fix}; do i=$((i + 1))
  CAKEC_COMMIT=$(cat $D/$b/COMMIT) timeout 150 python3 bench/gdp.py --quick --build $D/$b/build --out /tmp/gq_$b$i.md > /tmp/gq_$b$i.log 2>&1
  echo "== gdp.py --quick $b ($i) rc=$?"; grep -A8 "^## Designs" /tmp/gq_$b$i.md | grep '^| T' | cut -d'|' -f2,5,6,8,15 | cut -c1-400
done
mkdir -p $OUT; tar cJf $OUT/gq.tar.xz /tmp/gq_* /tmp/tg.log 2>/dev/null
