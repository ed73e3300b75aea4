#!/bin/bash
# session 60 call 4 (any Hopper): where the time goes (ncu, its locked clocks) in the two
# gaps that are left: ssd at B4 L4096 H80 (issue 15's anchor shape that stays 2% short on
# the H200) and the entry point's GEMM at 256 x 2560 x 8192 and 128 x 4096 x 4096 (issue
# 13's lowest ratios). Bundle s60; bench/sessions/60/prof.py makes the calls.
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
D=/tmp/dev; mkdir -p $D && [ -d $D/s60 ] || tar xJf .device/s60.tar.xz -C $D; N=$D/s60
S="--section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy --section LaunchStats --section SchedulerStats"
for p in ssd gemm:256,2560,8192 gemm:128,4096,4096; do
  f=$OUT/ncu_$(echo $p | tr ':,' '__').txt
  timeout 150 ncu $S -k regex:"^(ssd|gemm)" --launch-skip 1 --launch-count 1 python3 bench/sessions/60/prof.py $N/build $p > $f 2>&1; echo "$p rc=$?"
  grep -E "^  [a-z_0-9]+.*\(|Duration|Compute \(SM\) Throughput|Memory Throughput|DRAM Throughput|Registers Per|Achieved Occupancy|Block Size|Grid Size|Dynamic Shared|One or More Eligible|Issued Warp Per|No Eligible" $f | head -20
done
date -u
