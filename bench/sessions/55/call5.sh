#!/bin/bash
# session 55, call 5 (for the next session; an H100 shows warp's slowdown too): is the issue
# order of warp's sixteen state rows its 7%? O (550a03e), H (HEAD, -O2), C (H with the rows'
# addresses chained, so ptxas issues them about in order: chain_loads.py), S (lane rows
# kl + 8 i, warp_strided.cake: its bits differ from O's by the order of the sums), and tma's fix
# beside 550a03e's; forward then reversed. Bundle: make_ab57.sh.
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
tar xJf .device/ab57.tar.xz -C /tmp
W=gdp_t1_h1_k128v128_bv64_warp_bf16; T=gdp_t1_h1_k128v128_bv64_tma_c1s6_bf16; F=gdp_t1_h1_k128v128_bv64_fused_bf16
A=/tmp/ab57
set -- warp.O=$A/O/$W warp.H=$A/H/$W warp.C=$A/C/$W warp.S=$A/S/warp_strided tma.O=$A/O/$T tma.P=$A/P/$T fused.O=$A/O/$F
timeout 120 python3 bench/sessions/55/gdp_ab.py --heads 32768,4096 "$@" 2>&1
rev=(); for x in "$@"; do rev=("$x" "${rev[@]}"); done
timeout 80 python3 bench/sessions/55/gdp_ab.py --heads 32768 --rounds 7 "${rev[@]}" 2>&1
