#!/bin/bash
# session 52 call 2: the illegal-address hunt of section 51: bench/sessions/51/ssd_ab.py
# with one library (HEAD's ssd), its cakec_torch library fresh or cached, the driver's PTX
# JIT cache fresh or warm; on an H200 first issue 15's sanitizer runs.
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "$gpu, driver $(nvidia-smi --query-gpu=driver_version --format=csv,noheader)"
D=/tmp/dev; mkdir -p $D && [ -d $D/new ] || tar xJf .device/new.tar.xz -C $D; cat $D/new/COMMIT
case "$gpu" in *H200*)
  for tool in racecheck synccheck; do
    CAKE_GPU_TEST_SMALL=1 CAKE_GPU_TEST_REQUIRE=1 timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 \
      $D/new/build/tests/gpu/test_ssd > $OUT/ssd_$tool.log 2>&1
    echo "$tool rc=$? | $(grep -E 'cases passed|ERROR SUMMARY|hazard' $OUT/ssd_$tool.log | tail -2 | tr '\n' ' ')"
  done ;;
esac
G=$D/new/build/gen/ssd
run() { # label, env...
  local l=$1; shift
  env "$@" timeout 100 python3 bench/sessions/51/ssd_ab.py $G > $OUT/ab_$l.log 2>&1
  echo "$l rc=$? | $(grep -c '^B' $OUT/ab_$l.log) shapes | $(grep -iE 'illegal|error' $OUT/ab_$l.log | head -1 | cut -c1-160)"
}
for i in 1 2 3; do rm -rf $G/.cakec_torch ~/.cache/cakec_torch ~/.nv/ComputeCache; run fresh$i; done
for i in 1 2; do run cached$i; done
for i in 1 2; do rm -rf ~/.nv/ComputeCache; run jitonly$i; done
for i in 1 2; do rm -rf $G/.cakec_torch ~/.cache/cakec_torch; run soonly$i; done
grep -h "^B" $OUT/ab_cached1.log
