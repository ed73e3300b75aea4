#!/bin/bash
# session 50 call 3: the final rule (copies unrolled only where every round is full):
# test_gdp of the new build, then old against new (make_gdp_loops.sh with PAIRS), twice
D=/tmp/dev; mkdir -p $D && for b in new gdpl; do tar xJf .device/$b.tar.xz -C $D; done
nvidia-smi --query-gpu=name,clocks.sm,driver_version --format=csv,noheader; date -u
CAKE_GPU_TEST_REQUIRE=1 timeout 240 $D/new/build/tests/gpu/test_gdp > $OUT/test_gdp.log 2>&1; echo "test_gdp rc=$? $(grep -c '^PASS' $OUT/test_gdp.log) PASS $(grep -c '^FAIL' $OUT/test_gdp.log) FAIL"; tail -1 $OUT/test_gdp.log
M="2,1;3,3;4,1;4,2;5,1;6,2;7,1;8,1;8,2;8,3"
for b in old new old new; do
  CAKEC_COMMIT="$b" timeout 120 python3 bench/gdp.py --build $D/$b/build --only-multi --designs multi --multi "$M" --multi-batches 128 --reps 5 --out $OUT/gdp_$b.md > $OUT/gdp_$b.log 2>&1; echo "gdp $b rc=$?"
  grep '^| T' $OUT/gdp_$b.md | cut -d'|' -f2,5,6,8,17
done
date -u
