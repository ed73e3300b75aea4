#!/bin/bash
# session 52 call 1: on an H200, issue 15's acceptance (test_ssd, bench/ssd.py against
# mamba_ssm) and issue 12's (bench/naive.py); on any other GPU, issue 12's acceptance 3:
# bandwidth.py, gemm.py --quick and gdp.py --quick, 550a03e (base) then HEAD (new).
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "$gpu, driver $(nvidia-smi --query-gpu=driver_version --format=csv,noheader)"
D=/tmp/dev; mkdir -p $D && for b in new py; do tar xJf .device/$b.tar.xz -C $D; done; cat $D/new/COMMIT
case "$gpu" in *H200*)
  CAKE_GPU_TEST_REQUIRE=1 timeout 150 $D/new/build/tests/gpu/test_ssd > $OUT/test_ssd.log 2>&1
  echo "test_ssd rc=$? | $(tail -1 $OUT/test_ssd.log)"
  CAKEC_COMMIT=$(cat $D/new/COMMIT) timeout 200 python3 bench/ssd.py --build $D/new/build --mamba $D/mamba --pythonpath $D/pyp \
    --cakec $D/new/cakec --out $OUT/ssd.md > $OUT/ssd.log 2>&1
  echo "ssd rc=$?"; grep -E "^\| B" $OUT/ssd.md | cut -d'|' -f1-9
  OUT=$OUT timeout 220 bash bench/compare_builds.sh naive 2>&1 | grep -iE "rc=|geomet|worst|above" | head; exit ;;
esac
OUT=$OUT timeout 560 bash bench/compare_builds.sh bw gdp gemm
