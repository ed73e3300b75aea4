#!/bin/bash
# session 60 call 5 (any GPU): call 1's persistent-ssd A/B again, the kernels alone
# (bench/ssd_builds.py --graph: CUDA graph replays; call 1's eager calls were mostly the
# Python launcher), twice, the second in the other order (bundle ssdp).
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
D=/tmp/dev; mkdir -p $D && [ -d $D/base ] || tar xJf .device/ssdp.tar.xz -C $D
timeout 120 python3 bench/ssd_builds.py --graph $D/base/build/gen/ssd $D/new/build/gen/ssd 2>&1 | tee $OUT/ab1.log | tail -5
timeout 120 python3 bench/ssd_builds.py --graph $D/new/build/gen/ssd $D/base/build/gen/ssd 2>&1 | tee $OUT/ab2.log | tail -5
date -u
