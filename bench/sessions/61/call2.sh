#!/bin/bash
# session 61 call 2 (the H200): issue 18 on HEAD's gdp (bundle s61p): the designs at 256 and
# 1024 heads (acceptance 2) twice, and T = 8 (acceptance 1); issue 17's MMA variants (cpx,
# bench/sessions/46/cpx.py) at B8 H32 C16 K = V = 128 (acceptance 2).
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "$gpu, driver $(nvidia-smi --query-gpu=driver_version --format=csv,noheader)"; date -u
D=/tmp/dev; mkdir -p $D && for b in s61p cpx; do [ -d $D/$b ] || [ -d $D/gen/cpx -a $b = cpx ] || tar xJf .device/$b.tar.xz -C $D; done
N=$D/s61p
for r in 1 2; do
  timeout 110 python3 bench/gdp.py --build $N/build --designs fused,tma,entry --design-heads 32 --design-batches 8,32 \
    --no-sweep --l2norm on > $OUT/gdp$r.log 2>&1; echo "gdp $r rc=$?"; grep -E "^\|" $OUT/gdp$r.log | head -24
done
timeout 120 python3 bench/gdp.py --build $N/build --only-multi --heads 32 --l2norm on --multi "8,1" > $OUT/t8.log 2>&1
echo "t8 rc=$?"; grep -E "^\|" $OUT/t8.log | head -20
timeout 120 python3 bench/sessions/46/cpx.py $D/gen/cpx 8,32,16,128,128 2 2>&1 | tee $OUT/cpx.log | tail -16
date -u
