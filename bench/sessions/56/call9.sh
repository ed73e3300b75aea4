#!/bin/bash
# session 56, call 9 (for the next session; any Hopper, the H200 first; about 5 minutes):
# the candidates this session built but could not time, beside cuBLAS (bench/gemm.py, bf16):
# gemm_ts (C stored by TMA, overlapping the next tile) against gemm and gemm_mc at M >= 1024,
# the three gemm_sk candidates for M = 128 .. 512 (sk1_m128s6, sk1_n256, sk2_m128n256,
# outside the entry point) against the instances the entry picks there; their test
# programs; then the entry point over M <= 64 (gemm_sw on the H200). Bundle: s56g
# (`bench/make_bundle.sh s56g build-fast` on the commit that added gemm_ts).
nvidia-smi --query-gpu=name,clocks.sm,driver_version --format=csv,noheader; date -u
D=/tmp/dev; mkdir -p $D && tar xJf .device/s56g.tar.xz -C $D
T=$D/s56g/build/tests/gpu
for t in test_gemm_ts_bf16 test_gemm_ts_f16 test_gemm_sk1_m128s6_bf16 test_gemm_sk1_n256_bf16 test_gemm_sk2_m128n256_bf16; do
  CAKE_GPU_TEST_REQUIRE=1 timeout 60 $T/$t > /tmp/t.log 2>&1; echo "$t rc=$? $(tail -1 /tmp/t.log)"; done
export CAKEC_COMMIT=$(cat $D/s56g/COMMIT)
G="python3 bench/gemm.py --build $D/s56g/build --dtypes bf16:bf16"
timeout 150 $G --min-m 1024 --kernels gemm_bf16,gemm_mc_bf16,gemm_ts_bf16 --out $OUT/big.md > $OUT/big.log 2>&1; echo "big rc=$?"
grep -E '^\| bf16 ' $OUT/big.md | cut -d'|' -f4-10
timeout 150 $G --min-m 128 --max-m 512 --kernels gemm_bf16,gemm_ts_bf16,gemm_sk1_m128_bf16,gemm_sk2_m128_bf16,gemm_sk1_m128s6_bf16,gemm_sk1_n256_bf16,gemm_sk2_m128n256_bf16 --out $OUT/mid.md > $OUT/mid.log 2>&1; echo "mid rc=$?"
grep -E '^\| bf16 ' $OUT/mid.md | cut -d'|' -f4-10
grep -hE "^bf16->" $OUT/big.log $OUT/mid.log | sed -E 's/^bf16->bf16 +//; s/cakec .*\[/[/'
timeout 100 $G --entry-only --max-m 64 --out $OUT/entry.md > $OUT/entry.log 2>&1; echo "entry rc=$?"
grep -E "^- (GPU|copy|bf16)" $OUT/entry.md
date -u
