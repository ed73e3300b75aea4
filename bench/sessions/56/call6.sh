#!/bin/bash
# session 56, call 6 (any Hopper): gemm_sw with A's tile-rows fastest (bundle s56e) against
# call 5's order (s56d), the entry point at M = 33 .. 64, each bundle in turn; the sw tests.
nvidia-smi --query-gpu=name,clocks.sm,driver_version --format=csv,noheader; date -u
D=/tmp/dev; mkdir -p $D && tar xJf .device/s56e.tar.xz -C $D && tar xJf .device/s56d.tar.xz -C $D
for t in $D/s56e/build/tests/gpu/test_gemm_sw*; do CAKE_GPU_TEST_REQUIRE=1 timeout 60 $t > /tmp/t.log 2>&1; echo "$(basename $t) rc=$? $(tail -1 /tmp/t.log)"; done
for b in s56e s56d; do
  timeout 100 python3 bench/gemm.py --build $D/$b/build --entry-only --min-m 33 --max-m 64 --dtypes bf16:bf16 --out $OUT/entry_$b.md > $OUT/entry_$b.log 2>&1; echo "entry $b rc=$?"
  grep -E '^\| (bf16|f16) ' $OUT/entry_$b.md | cut -d'|' -f2-13
done
date -u
