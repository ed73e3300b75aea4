#!/bin/bash
# session 48: gdp_decode_multi before (old: 18041b1's kernels_src/gdp/gdp_decode_multi.cake,
# the token loop unrolled in full up to 8 steps) and after (new: the working tree's, T > 4
# with NH = 1 rolled and pipelined by hand), both compiled by this build's cakec, for
# bench/gdp.py --only-multi. Carried as .device/gdpp.tar.xz.
set -eu
cd "$(dirname "$0")/../../.."
R=/tmp/gdpp; rm -rf $R
mkdir -p $R/srcs
git show 18041b1:kernels_src/gdp/gdp_decode_multi.cake > $R/srcs/old.cake
cp kernels_src/gdp/gdp_decode_multi.cake $R/srcs/new.cake
# (call A built the fourteen T,NH pairs 1,1 2,1 4,1 5,1 6,1 7,1 8,1 2,2 3,2 4,2 8,2 2,3 3,3 8,3;
# calls B-D the six below). new was the working tree of each call: calls A-C versions of the
# pipelined loop that were not committed (RESULTS 48 describes them), call D 217818b's kernel;
# from a later tree, add -D TFUSE=4 to the cakec line for the pipelined loop)
for b in old new; do
  G=$R/$b/build/gen/gdp; mkdir -p $G/src
  echo "[" > $G/variants.json; first=1
  for tn in 4,1 5,1 6,1 7,1 8,1 8,2; do T=${tn%,*}; NH=${tn#*,}
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
tar cJf .device/gdpp.tar.xz -C $R old new; ls -la .device/gdpp.tar.xz
