#!/bin/bash
# session 48 call C: test_gdp of the new build (the last token peeled off the fused loop);
# gdp_decode_multi old against new (make_gdp_pipe.sh), twice in turn; then the scalarizer's
# A/B (base = 18041b1, new = this build): gdp.py --quick, gemm.py --quick, vsa's entry point
D=/tmp/dev; mkdir -p $D && for b in base new gdpp; do tar xJf .device/$b.tar.xz -C $D; done
nvidia-smi --query-gpu=name,clocks.sm,driver_version --format=csv,noheader; date -u
CAKE_GPU_TEST_REQUIRE=1 timeout 200 $D/new/build/tests/gpu/test_gdp > $OUT/test_gdp.log 2>&1; echo "test_gdp rc=$? $(grep -c '^PASS' $OUT/test_gdp.log) PASS $(grep -c '^FAIL' $OUT/test_gdp.log) FAIL"; grep -E "t5_h1" $OUT/test_gdp.log | head -8; tail -1 $OUT/test_gdp.log
date -u
M="4,1;5,1;6,1;7,1;8,1;8,2"
for b in old new old new; do
  CAKEC_COMMIT="$b" timeout 100 python3 bench/gdp.py --build $D/$b/build --only-multi --designs multi --multi "$M" --multi-batches 128 --reps 5 --out $OUT/gdp_$b.md > $OUT/gdp_$b.log 2>&1; echo "gdp $b rc=$?"
  grep '^| T' $OUT/gdp_$b.md | cut -d'|' -f2,5,6,8,17
done
date -u
OUT=$OUT BUNDLES=.device bash bench/compare_builds.sh gdp gemm 2>&1 | cut -c1-200
date -u
timeout 150 python3 bench/sessions/47/vsa_builds.py $D/base/build/gen/vsa $D/new/build/gen/vsa 0.1,1.0 3 2>&1 | tail -12
date -u
