#!/bin/bash
# session 56, call 5 (any Hopper; bundle s56d = the gemm_sw M <= 64 commit's build): the ten
# test_gemm_sw programs, compute-sanitizer on test_gemm_sw64_bf16, and the entry point over
# issue 13's M <= 64 shapes (bf16 and f16) beside cuBLAS.
nvidia-smi --query-gpu=name,clocks.sm,driver_version --format=csv,noheader; date -u
D=/tmp/dev; mkdir -p $D && tar xJf .device/s56d.tar.xz -C $D
T=$D/s56d/build/tests/gpu
for t in $T/test_gemm_sw*; do CAKE_GPU_TEST_REQUIRE=1 timeout 60 $t > /tmp/t.log 2>&1; echo "$(basename $t) rc=$? $(tail -1 /tmp/t.log)"; done
for tool in memcheck racecheck synccheck; do
  CAKE_GPU_TEST_SMALL=1 CAKE_GPU_TEST_REQUIRE=1 timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $T/test_gemm_sw64_bf16 > /tmp/s.log 2>&1
  echo "$tool test_gemm_sw64_bf16 rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/s.log | tail -1)"
done
export CAKEC_COMMIT=$(cat $D/s56d/COMMIT)
timeout 200 python3 bench/gemm.py --build $D/s56d/build --entry-only --max-m 64 --dtypes bf16:bf16,f16:f16 --out $OUT/entry.md > $OUT/entry.log 2>&1; echo "entry rc=$?"
grep -E "^- " $OUT/entry.md | head -12
grep -E '^\| (bf16|f16) ' $OUT/entry.md | cut -d'|' -f2-13
date -u
