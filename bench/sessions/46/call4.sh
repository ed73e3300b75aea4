#!/bin/bash
# session 46 call 4: vsa's 64-token design with o through shared memory and two Q stages (so2:
# the layout that packs small buffers under the first KiB), against b64 and b64_short; on an
# H200 also cp_fixup's variants (cpx.py)
D=/tmp/dev; mkdir -p $D/vq && tar xJf .device/vsaq.tar.xz -C $D/vq && tar xJf .device/cpx.tar.xz -C $D
nvidia-smi --query-gpu=name,clocks.sm,driver_version --format=csv,noheader; date -u
timeout 200 python3 bench/sessions/46/vsaq.py $D/vq/gen/vsa 0.05,0.1,0.3,1.0 vsa_bf16_d128_b64,vsa_bf16_d128_b64_short,vsa_bf16_d128_b64_so2 64 3 2>&1 | tee $OUT/vsaq64.log | grep -E "diff|best"
timeout 80 python3 bench/sessions/46/vsaq.py $D/vq/gen/vsa 0.05,0.1,0.3,1.0 vsa_bf16_d128_b128 128 3 2>&1 | tee $OUT/vsaq128.log | grep -E "best"
date -u
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
timeout 150 python3 bench/sessions/46/cpx.py $D/gen/cpx 8,32,16,128,128 2 2>&1 | tee $OUT/cpx.log | tail -12
fi
date -u
