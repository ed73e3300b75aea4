#!/bin/bash
# session 60 call 7 (any GPU): where two calls of the shipped ssd (and of the persistent
# candidate) differ at B16 L384 H64 and around it (bench/sessions/60/ssd_diff.py, bundle ssdp).
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
D=/tmp/dev; mkdir -p $D && [ -d $D/base ] || tar xJf .device/ssdp.tar.xz -C $D
for v in base new; do echo "== $v"; timeout 100 python3 bench/sessions/60/ssd_diff.py $D/$v/build/gen/ssd 2>&1 | tee $OUT/diff_$v.log | tail -12; done
date -u
