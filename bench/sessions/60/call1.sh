#!/bin/bash
# session 60 call 1 (any GPU): session 59's persistent ssd against the shipped one, bit for
# bit and timed (bench/ssd_builds.py, bundle ssdp from bench/sessions/59/make_ssdp.sh); the
# ksplit gdp design at small batch (bundle s60 = this session's build: test_gdp, then
# bench/gdp.py beside tma, fused and the entry); on an H200 issue 17's cp_fixup MMA
# variants (cpx, bench/sessions/46).
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "$gpu, driver $(nvidia-smi --query-gpu=driver_version --format=csv,noheader)"; date -u
D=/tmp/dev; mkdir -p $D && for b in ssdp s60 cpx; do tar xJf .device/$b.tar.xz -C $D; done; N=$D/s60; cat $N/COMMIT
timeout 150 python3 bench/ssd_builds.py $D/base/build/gen/ssd $D/new/build/gen/ssd > $OUT/ab.log 2>&1; echo "ab rc=$?"; tail -7 $OUT/ab.log
CAKE_GPU_TEST_REQUIRE=1 timeout 60 $N/build/tests/gpu/test_gdp > $OUT/test_gdp.log 2>&1
echo "test_gdp rc=$? | $(grep -c ^FAIL $OUT/test_gdp.log) FAIL | $(tail -1 $OUT/test_gdp.log)"
timeout 130 python3 bench/gdp.py --build $N/build --designs tma,fused,ksplit,entry --design-heads 32 --design-batches 1,2,4,8,32 \
  --no-sweep --l2norm on > $OUT/gdp.log 2>&1; echo "gdp rc=$?"; grep -E "^\|" $OUT/gdp.log | head -40
case "$gpu" in *H200*)
  timeout 90 python3 bench/sessions/46/cpx.py $D/gen/cpx 8,32,16,128,128 2 2>&1 | tee $OUT/cpx.log | tail -14 ;;
esac
date -u
