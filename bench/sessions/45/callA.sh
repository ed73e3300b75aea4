#!/bin/bash
# session 2026-12-06 call A: exp on the device, naive corpus, gdp multi unroll A/B, cp_fixup (issue 17)
D=/tmp/dev; mkdir -p $D && tar xJf .device/cur.tar.xz -C $D && tar xJf .device/gdpu.tar.xz -C $D
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv,noheader; date -u
CAKE_GPU_TEST_REQUIRE=1 timeout 60 $D/cur/build/tests/gpu/test_check_math > $OUT/check_math.log 2>&1; echo "check_math rc=$?"; grep -i 'exp\|FAIL' $OUT/check_math.log | head -8
export CAKEC_COMMIT="$(cat $D/cur/COMMIT)"
timeout 200 python3 bench/naive.py --build $D/cur/build --out $OUT/naive.md > $OUT/naive.log 2>&1; echo "naive rc=$?"; grep -i 'geomet\|softmax\|above' $OUT/naive.md | head -12
date -u
for b in def tf4 def tf4; do
  CAKEC_COMMIT="$(head -1 $D/$b/COMMIT)" timeout 50 python3 bench/gdp.py --build $D/$b/build --only-multi --designs multi --multi "5,1;6,1;7,1;8,1;3,2;4,2;2,3" --multi-batches 128 --reps 5 >> $OUT/gdp_$b.log 2>&1
  echo "== gdp $b rc=$?"; grep '^T=' $OUT/gdp_$b.log | tail -7 | cut -c1-120
done
date -u
BUILD=$D/cur/build OUT=/tmp/cpf timeout 250 bash bench/run_cp_fixup.sh > /tmp/cpf.out 2>&1; echo "cp_fixup rc=$?"; tail -5 /tmp/cpf.out
tar czf $OUT/cpf.tgz -C /tmp cpf cpf.out 2>/dev/null; grep '^|' /tmp/cpf/cp_fixup.md 2>/dev/null | head -40
date -u
