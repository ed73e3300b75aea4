#!/bin/bash
# session 56, call 3 (any Hopper): the swapped-operand gemm_sw instances beside gemm_sk and
# cuBLAS on M <= 16 (bench/gemm.py, every instance), and ncu on cuBLAS's kernels there.
# Bundle: s56a (bench/make_bundle.sh s56a build-fast).
nvidia-smi --query-gpu=name,clocks.sm,driver_version --format=csv,noheader; date -u
D=/tmp/dev; mkdir -p $D && tar xJf .device/${BUNDLE:-s56a}.tar.xz -C $D
B=$D/${BUNDLE:-s56a}/build
timeout 300 python3 bench/gemm.py --build $B --max-m ${MAXM:-16} --dtypes bf16:bf16 --out $OUT/gemm.md > $OUT/gemm.log 2>&1; echo "gemm rc=$?"
grep -E '^\|' $OUT/gemm.md | head -40
grep -E "^bf16->" $OUT/gemm.log | sed "s/ gemm_/ /g" | cut -c1-400
P=bench/sessions/56/gemm_prof.py
for shape in "1 8192 8192" "16 11008 4096"; do
  timeout 60 ncu -k regex:"nvjet|gemv|gemm|xmma" --launch-skip 3 --launch-count 1 --section SpeedOfLight --section LaunchStats \
    python3 $P $B cublas $shape 6 > $OUT/ncu_cublas_${shape// /x}.txt 2>&1
  echo "== cublas $shape rc=$?"; grep -E "nvjet|gemv|Duration|DRAM Throughput|Grid Size|Block Size|Cluster Size|Dynamic Shared" $OUT/ncu_cublas_${shape// /x}.txt | head -12
done
date -u
