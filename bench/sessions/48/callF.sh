#!/bin/bash
# session 48 call F, on the final tree (d1a6594): gdp.py --quick base (18041b1) then new, and
# the multi shapes T = 2, 4, 8 at 4096 and 16384 heads (T = 8 is the rolled loop), base then new, twice
D=/tmp/dev; mkdir -p $D && for b in base new; do tar xJf .device/$b.tar.xz -C $D; done
nvidia-smi --query-gpu=name,clocks.sm,driver_version --format=csv,noheader; date -u
python3 -c "import torch, triton; print('torch', torch.__version__, 'triton', triton.__version__)"
OUT=$OUT BUNDLES=.device bash bench/compare_builds.sh gdp > /dev/null 2>&1
tar xJf $OUT/logs.tar.xz -C $OUT && for b in base new; do echo "== gdp --quick $b"; grep '^| T' $OUT/logs/gdp_$b.md | cut -d'|' -f2,5,6,8 | head -24; done; rm -rf $OUT/logs
M="2,1;4,1;8,1"
for b in base new base new; do
  CAKEC_COMMIT="$b" timeout 120 python3 bench/gdp.py --build $D/$b/build --only-multi --designs multi --multi "$M" --multi-batches 128,512 --reps 5 --out $OUT/gdpm_$b.md > $OUT/gdpm_$b.log 2>&1; echo "gdp multi $b rc=$?"
  grep '^| T' $OUT/gdpm_$b.md | cut -d'|' -f2,5,6,8,17
done
date -u
