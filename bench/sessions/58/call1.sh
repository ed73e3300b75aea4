#!/bin/bash
# session 58, call 1 (H200 wanted): issue 17's bullet 2 on the H200 with cp_fixup's MMA
# variants of section 46 (cpx bundle: base, merged groups, M converted in place, L by TMA)
# and HEAD's entry point over bench/cp_fixup.py's shapes; test_cp_fixup; then issue 13's
# acceptance runs (bench/sessions/57/call5.sh's, on bundle s58a = 29795a1).
nvidia-smi --query-gpu=name,clocks.sm,driver_version --format=csv,noheader; date -u
D=/tmp/dev; mkdir -p $D && tar xJf .device/cpx.tar.xz -C $D && tar xJf .device/s58a.tar.xz -C $D
timeout 120 python3 bench/sessions/46/cpx.py $D/gen/cpx 8,32,16,128,128 2 2>&1 | tee $OUT/cpx.log | tail -14
CAKE_GPU_TEST_REQUIRE=1 timeout 90 $D/s58a/build/tests/gpu/test_cp_fixup > $OUT/t_cp.log 2>&1; echo "test_cp_fixup rc=$? $(grep -c FAIL $OUT/t_cp.log) FAIL; $(grep "cases passed" $OUT/t_cp.log)"
export CAKEC_COMMIT=$(cat $D/s58a/COMMIT)
timeout 200 python3 bench/cp_fixup.py --build $D/s58a/build --out $OUT/cp_fixup.md > $OUT/cp_fixup.log 2>&1; echo "cp_fixup rc=$?"
tail -45 $OUT/cp_fixup.log
date -u
