#!/bin/bash
# session 60 call 8 (any GPU): call 6's DIFFER at B16 L384 told apart: ssd_builds.py now
# counts the differing elements (NaN = NaN counts as equal) and the NaNs of each build.
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
D=/tmp/dev; mkdir -p $D && [ -d $D/base ] || tar xJf .device/ssdp.tar.xz -C $D
for v in base new; do [ -d $D/$v.2 ] || { mkdir -p $D/$v.2/build/gen && cp -r $D/$v/build/gen/ssd $D/$v.2/build/gen/; }; done
timeout 100 python3 bench/ssd_builds.py --graph $D/base/build/gen/ssd $D/base.2/build/gen/ssd $D/new/build/gen/ssd 2>&1 | tee $OUT/ab3.log | tail -4
timeout 100 python3 bench/ssd_builds.py $D/base/build/gen/ssd $D/new/build/gen/ssd 2>&1 | tee $OUT/ab4.log | tail -4
date -u
