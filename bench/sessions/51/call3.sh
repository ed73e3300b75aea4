#!/bin/bash
# session 51 call 3: the new2 bundle (ssd's and gdp_decode_tma's prefetched values kept in
# their input type until used): test_ssd and test_gdp, bench/ssd.py against mamba_ssm, and
# gdp_decode_tma's configs at small batch, new (34bec16) against new2, on whatever GPU came
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
D=/tmp/dev; mkdir -p $D && for b in new new2 py; do tar xJf .device/$b.tar.xz -C $D; done
cat $D/new2/COMMIT
for t in ssd gdp; do
  CAKE_GPU_TEST_REQUIRE=1 timeout 150 $D/new2/build/tests/gpu/test_$t > $OUT/test_$t.log 2>&1
  echo "test_$t rc=$? | $(tail -1 $OUT/test_$t.log)"; grep -v "^PASS" $OUT/test_$t.log | grep -v "^test_" | head -3
done
CAKEC_COMMIT=$(cat $D/new2/COMMIT) timeout 200 python3 bench/ssd.py --build $D/new2/build --mamba $D/mamba --pythonpath $D/pyp \
  --cakec $D/new2/cakec --out $OUT/ssd.md > $OUT/ssd.log 2>&1
echo "ssd rc=$?"; grep -E "^\| B" $OUT/ssd.md | cut -d'|' -f1-9; tail -2 $OUT/ssd.log
for b in new new2; do
  PYTHONPATH=$D/pyp CAKEC_COMMIT=$(cat $D/$b/COMMIT) timeout 100 python3 bench/gdp.py --build $D/$b/build --designs tma \
    --design-heads 32 --design-batches 1,8,32 --no-sweep --l2norm on --out $OUT/gdp_tma_$b.md > $OUT/gdp_tma_$b.log 2>&1
  echo "gdp tma $b rc=$?"; grep -E "^\| " $OUT/gdp_tma_$b.md | head -8 | cut -c1-260
done
