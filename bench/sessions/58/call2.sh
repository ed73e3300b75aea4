#!/bin/bash
# session 58, call 2: gemm_bias_ts (7050a08) on the GPU: the bias tests, then
# bench/gemm_bias.py with every instance beside the entry point (both addends, the bias
# alone, the residual alone). On an H200, first call1.sh's issue 17 runs. Bundle: s58b =
# 7050a08 (`bench/make_bundle.sh s58b build-fast`); cpx as call1.sh.
nvidia-smi --query-gpu=name,clocks.sm,driver_version --format=csv,noheader; date -u
D=/tmp/dev; mkdir -p $D && tar xJf .device/s58b.tar.xz -C $D
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && [ -f .device/cpx.tar.xz ]; then
  tar xJf .device/cpx.tar.xz -C $D
  timeout 120 python3 bench/sessions/46/cpx.py $D/gen/cpx 8,32,16,128,128 2 2>&1 | tee $OUT/cpx.log | tail -14
  timeout 200 python3 bench/cp_fixup.py --build $D/s58b/build --out $OUT/cp_fixup.md > $OUT/cp_fixup.log 2>&1; echo "cp_fixup rc=$?"
  tail -45 $OUT/cp_fixup.log
fi
T=$D/s58b/build/tests/gpu
for t in test_gemm_bias_ts192_bf16 test_gemm_bias_ts128_bf16 test_gemm_bias_ts192_f16 test_gemm_bias_ts128_f16 test_gemm_bias_bf16 test_gemm_bias_f16; do
  CAKE_GPU_TEST_REQUIRE=1 timeout 60 $T/$t > $OUT/$t.log 2>&1; echo "$t rc=$? $(grep -c FAIL $OUT/$t.log) FAIL; $(grep "cases passed" $OUT/$t.log)"; done
export CAKEC_COMMIT=$(cat $D/s58b/COMMIT)
timeout 300 python3 bench/gemm_bias.py --build $D/s58b/build --instances --out $OUT/bias.md 2>&1 | tee $OUT/bias.log | grep -v "^     " 
date -u
