#!/bin/bash
# session 50 call 2: which half of the change makes T = 3, NH = 3 slower: old, v1 (copies
# unrolled only) and new (copies and prologue), in turn, twice
D=/tmp/dev; mkdir -p $D && for b in gdpl gdpv1; do tar xJf .device/$b.tar.xz -C $D; done
nvidia-smi --query-gpu=name,clocks.sm,driver_version --format=csv,noheader; date -u
M="3,3;8,1;8,2;8,3;4,1"
for b in old v1 new old v1 new; do
  CAKEC_COMMIT="$b" timeout 100 python3 bench/gdp.py --build $D/$b/build --only-multi --designs multi --multi "$M" --multi-batches 128 --reps 5 --out $OUT/gdp_$b.md > $OUT/gdp_$b.log 2>&1; echo "gdp $b rc=$?"
  grep '^| T' $OUT/gdp_$b.md | cut -d'|' -f2,5,6,8,17
done
date -u
