#!/bin/bash
# session 58, call 4 (H200 only): issue 17's bullet 2 with section 46's cp_fixup MMA
# variants (cpx bundle) and the entry point over bench/cp_fixup.py's shapes (bundle s58d).
nvidia-smi --query-gpu=name,clocks.sm,driver_version --format=csv,noheader; date -u
nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 || { echo "not an H200: nothing run"; exit 0; }
D=/tmp/dev; mkdir -p $D && tar xJf .device/cpx.tar.xz -C $D && tar xJf .device/s58d.tar.xz -C $D
timeout 120 python3 bench/sessions/46/cpx.py $D/gen/cpx 8,32,16,128,128 2 2>&1 | tee $OUT/cpx.log | tail -14
CAKE_GPU_TEST_REQUIRE=1 timeout 90 $D/s58d/build/tests/gpu/test_cp_fixup > $OUT/t_cp.log 2>&1; echo "test_cp_fixup rc=$? $(grep -c FAIL $OUT/t_cp.log) FAIL; $(grep "cases passed" $OUT/t_cp.log)"
export CAKEC_COMMIT=$(cat $D/s58d/COMMIT)
timeout 240 python3 bench/cp_fixup.py --build $D/s58d/build --out $OUT/cp_fixup.md > $OUT/cp_fixup.log 2>&1; echo "cp_fixup rc=$?"
tail -45 $OUT/cp_fixup.log
date -u
