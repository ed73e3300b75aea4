#!/bin/bash
# session 59 call 3 (any GPU): the persistent ssd (bench/sessions/59/ssd_persistent.cake)
# against the shipped one, bit for bit and timed (bench/ssd_builds.py, bundle ssdp from
# make_ssdp.sh), then the ksplit gdp design at small batch (bundle s59b: test_gdp,
# bench/gdp.py), and on an H200 issue 17's cp_fixup MMA variants (cpx).
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "$gpu, driver $(nvidia-smi --query-gpu=driver_version --format=csv,noheader)"; date -u
D=/tmp/dev; mkdir -p $D && for b in ssdp s59b cpx; do tar xJf .device/$b.tar.xz -C $D; done
timeout 150 python3 bench/ssd_builds.py $D/base/build/gen/ssd $D/new/build/gen/ssd > $OUT/ab.log 2>&1; echo "ab rc=$?"; tail -7 $OUT/ab.log
N=$D/s59b
CAKE_GPU_TEST_REQUIRE=1 timeout 60 $N/build/tests/gpu/test_gdp > $OUT/test_gdp.log 2>&1
echo "test_gdp rc=$? | $(grep -c ^FAIL $OUT/test_gdp.log) FAIL | $(tail -1 $OUT/test_gdp.log)"
timeout 120 python3 bench/gdp.py --build $N/build --designs tma,fused,ksplit,entry --design-heads 32 --design-batches 1,2,4,8,32 \
  --no-sweep --l2norm on > $OUT/gdp.log 2>&1; echo "gdp rc=$?"; grep -E "^\|" $OUT/gdp.log | head -40
case "$gpu" in *H200*)
  timeout 90 python3 bench/sessions/46/cpx.py $D/gen/cpx 8,32,16,128,128 2 2>&1 | tee $OUT/cpx.log | tail -14 ;;
esac
date -u
