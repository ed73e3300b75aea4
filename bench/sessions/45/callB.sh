#!/bin/bash
# session 2026-12-06 call B: ssd (test, base vs cur, against mamba_ssm), vsa padded/compact
D=/tmp/dev; mkdir -p $D && tar xJf .device/cur.tar.xz -C $D && tar xJf .device/ssdb.tar.xz -C $D && tar xJf .device/py.tar.xz -C $D
nvidia-smi --query-gpu=name,clocks.sm,driver_version --format=csv,noheader; date -u
export CAKEC_COMMIT="$(cat $D/cur/COMMIT)"
CAKE_GPU_TEST_REQUIRE=1 timeout 90 $D/cur/build/tests/gpu/test_ssd > $OUT/test_ssd.log 2>&1; echo "test_ssd rc=$?"; tail -2 $OUT/test_ssd.log
timeout 120 python3 bench/ssd_builds.py $D/base/build/gen/ssd $D/cur/build/gen/ssd $D/base/build/gen/ssd $D/cur/build/gen/ssd > $OUT/ssd_builds.log 2>&1; echo "ssd_builds rc=$?"; tail -12 $OUT/ssd_builds.log
timeout 150 python3 bench/ssd.py --build $D/cur/build --mamba $D/mamba --pythonpath $D/pyp --cakec $D/cur/cakec --out $OUT/ssd.md > $OUT/ssd.log 2>&1; echo "ssd rc=$?"; grep '^|' $OUT/ssd.md | head -20
date -u
timeout 180 python3 bench/vsa.py --build $D/cur/build --shapes "4,16,8192,128;1,24,32760,128" --blocks 64,128 --densities 0.05,0.1,0.3 --lists compact --out $OUT/vsa_compact.md > $OUT/vsa.log 2>&1; echo "vsa rc=$?"; grep '^|' $OUT/vsa_compact.md | head -30
date -u
