#!/bin/bash
# session 61 call 1 (any GPU): the persistent ssd as kernels_src/ssd/ssd.cake (bundle s61p,
# build-fast of the working tree): on an H200 bench/ssd.py beside mamba_ssm (issue 15 acc 1);
# test_ssd at full size, racecheck and synccheck on the small shapes (acc 3); compile time on
# this machine's CPU, the shipped ssd (kernels_src) beside the persistent one (sessions/59), by the
# BOLT cakec (.device/cakec_bolt.xz); bench/ssd_builds.py --graph (fixed: the graphs' outputs
# stay alive) on base, new and copies of both: bit for bit and the A/B in graphs.
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "$gpu, driver $(nvidia-smi --query-gpu=driver_version --format=csv,noheader)"; date -u
echo "cpu: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores"
D=/tmp/dev; mkdir -p $D && for b in s61p py ssdp; do [ -d $D/$b ] || tar xJf .device/$b.tar.xz -C $D; done
[ -x $D/cakec ] || { xz -dc .device/cakec_bolt.xz > $D/cakec && chmod +x $D/cakec; }
N=$D/s61p; export CAKEC_COMMIT=$(cat $N/COMMIT)
case "$gpu" in *H200*)
  timeout 170 python3 bench/ssd.py --build $N/build --mamba $D/mamba --pythonpath $D/pyp \
    --cakec $D/cakec --out $OUT/ssd.md > $OUT/ssd.log 2>&1
  echo "ssd rc=$?"; grep -E "^\| B" $OUT/ssd.md | cut -d'|' -f1-9 ;;
esac
CAKE_GPU_TEST_REQUIRE=1 timeout 90 $N/build/tests/gpu/test_ssd > $OUT/test_ssd.log 2>&1
echo "test_ssd rc=$? | $(grep -c ^FAIL $OUT/test_ssd.log) FAIL | $(tail -1 $OUT/test_ssd.log)"
CAKE_GPU_TEST_SMALL=1 CAKE_GPU_TEST_REQUIRE=1 timeout 100 compute-sanitizer --tool racecheck --error-exitcode 9 $N/build/tests/gpu/test_ssd > $OUT/race.log 2>&1
echo "racecheck rc=$? | $(grep -E "RACECHECK SUMMARY|hazard" $OUT/race.log | tail -1) | $(grep "cases passed" $OUT/race.log)"
CAKE_GPU_TEST_SMALL=1 CAKE_GPU_TEST_REQUIRE=1 timeout 60 compute-sanitizer --tool synccheck --error-exitcode 9 $N/build/tests/gpu/test_ssd > $OUT/sync.log 2>&1
echo "synccheck rc=$? | $(grep -E "ERROR SUMMARY" $OUT/sync.log | tail -1) | $(grep "cases passed" $OUT/sync.log)"
timeout 120 python3 bench/compile_speed.py --cakec $D/cakec --runs 11 --dir kernels_src/ssd --dir bench/sessions/59 > $OUT/cs.log 2>&1
echo "compile_speed rc=$?"; grep -E "ssd|median of" $OUT/cs.log | cut -c1-200
for v in base new; do [ -d $D/$v.2 ] || { mkdir -p $D/$v.2/build/gen && cp -r $D/$v/build/gen/ssd $D/$v.2/build/gen/; }; done
timeout 150 python3 bench/ssd_builds.py --graph $D/base/build/gen/ssd $D/new/build/gen/ssd $D/base.2/build/gen/ssd $D/new.2/build/gen/ssd 2>&1 | tee $OUT/ab.log | sed 's/Mtok\/s/M/g' | cut -c1-400
date -u
