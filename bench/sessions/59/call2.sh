#!/bin/bash
# session 59 call 2 (any GPU): issue 15 with persistent ssd CTAs (test_ssd; the A/B against
# the previous kernel, bench/ssd_builds.py: ssdb = cbea97c's ssd by cbea97c's cakec, s59b =
# this session's build; bench/ssd.py against mamba_ssm), issue 18's ksplit design at small
# batch beside tma, fused and the entry (test_gdp, bench/gdp.py), on an H200 issue 17's
# cp_fixup MMA variants (session 46's cpx bundle), then racecheck and synccheck of test_ssd.
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "$gpu, driver $(nvidia-smi --query-gpu=driver_version --format=csv,noheader)"; date -u
D=/tmp/dev; mkdir -p $D && for b in s59b ssdb py cpx; do tar xJf .device/$b.tar.xz -C $D; done; cat $D/s59b/COMMIT
N=$D/s59b
CAKE_GPU_TEST_REQUIRE=1 timeout 100 $N/build/tests/gpu/test_ssd > $OUT/test_ssd.log 2>&1
echo "test_ssd rc=$? | $(grep -c ^FAIL $OUT/test_ssd.log) FAIL | $(tail -1 $OUT/test_ssd.log)"
timeout 100 python3 bench/ssd_builds.py $D/base/build/gen/ssd $N/build/gen/ssd > $OUT/ab.log 2>&1; echo "ab rc=$?"; tail -7 $OUT/ab.log
CAKEC_COMMIT=$(cat $N/COMMIT) timeout 170 python3 bench/ssd.py --build $N/build --mamba $D/mamba --pythonpath $D/pyp \
  --cakec $N/cakec --out $OUT/ssd.md > $OUT/ssd.log 2>&1
echo "ssd rc=$?"; grep -E "^\| B" $OUT/ssd.md | cut -d'|' -f1-9
CAKE_GPU_TEST_REQUIRE=1 timeout 60 $N/build/tests/gpu/test_gdp > $OUT/test_gdp.log 2>&1
echo "test_gdp rc=$? | $(grep -c ^FAIL $OUT/test_gdp.log) FAIL | $(tail -1 $OUT/test_gdp.log)"
timeout 120 python3 bench/gdp.py --build $N/build --designs tma,fused,ksplit,entry --design-heads 32 --design-batches 1,2,4,8,32 \
  --no-sweep --l2norm on > $OUT/gdp.log 2>&1; echo "gdp rc=$?"; grep -E "^\|" $OUT/gdp.log | head -40
case "$gpu" in *H200*)
  timeout 90 python3 bench/sessions/46/cpx.py $D/gen/cpx 8,32,16,128,128 2 2>&1 | tee $OUT/cpx.log | tail -14 ;;
esac
CAKE_GPU_TEST_SMALL=1 CAKE_GPU_TEST_REQUIRE=1 timeout 80 compute-sanitizer --tool racecheck --error-exitcode 9 $N/build/tests/gpu/test_ssd > $OUT/race.log 2>&1
echo "racecheck rc=$? | $(grep -E "RACECHECK SUMMARY|hazard" $OUT/race.log | tail -1) | $(grep "cases passed" $OUT/race.log)"
CAKE_GPU_TEST_SMALL=1 CAKE_GPU_TEST_REQUIRE=1 timeout 60 compute-sanitizer --tool synccheck --error-exitcode 9 $N/build/tests/gpu/test_ssd > $OUT/sync.log 2>&1
echo "synccheck rc=$? | $(grep -E "ERROR SUMMARY" $OUT/sync.log | tail -1) | $(grep "cases passed" $OUT/sync.log)"
date -u
