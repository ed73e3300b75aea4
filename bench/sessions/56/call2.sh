#!/bin/bash
# session 56, call 2 (any Hopper): where small-M GEMMs lose their bandwidth. bench/gemm.py on
# M <= 16 (every instance), then ncu on the entry point and cuBLAS at 1 x 8192 x 8192 and
# 16 x 11008 x 4096. Bundle: cur55 (gemm's PTX unchanged since).
nvidia-smi --query-gpu=name,clocks.sm,driver_version --format=csv,noheader; date -u
D=/tmp/dev; mkdir -p $D && tar xJf .device/${BUNDLE:-cur55}.tar.xz -C $D
B=$D/${BUNDLE:-cur55}/build
timeout 200 python3 bench/gemm.py --build $B --max-m 16 --dtypes bf16:bf16 --out $OUT/gemm_m16.md > $OUT/gemm_m16.log 2>&1; echo "gemm rc=$?"
grep -E '^\|' $OUT/gemm_m16.md | head -40
P=bench/sessions/56/gemm_prof.py
for shape in "1 8192 8192" "16 11008 4096" "1 4096 4096"; do
  for k in gemm cublas; do
    timeout 90 ncu -k regex:"gemm|gemv|xmma|cutlass|splitK" --launch-skip 3 --launch-count 1 \
      --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section LaunchStats --section Occupancy \
      python3 $P $B $k $shape 6 > $OUT/ncu_${k}_${shape// /x}.txt 2>&1
    echo "== $k $shape rc=$?"
    grep -E "gemm|gemv|Kernel|Duration|DRAM Throughput|Memory Throughput|Compute \(SM\)|Grid Size|Block Size|Registers|Shared Memory Config|Dynamic Shared|Achieved Occ|Warp Cycles Per Issued|Stall|rel err" $OUT/ncu_${k}_${shape// /x}.txt | head -30
  done
done
date -u
