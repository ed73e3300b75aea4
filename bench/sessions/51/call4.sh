#!/bin/bash
# session 51 call 4: the new2 bundle's ssd under compute-sanitizer (racecheck, synccheck;
# small shapes), and on an H200 also bench/ssd.py against mamba_ssm (issue 15)
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "$gpu, driver $(nvidia-smi --query-gpu=driver_version --format=csv,noheader)"
D=/tmp/dev; mkdir -p $D && for b in new2 py; do tar xJf .device/$b.tar.xz -C $D; done; cat $D/new2/COMMIT
case "$gpu" in *H200*)
  CAKE_GPU_TEST_REQUIRE=1 timeout 150 $D/new2/build/tests/gpu/test_ssd > $OUT/test_ssd.log 2>&1
  echo "test_ssd rc=$? | $(tail -1 $OUT/test_ssd.log)"
  CAKEC_COMMIT=$(cat $D/new2/COMMIT) timeout 200 python3 bench/ssd.py --build $D/new2/build --mamba $D/mamba --pythonpath $D/pyp \
    --cakec $D/new2/cakec --out $OUT/ssd.md > $OUT/ssd.log 2>&1
  echo "ssd rc=$?"; grep -E "^\| B" $OUT/ssd.md | cut -d'|' -f1-9 ;;
esac
for tool in racecheck synccheck; do
  CAKE_GPU_TEST_SMALL=1 CAKE_GPU_TEST_REQUIRE=1 timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 \
    $D/new2/build/tests/gpu/test_ssd > $OUT/ssd_$tool.log 2>&1
  echo "$tool rc=$? | $(grep -E 'cases passed|ERROR SUMMARY|hazard' $OUT/ssd_$tool.log | tail -2 | tr '\n' ' ')"
done
