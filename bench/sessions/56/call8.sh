#!/bin/bash
# session 56, call 8 (any Hopper): the entry point over issue 13's whole shape set, bf16, on
# 5c07097's build (bundle s56e): where the shapes below 0.85 of cuBLAS are now.
nvidia-smi --query-gpu=name,clocks.sm,driver_version --format=csv,noheader; date -u
D=/tmp/dev; mkdir -p $D && tar xJf .device/s56e.tar.xz -C $D
CAKEC_COMMIT=$(cat $D/s56e/COMMIT) timeout 400 python3 bench/gemm.py --build $D/s56e/build --entry-only --dtypes bf16:bf16 --out $OUT/entry_all.md > $OUT/entry_all.log 2>&1; echo "entry rc=$?"
grep -E "^- (GPU|copy|bf16|f16)" $OUT/entry_all.md
grep -E '^\| bf16 ' $OUT/entry_all.md | cut -d'|' -f4-6,8-10 | awk -F'|' '$6 < 0.9'
date -u
