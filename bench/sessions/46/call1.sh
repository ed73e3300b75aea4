#!/bin/bash
# session 2026-12-06 (2) call 1: ssd against mamba_ssm, vsa with compact and padded lists (550a03e's kernels)
D=/tmp/dev; mkdir -p $D && tar xJf .device/new.tar.xz -C $D && tar xJf .device/py.tar.xz -C $D
nvidia-smi --query-gpu=name,clocks.sm,driver_version --format=csv,noheader; date -u
export CAKEC_COMMIT="$(cat $D/new/COMMIT)"
timeout 150 python3 bench/ssd.py --build $D/new/build --mamba $D/mamba --pythonpath $D/pyp --cakec $D/new/cakec --out $OUT/ssd.md > $OUT/ssd.log 2>&1; echo "ssd rc=$?"; grep '^|' $OUT/ssd.md | head -20
date -u
timeout 200 python3 bench/vsa.py --build $D/new/build --lists compact --out $OUT/vsa_compact.md > $OUT/vsa_compact.log 2>&1; echo "vsa compact rc=$?"; grep '^|' $OUT/vsa_compact.md | head -40
date -u
timeout 200 python3 bench/vsa.py --build $D/new/build --out $OUT/vsa_padded.md > $OUT/vsa_padded.log 2>&1; echo "vsa padded rc=$?"; grep '^|' $OUT/vsa_padded.md | head -40
date -u
