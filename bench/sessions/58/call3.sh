#!/bin/bash
# session 58, call 3: fragment(...)'s 2-wide loads (a1b3ced) and the gemm_bias_tr
# candidates (residual by TMA) on the GPU: check_fragment (bit for bit, tiles inside,
# ragged, outside), the gemm_bias tests, then bench/gemm_bias.py with every instance.
# On an H200 first call1.sh's issue 17 runs. Bundle: s58d (`bench/make_bundle.sh s58d
# build-fast` at the commit after a1b3ced); cpx as call1.sh.
nvidia-smi --query-gpu=name,clocks.sm,driver_version --format=csv,noheader; date -u
D=/tmp/dev; mkdir -p $D && tar xJf .device/s58d.tar.xz -C $D
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && [ -f .device/cpx.tar.xz ]; then
  tar xJf .device/cpx.tar.xz -C $D
  timeout 120 python3 bench/sessions/46/cpx.py $D/gen/cpx 8,32,16,128,128 2 2>&1 | tee $OUT/cpx.log | tail -14
  timeout 200 python3 bench/cp_fixup.py --build $D/s58d/build --out $OUT/cp_fixup.md > $OUT/cp_fixup.log 2>&1; echo "cp_fixup rc=$?"
  tail -45 $OUT/cp_fixup.log
fi
T=$D/s58d/build/tests/gpu
for t in test_check_fragment test_gemm_bias_ts192_bf16 test_gemm_bias_ts128_bf16 test_gemm_bias_ts192_f16 test_gemm_bias_ts128_f16 test_gemm_bias_tr192_bf16 test_gemm_bias_tr128_bf16 test_gemm_bias_bf16 test_gemm_bias_f16; do
  CAKE_GPU_TEST_REQUIRE=1 timeout 60 $T/$t > $OUT/$t.log 2>&1; echo "$t rc=$? $(grep -c FAIL $OUT/$t.log) FAIL; $(grep "passed" $OUT/$t.log | tail -1)"; done
export CAKEC_COMMIT=$(cat $D/s58d/COMMIT)
timeout 400 python3 bench/gemm_bias.py --build $D/s58d/build --instances --out $OUT/bias.md > $OUT/bias.log 2>&1; echo "bias rc=$?"
grep -E "median|failures" $OUT/bias.log
date -u
