#!/bin/bash
# session 57, call 5 (for the next session; the H200 first, any Hopper else; about 6
# minutes): issue 13's acceptance runs on this session's last commit: the entry point gemm
# over bench/gemm.py's whole shape set, bf16 and f16; the fp8 entry point gemm_scaled
# beside torch._scaled_mm over M >= 512; each split-K and TMA-store test program once.
# Bundle: s57h (`bench/make_bundle.sh s57h build-fast` on that commit).
nvidia-smi --query-gpu=name,clocks.sm,driver_version --format=csv,noheader; date -u
D=/tmp/dev; mkdir -p $D && tar xJf .device/s57h.tar.xz -C $D
T=$D/s57h/build/tests/gpu
for t in test_gemm_ts_bf16 test_gemm_ts192_bf16 test_gemm_ts128_bf16 test_gemm_mc_f16 test_gemm_scaled_ts_e4m3 test_gemm_scaled_ts_e4m3_n128 test_gemm_stk_bf16; do
  CAKE_GPU_TEST_REQUIRE=1 timeout 60 $T/$t > /tmp/t.log 2>&1; echo "$t rc=$? $(grep -c FAIL /tmp/t.log) FAIL; $(grep "cases passed" /tmp/t.log | tr "\n" " ")"; done
export CAKEC_COMMIT=$(cat $D/s57h/COMMIT)
timeout 150 python3 bench/gemm.py --build $D/s57h/build --entry-only --dtypes bf16:bf16 --out $OUT/entry.md > $OUT/entry.log 2>&1; echo "entry rc=$?"
grep -E "^- (GPU|copy|bf16)" $OUT/entry.md
timeout 100 python3 bench/gemm_fp8.py --build $D/s57h/build --min-m 512 --out $OUT/fp8.md > $OUT/fp8.log 2>&1; echo "fp8 rc=$?"
grep -E "median|FAIL" $OUT/fp8.log
timeout 150 python3 bench/gemm.py --build $D/s57h/build --entry-only --dtypes f16:f16 --out $OUT/entry16.md > $OUT/entry16.log 2>&1; echo "entry16 rc=$?"
grep -E "^- (fp16|f16)" $OUT/entry16.md
date -u
