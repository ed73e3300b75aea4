#!/bin/bash
# session 51 call 1: test_ssd of the new build (the backend's fragment change touched ssd's
# PTX), ssd's ablations side by side (bench/ssd_builds.py), and ncu's view of one ssd call
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
D=/tmp/dev; mkdir -p $D && tar xJf .device/new.tar.xz -C $D && tar xJf .device/abl.tar.xz -C $D
cat $D/new/COMMIT
CAKE_GPU_TEST_REQUIRE=1 timeout 200 $D/new/build/tests/gpu/test_ssd > $OUT/test_ssd.log 2>&1
echo "test_ssd rc=$? | $(tail -1 $OUT/test_ssd.log)"; grep -v "^PASS" $OUT/test_ssd.log | head -5
G=""; for v in base no_gm no_oi no_exp no_px no_state_mma no_dx; do G="$G $D/abl/$v/build/gen/ssd"; done
timeout 240 python3 bench/ssd_builds.py $G 2>&1 | tail -6
timeout 200 ncu --kernel-name regex:ssd --launch-skip 1 --launch-count 1 --section SpeedOfLight \
  --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables \
  --section WarpStateStats --section SchedulerStats \
  python3 bench/sessions/51/ssd_once.py $D/abl/base/build/gen/ssd 1 8192 128 128 > $OUT/ncu_base.txt 2>&1
echo "ncu rc=$?"; grep -E "Throughput|Pipe|Shared|Tensor|Issued|Eligible|Warp Cycles|Stall|Busy|Bank" $OUT/ncu_base.txt | head -40
