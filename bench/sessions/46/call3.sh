#!/bin/bash
# session 46 call 3: vsa with Q as the register operand A of S = Q K^T (QR = 1) against the instances as they are
D=/tmp/dev; mkdir -p $D/vq && tar xJf .device/vsaq.tar.xz -C $D/vq
nvidia-smi --query-gpu=name,clocks.sm,driver_version --format=csv,noheader; date -u
timeout 200 python3 bench/sessions/46/vsaq.py $D/vq/gen/vsa 0.05,0.1,0.3,1.0 vsa_bf16_d128_b64,vsa_bf16_d128_b64_qr,vsa_bf16_d128_b64_short,vsa_bf16_d128_b64_short_qr 64 3 2>&1 | tee $OUT/vsaq64.log | grep -E "diff|best"
timeout 120 python3 bench/sessions/46/vsaq.py $D/vq/gen/vsa 0.05,0.1,0.3,1.0 vsa_bf16_d128_b128 128 3 2>&1 | tee $OUT/vsaq128.log | grep -E "best"
date -u
