#!/bin/bash
# session 57, call 4 (any Hopper; about 2 minutes): the fp8 entry point gemm_scaled with
# gemm_scaled_ts in it (s57g) beside torch._scaled_mm over M >= 512, then the previous
# entry point (s57f: gemm_scaled without it) the same way, in one machine session.
nvidia-smi --query-gpu=name,clocks.sm,driver_version --format=csv,noheader; date -u
D=/tmp/dev; mkdir -p $D && tar xJf .device/s57g.tar.xz -C $D && tar xJf .device/s57f.tar.xz -C $D
for b in s57g s57f; do
  export CAKEC_COMMIT=$(cat $D/$b/COMMIT)
  timeout 100 python3 bench/gemm_fp8.py --build $D/$b/build --min-m 512 --out $OUT/fp8_$b.md > $OUT/fp8_$b.log 2>&1; echo "$b rc=$?"
  grep -E "median|FAIL" $OUT/fp8_$b.log
done
date -u
