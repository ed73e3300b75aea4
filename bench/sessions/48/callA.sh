#!/bin/bash
# session 48 call A: every test program of the new build, then gdp_decode_multi old against
# new (make_gdp_pipe.sh), twice in turn, 4096 heads (HV 32, batch 128), L2 norm
D=/tmp/dev; mkdir -p $D && tar xJf .device/new.tar.xz -C $D && tar xJf .device/gdpp.tar.xz -C $D
nvidia-smi --query-gpu=name,clocks.sm,driver_version --format=csv,noheader; date -u
OUT=$OUT BUNDLES=.device bash bench/compare_builds.sh tests 2>&1 | grep -v "^===" | awk '{print} /rc=/{n++} END{print n " programs"}' | grep -v " rc=0 .* 0 FAIL" | head -40
date -u
M="1,1;2,1;4,1;5,1;6,1;7,1;8,1;2,2;3,2;4,2;8,2;2,3;3,3;8,3"
for b in old new old new; do
  CAKEC_COMMIT="$b" timeout 150 python3 bench/gdp.py --build $D/$b/build --only-multi --designs multi --multi "$M" --multi-batches 128 --reps 5 --out $OUT/gdp_$b.md > $OUT/gdp_$b.log 2>&1; echo "gdp $b rc=$?"
  grep '^|' $OUT/gdp_$b.md | cut -c1-170 | head -24
done
date -u
