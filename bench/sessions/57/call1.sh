#!/bin/bash
# session 57, call 1 (any Hopper; about 4 minutes): the new candidates' GPU tests, then
# bench/gemm.py (bf16) over M >= 1024 for gemm_ts at tile widths 256/192/128 and gemm_mts,
# and over M = 128 .. 512 for those and the gemm_sk family with 128-row tiles (split 1..4).
# Bundle: s57a (`bench/make_bundle.sh s57a build-fast` on the commit that added them).
nvidia-smi --query-gpu=name,clocks.sm,driver_version --format=csv,noheader; date -u
D=/tmp/dev; mkdir -p $D && tar xJf .device/s57a.tar.xz -C $D
T=$D/s57a/build/tests/gpu
for t in test_gemm_mts_bf16 test_gemm_mts_f16 test_gemm_ts192_bf16 test_gemm_ts128_bf16 test_gemm_sk3_m128_bf16 test_gemm_sk4_m128_bf16; do
  CAKE_GPU_TEST_REQUIRE=1 timeout 60 $T/$t > /tmp/t.log 2>&1; echo "$t rc=$? $(tail -1 /tmp/t.log)"; done
export CAKEC_COMMIT=$(cat $D/s57a/COMMIT)
G="python3 bench/gemm.py --build $D/s57a/build --dtypes bf16:bf16"
timeout 200 $G --min-m 1024 --kernels gemm_ts_bf16,gemm_ts192_bf16,gemm_ts128_bf16,gemm_mts_bf16 --out $OUT/big.md > $OUT/big.log 2>&1; echo "big rc=$?"
timeout 200 $G --min-m 128 --max-m 512 --kernels gemm_ts_bf16,gemm_ts192_bf16,gemm_ts128_bf16,gemm_mts_bf16,gemm_sk1_m128_bf16,gemm_sk1_m128s6_bf16,gemm_sk2_m128_bf16,gemm_sk3_m128_bf16,gemm_sk4_m128_bf16 --out $OUT/mid.md > $OUT/mid.log 2>&1; echo "mid rc=$?"
grep -hE "^bf16->" $OUT/big.log $OUT/mid.log | sed -E "s/^bf16->bf16 +//; s/cakec +[0-9.]+ TFLOP\/s \([a-z0-9_]+\) +//; s/ TFLOP\/s//"
grep -hE "torch|cuBLAS" $OUT/big.log | head -3
date -u
