#!/bin/bash
# session 58, call 7 (short): on an H200 issue 17's bullet-2 shape only (cpx variants, the
# entry point at B8 H32 C16 K = V = 128); else the gemm_bias entry point of eaa1171 (256-wide
# tiles where they take one wave) with each addend set. Bundles: s58f = eaa1171, cpx.
nvidia-smi --query-gpu=name,clocks.sm,driver_version --format=csv,noheader; date -u
D=/tmp/dev; mkdir -p $D && tar xJf .device/s58f.tar.xz -C $D
export CAKEC_COMMIT=$(cat $D/s58f/COMMIT)
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && [ -f .device/cpx.tar.xz ]; then
  tar xJf .device/cpx.tar.xz -C $D
  timeout 100 python3 bench/sessions/46/cpx.py $D/gen/cpx 8,32,16,128,128 2 2>&1 | tee $OUT/cpx.log | tail -14
  timeout 120 python3 bench/cp_fixup.py --build $D/s58f/build --shapes "8,32,16,128,128" --out $OUT/cp_fixup.md > $OUT/cp_fixup.log 2>&1; echo "cp_fixup rc=$?"
  tail -20 $OUT/cp_fixup.log
else
  T=$D/s58f/build/tests/gpu
  for t in test_gemm_bias_ts_bf16 test_gemm_bias_ts_f16; do
    CAKE_GPU_TEST_REQUIRE=1 timeout 60 $T/$t > $OUT/$t.log 2>&1; echo "$t rc=$? $(grep -c FAIL $OUT/$t.log) FAIL; $(grep "passed" $OUT/$t.log | tail -1)"; done
  timeout 200 python3 bench/gemm_bias.py --build $D/s58f/build --addends both,bias,res --out $OUT/bias.md > $OUT/bias.log 2>&1; echo "bias rc=$?"
  grep -E "median|failures" $OUT/bias.log
fi
date -u
