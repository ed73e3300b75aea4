#!/bin/bash
# session 50: gdp_decode_multi before (old: 2f515c8's kernels_src/gdp/gdp_decode_multi.cake,
# the input copies and the prologue as loops) and after (new: the working tree's, copies
# unrolled with the last round guarded, the prologue unrolled where a warp takes at most two
# tokens), both compiled by this build's cakec, for bench/gdp.py --only-multi. Carried as
# .device/gdpl.tar.xz. Calls 1 and 2 ran the working tree of 9169c1d (copies guarded, prologue
# unrolled); call 3 the final rule (copies unrolled only where every round is full) with
# PAIRS="2,1 3,3 4,1 4,2 5,1 6,2 7,1 8,1 8,2 8,3". (session 48's make_gdp_pipe.sh, with other commits and pairs)
set -eu
cd "$(dirname "$0")/../../.."
R=/tmp/gdpl; rm -rf $R
mkdir -p $R/srcs
git show 2f515c8:kernels_src/gdp/gdp_decode_multi.cake > $R/srcs/old.cake
cp kernels_src/gdp/gdp_decode_multi.cake $R/srcs/new.cake
for b in old new; do
  G=$R/$b/build/gen/gdp; mkdir -p $G/src
  echo "[" > $G/variants.json; first=1
  for tn in ${PAIRS:-2,1 4,1 8,1 2,2 8,2 3,3 8,3}; do T=${tn%,*}; NH=${tn#*,}
    for BV in 32 64; do
      n=gdp_t${T}_h${NH}_k128v128_bv${BV}_multi_l2_bf16
      sed -e "s/^kernel gdp_decode_multi</kernel $n</" -e '/^instance gdp_decode_multi</d' $R/srcs/$b.cake > $G/src/$n.cake
      printf '\ninstance %s<%d, %d>;\n' $n $T $NH >> $G/src/$n.cake
      build/cakec --target sm_90a --emit=ptx,host -I kernels_src/gdp -D KD=128 -D VD=128 -D BV=$BV -D L2NORM=true -o $G/$n $G/src/$n.cake
      [ $first = 1 ] || echo "," >> $G/variants.json; first=0
      echo "{\"name\": \"$n\", \"dir\": \"$n\", \"design\": \"multi\", \"T\": $T, \"NH\": $NH, \"KD\": 128, \"VD\": 128, \"BV\": $BV, \"stages\": 0, \"cps\": 0, \"l2norm\": true, \"dtype\": \"bf16\", \"staged\": 0, \"test\": false}" >> $G/variants.json
      python3 python/cakec_torch.py build --cuda-include /usr/local/cuda/include --stamp $G/$n/.cakec_torch/prebuilt.stamp $G/$n >/dev/null
    done
  done
  echo "]" >> $G/variants.json
  echo "$b $(git describe --always --dirty)" > $R/$b/COMMIT
done
tar cJf .device/gdpl.tar.xz -C $R old new; ls -la .device/gdpl.tar.xz
