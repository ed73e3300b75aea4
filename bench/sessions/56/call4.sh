#!/bin/bash
# session 56, call 4 (any Hopper; bundle s56c = the gemm_sw commit's build): the eight
# test_gemm_sw programs, compute-sanitizer's memcheck, racecheck and synccheck on two of them
# (small sizes), then the entry point over issue 13's M <= 64 shapes (bf16 and f16) beside
# cuBLAS, and the old entry (bundle cur55) on the same shapes in the same call.
nvidia-smi --query-gpu=name,clocks.sm,driver_version --format=csv,noheader; date -u
D=/tmp/dev; mkdir -p $D && tar xJf .device/s56c.tar.xz -C $D && tar xJf .device/cur55.tar.xz -C $D
T=$D/s56c/build/tests/gpu
for t in $T/test_gemm_sw*; do CAKE_GPU_TEST_REQUIRE=1 timeout 60 $t > $OUT/$(basename $t).log 2>&1; echo "$(basename $t) rc=$? $(tail -1 $OUT/$(basename $t).log)"; done
for tool in memcheck racecheck synccheck; do
  for t in test_gemm_sw16s2_bf16 test_gemm_sw32_f16; do
    CAKE_GPU_TEST_SMALL=1 CAKE_GPU_TEST_REQUIRE=1 timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $T/$t > $OUT/san_${tool}_$t.log 2>&1
    echo "$tool $t rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san_${tool}_$t.log | tail -1)"
  done
done
date -u
for b in s56c cur55; do
  timeout 150 python3 bench/gemm.py --build $D/$b/build --entry-only --max-m 64 --dtypes bf16:bf16,f16:f16 --out $OUT/entry_$b.md > $OUT/entry_$b.log 2>&1; echo "entry $b rc=$?"
  grep -E "^- |median|below" $OUT/entry_$b.md | head -8
done
paste -d' ' <(grep -E '^\| (bf16|f16) ' $OUT/entry_s56c.md | cut -d'|' -f2-6,8-10,12,13) <(grep -E '^\| (bf16|f16) ' $OUT/entry_cur55.md | cut -d'|' -f8,10,12)
date -u
