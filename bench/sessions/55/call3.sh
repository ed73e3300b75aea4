#!/bin/bash
# session 55, call 3: gdp_ab.py on bundle ab56 (make_ab56.sh: O = 550a03e's
# build; O3 = HEAD before the fix, as shipped; H = warp at -O2 (the fix); P = tma with beta
# loaded in its own item (the fix); OB = O's PTX with the 16 state loads from one base and
# immediate offsets, as 4dd01a4 emits them, assembled by ptxas), forward then reversed.
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
tar xJf .device/ab56.tar.xz -C /tmp
W=gdp_t1_h1_k128v128_bv64_warp_bf16; T=gdp_t1_h1_k128v128_bv64_tma_c1s6_bf16; F=gdp_t1_h1_k128v128_bv64_fused_bf16
A=/tmp/ab56
set -- warp.O=$A/O/$W warp.O3=$A/O3/$W warp.H=$A/H/$W warp.OB=$A/OB/$W tma.O=$A/O/$T tma.O3=$A/O3/$T tma.P=$A/P/$T fused.O=$A/O/$F
timeout 150 python3 bench/sessions/55/gdp_ab.py --heads ${HEADS:-32768,4096} "$@" 2>&1
rev=(); for x in "$@"; do rev=("$x" "${rev[@]}"); done
timeout 120 python3 bench/sessions/55/gdp_ab.py --heads 32768 --rounds 7 "${rev[@]}" 2>&1
