#!/bin/bash
# session 46 call 2: cp_fixup MMA ablations (bench/sessions/46/cpx.py; .device/cpx.tar.xz) and ncu of the f32 design
D=/tmp/dev; mkdir -p $D && tar xJf .device/cpx.tar.xz -C $D
nvidia-smi --query-gpu=name,clocks.sm,driver_version --format=csv,noheader; date -u
timeout 200 python3 bench/sessions/46/cpx.py $D/gen/cpx 8,32,16,128,128 2 2>&1 | tee $OUT/cpx.log | tail -9
date -u
CPX_NCU=1 timeout 300 ncu --kernel-name regex:'cpx_(f32|bf16)_base' --launch-skip 2 --launch-count 2 --set full -o $OUT/cpx_ncu python3 bench/sessions/46/cpx.py $D/gen/cpx 8,32,16,128,128 > $OUT/ncu.log 2>&1; echo "ncu rc=$?"; tail -3 $OUT/ncu.log
ncu --import $OUT/cpx_ncu.ncu-rep --page details --section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis --section SchedulerStats 2>&1 | grep -v "^    ---" | head -150
date -u
