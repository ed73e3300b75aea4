#!/bin/bash
# session 2026-12-06 call C: base = 3dcf9ac (cur), new = contraction + exp with fma.rm
D=/tmp/dev; mkdir -p $D && tar xJf .device/cur.tar.xz -C $D && mv $D/cur $D/base && tar xJf .device/new.tar.xz -C $D
nvidia-smi --query-gpu=name,clocks.sm,driver_version --format=csv,noheader; date -u; cat $D/base/COMMIT $D/new/COMMIT
for t in check_math check_interp_agree; do CAKE_GPU_TEST_REQUIRE=1 timeout 60 $D/new/build/tests/gpu/test_$t > $OUT/$t.log 2>&1; echo "$t rc=$?"; grep -i 'exp\|FAIL\|interp_agree' $OUT/$t.log | head -4; done
export OUT
bash bench/compare_builds.sh naive > $OUT/cmp_naive.log 2>&1; grep -i "geomet\|above\|rc=" $OUT/cmp_naive.log | head -5
date -u
timeout 100 python3 bench/ssd_builds.py $D/base/build/gen/ssd $D/new/build/gen/ssd $D/base/build/gen/ssd $D/new/build/gen/ssd > $OUT/ssd_builds.log 2>&1; echo "ssd_builds rc=$?"; tail -5 $OUT/ssd_builds.log
for t in ssd vsa gdp cp_fixup rmsnorm rmsnorm_rows softmax softmax_rows check_lang check_fragment check_rows; do [ -x $D/new/build/tests/gpu/test_$t ] || continue; CAKE_GPU_TEST_REQUIRE=1 timeout 90 $D/new/build/tests/gpu/test_$t > /tmp/t_$t.log 2>&1; echo "test_$t rc=$? $(tail -1 /tmp/t_$t.log)"; done
date -u
bash bench/compare_builds.sh bw > $OUT/cmp_bw.log 2>&1; grep "rc=" $OUT/cmp_bw.log; grep '^|' $OUT/cmp_bw.log | cut -c1-160 | head -40
date -u
bash bench/compare_builds.sh gdp > $OUT/cmp_gdp.log 2>&1; grep "rc=" $OUT/cmp_gdp.log; tail -30 $OUT/cmp_gdp.log | cut -c1-160
date -u
