#!/bin/bash
# session 59 call 1 (any GPU): issue 15 with persistent ssd CTAs: test_ssd, the A/B against
# the previous kernel (bench/ssd_builds.py: ssdb = cbea97c's ssd by cbea97c's cakec, s59a =
# this session's build), bench/ssd.py against mamba_ssm, racecheck and synccheck on the small
# shapes; on an H200 also issue 17's cp_fixup MMA variants (session 46's cpx bundle).
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "$gpu, driver $(nvidia-smi --query-gpu=driver_version --format=csv,noheader)"; date -u
D=/tmp/dev; mkdir -p $D && for b in s59a ssdb py cpx; do tar xJf .device/$b.tar.xz -C $D; done; cat $D/s59a/COMMIT
CAKE_GPU_TEST_REQUIRE=1 timeout 150 $D/s59a/build/tests/gpu/test_ssd > $OUT/test_ssd.log 2>&1
echo "test_ssd rc=$? | $(grep -c ^FAIL $OUT/test_ssd.log) FAIL | $(tail -1 $OUT/test_ssd.log)"
timeout 150 python3 bench/ssd_builds.py $D/base/build/gen/ssd $D/s59a/build/gen/ssd > $OUT/ab.log 2>&1; echo "ab rc=$?"; tail -8 $OUT/ab.log
CAKEC_COMMIT=$(cat $D/s59a/COMMIT) timeout 200 python3 bench/ssd.py --build $D/s59a/build --mamba $D/mamba --pythonpath $D/pyp \
  --cakec $D/s59a/cakec --out $OUT/ssd.md > $OUT/ssd.log 2>&1
echo "ssd rc=$?"; grep -E "^\| B" $OUT/ssd.md | cut -d'|' -f1-9
case "$gpu" in *H200*)
  timeout 100 python3 bench/sessions/46/cpx.py $D/gen/cpx 8,32,16,128,128 2 2>&1 | tee $OUT/cpx.log | tail -14 ;;
esac
CAKE_GPU_TEST_SMALL=1 CAKE_GPU_TEST_REQUIRE=1 timeout 120 compute-sanitizer --tool racecheck --error-exitcode 9 $D/s59a/build/tests/gpu/test_ssd > $OUT/race.log 2>&1
echo "racecheck rc=$? | $(grep -E "RACECHECK SUMMARY|hazard" $OUT/race.log | tail -1) | $(grep "cases passed" $OUT/race.log)"
CAKE_GPU_TEST_SMALL=1 CAKE_GPU_TEST_REQUIRE=1 timeout 90 compute-sanitizer --tool synccheck --error-exitcode 9 $D/s59a/build/tests/gpu/test_ssd > $OUT/sync.log 2>&1
echo "synccheck rc=$? | $(grep -E "ERROR SUMMARY" $OUT/sync.log | tail -1) | $(grep "cases passed" $OUT/sync.log)"
date -u
