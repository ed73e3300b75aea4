#!/bin/bash
# session 45: gdp_decode_multi at T = 5..8, 3_2, 4_2, 2_3 (BV 32, 64), compiled with the
# defaults (def) and with -D TFULL=4 -D TPART=2 (tf4), for bench/gdp.py --only-multi
set -eu
cd "$(dirname "$0")/../../.."
R=/tmp/gdpu2; rm -rf $R; 
for b in def tf4; do
  G=$R/$b/build/gen/gdp; mkdir -p $G/src
  extra=""; [ $b = tf4 ] && extra="-D TFULL=4 -D TPART=2"
  echo "[" > $G/variants.json; first=1
  for tn in 5,1 6,1 7,1 8,1 3,2 4,2 2,3; do T=${tn%,*}; NH=${tn#*,}
    for BV in 32 64; do
      n=gdp_t${T}_h${NH}_k128v128_bv${BV}_multi_l2_bf16
      sed -e "s/^kernel gdp_decode_multi</kernel $n</" -e '/^instance gdp_decode_multi</d' kernels_src/gdp/gdp_decode_multi.cake > $G/src/$n.cake
      printf '\ninstance %s<%d, %d>;\n' $n $T $NH >> $G/src/$n.cake
      build/cakec --target sm_90a --emit=ptx,host -I kernels_src/gdp -D KD=128 -D VD=128 -D BV=$BV -D L2NORM=true $extra -o $G/$n $G/src/$n.cake
      [ $first = 1 ] || echo "," >> $G/variants.json; first=0
      echo "{\"name\": \"$n\", \"dir\": \"$n\", \"design\": \"multi\", \"T\": $T, \"NH\": $NH, \"KD\": 128, \"VD\": 128, \"BV\": $BV, \"stages\": 0, \"cps\": 0, \"l2norm\": true, \"dtype\": \"bf16\", \"staged\": 0, \"test\": false}" >> $G/variants.json
      python3 python/cakec_torch.py build --cuda-include /usr/local/cuda/include --stamp $G/$n/.cakec_torch/prebuilt.stamp $G/$n >/dev/null
    done
  done
  echo "]" >> $G/variants.json
  git describe --always --dirty > $R/$b/COMMIT; echo "$b $extra" >> $R/$b/COMMIT
done
tar cJf .device/gdpu.tar.xz -C $R def tf4; ls -la .device/gdpu.tar.xz
