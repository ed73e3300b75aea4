#!/bin/bash
# session 58, call 5: gemm_bias_ts at 256-wide tiles (two 128-column accumulators) in the
# entry point: its tests, then bench/gemm_bias.py with every instance. On an H200 first
# call4.sh's issue 17 runs. Bundle: s58e (`bench/make_bundle.sh s58e build-fast`); cpx.
nvidia-smi --query-gpu=name,clocks.sm,driver_version --format=csv,noheader; date -u
D=/tmp/dev; mkdir -p $D && tar xJf .device/s58e.tar.xz -C $D
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && [ -f .device/cpx.tar.xz ]; then
  tar xJf .device/cpx.tar.xz -C $D
  timeout 120 python3 bench/sessions/46/cpx.py $D/gen/cpx 8,32,16,128,128 2 2>&1 | tee $OUT/cpx.log | tail -14
  CAKE_GPU_TEST_REQUIRE=1 timeout 90 $D/s58e/build/tests/gpu/test_cp_fixup > $OUT/t_cp.log 2>&1; echo "test_cp_fixup rc=$? $(grep -c FAIL $OUT/t_cp.log) FAIL; $(grep "cases passed" $OUT/t_cp.log)"
  timeout 240 python3 bench/cp_fixup.py --build $D/s58e/build --out $OUT/cp_fixup.md > $OUT/cp_fixup.log 2>&1; echo "cp_fixup rc=$?"
  tail -45 $OUT/cp_fixup.log
fi
T=$D/s58e/build/tests/gpu
for t in test_gemm_bias_ts_bf16 test_gemm_bias_ts_f16; do
  CAKE_GPU_TEST_REQUIRE=1 timeout 60 $T/$t > $OUT/$t.log 2>&1; echo "$t rc=$? $(grep -c FAIL $OUT/$t.log) FAIL; $(grep "passed" $OUT/$t.log | tail -1)"; done
export CAKEC_COMMIT=$(cat $D/s58e/COMMIT)
timeout 400 python3 bench/gemm_bias.py --build $D/s58e/build --instances --out $OUT/bias.md > $OUT/bias.log 2>&1; echo "bias rc=$?"
grep -E "median|failures" $OUT/bias.log
date -u
