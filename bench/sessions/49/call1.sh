#!/bin/bash
# session 49 call 1: ssd's two-segment split against the ssd before it (ssd_split.py), and
# test_ssd of the new build, on whatever GPU came
nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p /tmp/dev && tar xJf .device/ssx.tar.xz -C /tmp/dev && tar xJf .device/new.tar.xz -C /tmp/dev
cat /tmp/dev/new/COMMIT
timeout 300 python3 bench/sessions/49/ssd_split.py /tmp/dev/gen 2>&1 | tail -12
CAKE_GPU_TEST_REQUIRE=1 timeout 200 /tmp/dev/new/build/tests/gpu/test_ssd > $OUT/test_ssd.log 2>&1
echo "test_ssd rc=$? | $(tail -1 $OUT/test_ssd.log)"; grep -v "^PASS" $OUT/test_ssd.log | head -5
