#!/bin/bash
# session 60 call 6 (any GPU): call 5 found the persistent ssd's y or final state at B16
# L384 H64 not bit for bit the shipped one's. Each build against itself (two loads, the
# same inputs: a build that differs from itself reads something it should not), then
# bench/ssd.py on each build: its errors against the sequential recurrence name the wrong one.
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
D=/tmp/dev; mkdir -p $D && for b in ssdp py; do tar xJf .device/$b.tar.xz -C $D; done
for v in base new; do mkdir -p $D/$v.2/build/gen && cp -r $D/$v/build/gen/ssd $D/$v.2/build/gen/; done
for v in base new; do
  timeout 100 python3 bench/ssd_builds.py --graph $D/$v/build/gen/ssd $D/$v.2/build/gen/ssd 2>&1 | tee $OUT/self_$v.log | tail -4; done
for v in base new; do
  timeout 150 python3 bench/ssd.py --build $D/$v/build --mamba $D/mamba --pythonpath $D/pyp --out $OUT/ssd_$v.md > $OUT/ssd_$v.log 2>&1
  echo "ssd $v rc=$?"; grep -E "^\| B" $OUT/ssd_$v.md | cut -d'|' -f1-3,9-12; done
date -u
