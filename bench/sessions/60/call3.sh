#!/bin/bash
# session 60 call 3 (any Hopper): issue 13's few-tile shapes at M = 128 .. 512, where the
# entry point is 0.65-0.84 of cuBLAS (call 2): the gemm_sk candidates that gemm.cake keeps
# outside the entry point, timed beside the entry point's own picks and cuBLAS (bundle s60).
nvidia-smi --query-gpu=name,clocks.sm,driver_version --format=csv,noheader; date -u
D=/tmp/dev; mkdir -p $D && [ -d $D/s60 ] || tar xJf .device/s60.tar.xz -C $D; N=$D/s60
export CAKEC_COMMIT=$(cat $N/COMMIT)
K=gemm_sk1_m128s6_bf16,gemm_sk1_n256_bf16,gemm_sk2_m128n256_bf16,gemm_sk3_m128_bf16,gemm_sk4_m128_bf16,gemm_sk2_m128_bf16,gemm_sk1_m128_bf16,gemm_sk2_bf16,gemm_sk3_bf16,gemm_ts128_bf16,gemm_ts_bf16,gemm_stk_bf16
timeout 450 python3 bench/gemm.py --build $N/build --dtypes bf16:bf16 --min-m 128 --max-m 512 --kernels $K --out $OUT/few.md > $OUT/few.log 2>&1; echo "few rc=$?"
tail -5 $OUT/few.log
date -u
