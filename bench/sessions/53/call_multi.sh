#!/bin/bash
# session 53: gdp at T > 1. Bundles (tar of NAME/{build/gen/gdp, build/tests/gpu/test_gdp,
# COMMIT}): cur = this session's sources (gdp_decode_multi as shipped, plus bench variants:
# multi T = 8 with TFUSE = 4, tma at T = 4 and 8), per = gdp_decode_multi made persistent
# (bench/sessions/53/multi_persistent.patch: the next item's state and inputs fetched while
# this one's tokens run; MINB 4 and 3: build it with the patch applied and the variants
# gdp_t8_h1_k128v128_bv64_multi_c3_l2_bf16 and gdp_t4_..._multi_c3_l2_bf16, ...,MINB=3,
# added to tests/gpu/gdp.cmake), py. test_gdp of per (with TESTS=1), then bench/gdp.py's
# T > 1 shapes (PAIRS, default T = 8 only; HV 32, batches 128 and 512, L2 norm) with each.
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
D=/tmp/dev; mkdir -p $D $OUT
for b in py cur per; do tar xJf .device/$b.tar.xz -C $D; done
export PYTHONPATH=$D/pyp
[ -n "${TESTS:-}" ] && { CAKE_GPU_TEST_REQUIRE=1 timeout 200 $D/per/build/tests/gpu/test_gdp > /tmp/tg.log 2>&1
echo "test_gdp (per) rc=$? $(grep -c '^PASS' /tmp/tg.log) PASS $(grep -c '^FAIL' /tmp/tg.log) FAIL"; grep -m5 '^FAIL' /tmp/tg.log; tail -1 /tmp/tg.log; }
for b in per cur; do
  CAKEC_COMMIT=$(cat $D/$b/COMMIT) timeout 150 python3 bench/gdp.py --build $D/$b/build --only-multi --heads 32 --l2norm on --multi "${PAIRS:-8,1}" --out /tmp/m_$b.md > /tmp/m_$b.log 2>&1
  echo "== $b rc=$?"; grep -E '^T=' /tmp/m_$b.log | sed 's/  */ /g' | cut -c1-400; grep -i 'note\|error' /tmp/m_$b.log | head -5
done
tar cJf $OUT/multi_logs.tar.xz /tmp/tg.log /tmp/m_*.md /tmp/m_*.log 2>/dev/null
