#!/bin/bash
# session 55, call 4 (a short device budget): the H200 half of call3.sh, tma and warp only,
# at 32768 heads, forward then reversed (bundle ab56)
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
tar xJf .device/ab56.tar.xz -C /tmp
W=gdp_t1_h1_k128v128_bv64_warp_bf16; T=gdp_t1_h1_k128v128_bv64_tma_c1s6_bf16; F=gdp_t1_h1_k128v128_bv64_fused_bf16
A=/tmp/ab56
set -- tma.O=$A/O/$T tma.O3=$A/O3/$T tma.P=$A/P/$T warp.O=$A/O/$W warp.H=$A/H/$W fused.O=$A/O/$F
timeout 80 python3 bench/sessions/55/gdp_ab.py --heads 32768 --rounds 7 "$@" 2>&1
rev=(); for x in "$@"; do rev=("$x" "${rev[@]}"); done
timeout 80 python3 bench/sessions/55/gdp_ab.py --heads 32768 --rounds 7 "${rev[@]}" 2>&1
