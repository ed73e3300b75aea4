#!/bin/bash
# session 57, call 3 (any Hopper; about 9 minutes, the most telling first): the entry point
# with gemm_ts in it (s57f) over bench/gemm.py's whole shape set, bf16 (f16 later), and the previous entry point
# (s56g, e9c1fc9) over M > 64 (bf16) in the same machine session; the tests of the new f16
# instances and gemm_stk's (its second pass now only on the small sizes); gemm_stk (now
# whole tiles for all but the last waves) beside gemm_ts at M = 512 .. 2048; the fp8 GEMM
# with the TMA-store epilogue (gemm_scaled_ts, BN 256 and 128) beside the entry gemm_scaled.
nvidia-smi --query-gpu=name,clocks.sm,driver_version --format=csv,noheader; date -u
D=/tmp/dev; mkdir -p $D && tar xJf .device/s57f.tar.xz -C $D && tar xJf .device/s56g.tar.xz -C $D
T=$D/s57f/build/tests/gpu
for t in test_gemm_mc_f16 test_gemm_stk_bf16 test_gemm_stk_f16 test_gemm_ts192_f16 test_gemm_ts128_f16 test_gemm_scaled_ts_e4m3 test_gemm_scaled_ts_e4m3_n128; do
  CAKE_GPU_TEST_REQUIRE=1 timeout 60 $T/$t > /tmp/t.log 2>&1; echo "$t rc=$? $(grep -c FAIL /tmp/t.log) FAIL; $(grep "cases passed" /tmp/t.log | tr "\n" " ")"; done
export CAKEC_COMMIT=$(cat $D/s57f/COMMIT)
timeout 150 python3 bench/gemm.py --build $D/s57f/build --entry-only --dtypes bf16:bf16 --out $OUT/entry.md > $OUT/entry.log 2>&1; echo "entry rc=$?"
grep -E "^- (GPU|copy|bf16|fp16|f16)" $OUT/entry.md
timeout 110 python3 bench/gemm_fp8.py --build $D/s57f/build --min-m 512 --kernel gemm_scaled,gemm_scaled_ts_e4m3,gemm_scaled_ts_e4m3_n128 --out $OUT/fp8.md > $OUT/fp8.log 2>&1; echo "fp8 rc=$?"
grep -E "TFLOP|median" $OUT/fp8.log | sed -E "s/ +err .*\[/ [/"
export CAKEC_COMMIT=$(cat $D/s56g/COMMIT)
timeout 60 python3 bench/gemm.py --build $D/s56g/build --entry-only --dtypes bf16:bf16 --min-m 128 --max-m 512 --out $OUT/prev.md > $OUT/prev.log 2>&1; echo "prev rc=$?"
grep -E "^- (bf16)" $OUT/prev.md
python3 - $OUT/entry.log $OUT/prev.log <<'PY'
import re, sys
def rd(f):
    r = {}
    for l in open(f):
        m = re.match(r"^bf16->bf16 +(\d+)x *(\d+)x *(\d+) +cakec +([\d.]+) TFLOP/s \((\S+)\) +cuBLAS +([\d.]+)", l)
        if m: r[(int(m[1]), int(m[2]), int(m[3]))] = (float(m[4]), m[5], float(m[6]))
    return r
new, old = rd(sys.argv[1]), rd(sys.argv[2])
for k in sorted(old):
    if k in new:
        print("%5dx%5dx%5d new %6.1f (%s) prev %6.1f (%s) new/prev %.3f cuBLAS %6.1f %6.1f" % (k + (new[k][0], new[k][1], old[k][0], old[k][1], new[k][0] / old[k][0], new[k][2], old[k][2])))
PY
grep -E "below|lowest|median" $OUT/entry.log | head
export CAKEC_COMMIT=$(cat $D/s57f/COMMIT)
timeout 70 python3 bench/gemm.py --build $D/s57f/build --dtypes bf16:bf16 --min-m 512 --max-m 2048 --kernels gemm_stk_bf16,gemm_ts_bf16 --out $OUT/stk.md > $OUT/stk.log 2>&1; echo "stk rc=$?"
grep -hE "^bf16->" $OUT/stk.log | sed -E "s/^bf16->bf16 +//; s/cakec +[0-9.]+ TFLOP\/s \([a-z0-9_]+\) +//; s/ TFLOP\/s//"
timeout 150 python3 bench/gemm.py --build $D/s57f/build --entry-only --dtypes f16:f16 --out $OUT/entry16.md > $OUT/entry16.log 2>&1; echo "entry16 rc=$?"
grep -E "^- (fp16|f16)" $OUT/entry16.md
date -u
