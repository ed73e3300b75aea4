#!/bin/bash
# session 46 call 2+3 in one: cp_fixup MMA ablations, vsa QR, then ncu of cp_fixup's f32 design
D=/tmp/dev; mkdir -p $D/vq && tar xJf .device/cpx.tar.xz -C $D && tar xJf .device/vsaq.tar.xz -C $D/vq
nvidia-smi --query-gpu=name,clocks.sm,driver_version --format=csv,noheader; date -u
timeout 150 python3 bench/sessions/46/cpx.py $D/gen/cpx 8,32,16,128,128 2 2>&1 | tee $OUT/cpx.log | tail -10
date -u
timeout 180 python3 bench/sessions/46/vsaq.py $D/vq/gen/vsa 0.05,0.1,0.3,1.0 vsa_bf16_d128_b64,vsa_bf16_d128_b64_qr,vsa_bf16_d128_b64_short,vsa_bf16_d128_b64_short_qr 64 3 2>&1 | tee $OUT/vsaq64.log | grep -E "diff|best"
timeout 80 python3 bench/sessions/46/vsaq.py $D/vq/gen/vsa 0.05,0.1,0.3,1.0 vsa_bf16_d128_b128 128 3 2>&1 | tee $OUT/vsaq128.log | grep -E "best"
date -u
CPX_NCU=1 timeout 140 ncu --kernel-name regex:'cpx_(f32|bf16)_base' --launch-skip 2 --launch-count 2 --section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis --section SchedulerStats --section Occupancy -o $OUT/cpx_ncu python3 bench/sessions/46/cpx.py $D/gen/cpx 8,32,16,128,128 > $OUT/ncu.log 2>&1; echo "ncu rc=$?"; tail -3 $OUT/ncu.log
ncu --import $OUT/cpx_ncu.ncu-rep --page details 2>&1 | grep -v "^    ---" | head -120
date -u
