#!/bin/bash
# session 56, call 7 (H200): the entry point with gemm_sw (bundle s56e) over issue 13's
# M <= 64 shapes, bf16 and f16, then the previous entry (bundle cur55) on bf16, in one call.
nvidia-smi --query-gpu=name,clocks.sm,driver_version --format=csv,noheader; date -u
D=/tmp/dev; mkdir -p $D && tar xJf .device/s56e.tar.xz -C $D && tar xJf .device/cur55.tar.xz -C $D
for b in s56e cur55; do
  dt=bf16:bf16,f16:f16; [ $b = cur55 ] && dt=bf16:bf16
  CAKEC_COMMIT=$(cat $D/$b/COMMIT) timeout 150 python3 bench/gemm.py --build $D/$b/build --entry-only --max-m 64 --dtypes $dt --out $OUT/entry_$b.md > $OUT/entry_$b.log 2>&1; echo "entry $b rc=$?"
  grep -E "^- (GPU|copy|bf16|f16)" $OUT/entry_$b.md
done
paste -d' ' <(grep -E '^\| bf16 ' $OUT/entry_s56e.md | cut -d'|' -f4-6,8-10,12,13) <(grep -E '^\| bf16 ' $OUT/entry_cur55.md | cut -d'|' -f8,10,12)
date -u
