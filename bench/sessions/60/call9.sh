#!/bin/bash
# session 60 call 9 (any GPU): call 8's DIFFER (B8 L2048 H64 N64, graph mode) pinned down:
# three copies of the shipped ssd, then of the candidate, twice each; ssd_builds.py names the
# build that differs from the first and the batches and heads where.
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
D=/tmp/dev; mkdir -p $D && [ -d $D/base ] || tar xJf .device/ssdp.tar.xz -C $D
for v in base new; do for c in 2 3; do [ -d $D/$v.$c ] || { mkdir -p $D/$v.$c/build/gen && cp -r $D/$v/build/gen/ssd $D/$v.$c/build/gen/; }; done; done
for r in 1 2; do for v in base new; do
  timeout 100 python3 bench/ssd_builds.py --graph $D/$v/build/gen/ssd $D/$v.2/build/gen/ssd $D/$v.3/build/gen/ssd 2>&1 | tee $OUT/r${r}_$v.log | sed 's/Mtok\/s/M/g' | cut -c1-330; done; done
date -u
