#!/bin/bash
# session 49 call 2: bench/ssd.py (against mamba_ssm, CUDA graphs) with the new build, whose
# entry point splits B4 L4096 H80's heads in two halves
D=/tmp/dev; mkdir -p $D && tar xJf .device/new.tar.xz -C $D && tar xJf .device/py.tar.xz -C $D
nvidia-smi --query-gpu=name --format=csv,noheader; cat $D/new/COMMIT
timeout 500 python3 bench/ssd.py --build $D/new/build --mamba $D/mamba --pythonpath $D/pyp --cakec $D/new/cakec --out $OUT/ssd.md 2>&1 | tail -14
