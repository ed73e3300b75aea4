#!/bin/bash
# session 60 call 2 (the H200 first): issue 15 on this session's build (bundle s60):
# bench/ssd.py beside mamba_ssm (bundle py: its sdist and wheels), racecheck and synccheck
# of test_ssd on the small shapes; then issue 13's entry point over bench/gemm.py's shape set.
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "$gpu, driver $(nvidia-smi --query-gpu=driver_version --format=csv,noheader)"; date -u
D=/tmp/dev; mkdir -p $D && for b in s60 py; do [ -d $D/$b ] || tar xJf .device/$b.tar.xz -C $D; done; N=$D/s60
export CAKEC_COMMIT=$(cat $N/COMMIT)
timeout 170 python3 bench/ssd.py --build $N/build --mamba $D/mamba --pythonpath $D/pyp \
  --cakec $N/cakec --out $OUT/ssd.md > $OUT/ssd.log 2>&1
echo "ssd rc=$?"; grep -E "^\| B" $OUT/ssd.md | cut -d'|' -f1-9
CAKE_GPU_TEST_SMALL=1 CAKE_GPU_TEST_REQUIRE=1 timeout 90 compute-sanitizer --tool racecheck --error-exitcode 9 $N/build/tests/gpu/test_ssd > $OUT/race.log 2>&1
echo "racecheck rc=$? | $(grep -E "RACECHECK SUMMARY|hazard" $OUT/race.log | tail -1) | $(grep "cases passed" $OUT/race.log)"
CAKE_GPU_TEST_SMALL=1 CAKE_GPU_TEST_REQUIRE=1 timeout 60 compute-sanitizer --tool synccheck --error-exitcode 9 $N/build/tests/gpu/test_ssd > $OUT/sync.log 2>&1
echo "synccheck rc=$? | $(grep -E "ERROR SUMMARY" $OUT/sync.log | tail -1) | $(grep "cases passed" $OUT/sync.log)"
timeout 150 python3 bench/gemm.py --build $N/build --entry-only --dtypes bf16:bf16 --out $OUT/entry.md > $OUT/entry.log 2>&1; echo "entry rc=$?"
grep -E "^- (GPU|copy|bf16)" $OUT/entry.md
date -u
