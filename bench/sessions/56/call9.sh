#!/bin/bash
# session 56, call 9 (for the next session; any Hopper, the H200 first): the three gemm_sk
# candidates for M = 128 .. 512 (sk1_m128s6, sk1_n256, sk2_m128n256, outside the entry
# point) beside every other instance and cuBLAS (bench/gemm.py, bf16), their test programs,
# then call 7's entry point over M <= 64 (gemm_sw on the H200). Bundle: s56f
# (`bench/make_bundle.sh s56f build-fast` on the commit that added the candidates).
nvidia-smi --query-gpu=name,clocks.sm,driver_version --format=csv,noheader; date -u
D=/tmp/dev; mkdir -p $D && tar xJf .device/s56f.tar.xz -C $D
T=$D/s56f/build/tests/gpu
for t in test_gemm_sk1_m128s6_bf16 test_gemm_sk1_n256_bf16 test_gemm_sk2_m128n256_bf16; do CAKE_GPU_TEST_REQUIRE=1 timeout 60 $T/$t > /tmp/t.log 2>&1; echo "$t rc=$? $(tail -1 /tmp/t.log)"; done
export CAKEC_COMMIT=$(cat $D/s56f/COMMIT)
timeout 200 python3 bench/gemm.py --build $D/s56f/build --min-m 128 --max-m 512 --dtypes bf16:bf16 --out $OUT/mid.md > $OUT/mid.log 2>&1; echo "mid rc=$?"
grep -E '^\| bf16 ' $OUT/mid.md | cut -d'|' -f4-10
grep -E "^bf16->" $OUT/mid.log | grep -oE "^bf16->bf16 +[0-9x ]+|sk1_m128_bf16=[0-9]+|sk1_m128s6_bf16=[0-9]+|sk1_n256_bf16=[0-9]+|sk2_m128n256_bf16=[0-9]+|sk2_m128_bf16=[0-9]+|gemm_bf16=[0-9]+" | paste -sd' ' | sed 's/bf16->bf16/\n/g'
timeout 100 python3 bench/gemm.py --build $D/s56f/build --entry-only --max-m 64 --dtypes bf16:bf16 --out $OUT/entry.md > $OUT/entry.log 2>&1; echo "entry rc=$?"
grep -E "^- (GPU|copy|bf16)" $OUT/entry.md
date -u
