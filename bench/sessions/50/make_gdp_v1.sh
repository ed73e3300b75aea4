#!/bin/bash
# session 50: a third build for call 2, v1: gdp_decode_multi with only the input copies
# unrolled (gdp_decode_multi_copies_only.cake here; the prologue a loop as before), the
# same pairs and layout as make_gdp_loops.sh. Carried as .device/gdpv1.tar.xz.
set -eu
cd "$(dirname "$0")/../../.."
R=/tmp/gdpv1; rm -rf $R
b=v1; G=$R/$b/build/gen/gdp; mkdir -p $G/src
echo "[" > $G/variants.json; first=1
for tn in 2,1 4,1 8,1 2,2 8,2 3,3 8,3; do T=${tn%,*}; NH=${tn#*,}
  for BV in 32 64; do
    n=gdp_t${T}_h${NH}_k128v128_bv${BV}_multi_l2_bf16
    sed -e "s/^kernel gdp_decode_multi</kernel $n</" -e '/^instance gdp_decode_multi</d' bench/sessions/50/gdp_decode_multi_copies_only.cake > $G/src/$n.cake
    printf '\ninstance %s<%d, %d>;\n' $n $T $NH >> $G/src/$n.cake
    build/cakec --target sm_90a --emit=ptx,host -I kernels_src/gdp -D KD=128 -D VD=128 -D BV=$BV -D L2NORM=true -o $G/$n $G/src/$n.cake
    [ $first = 1 ] || echo "," >> $G/variants.json; first=0
    echo "{\"name\": \"$n\", \"dir\": \"$n\", \"design\": \"multi\", \"T\": $T, \"NH\": $NH, \"KD\": 128, \"VD\": 128, \"BV\": $BV, \"stages\": 0, \"cps\": 0, \"l2norm\": true, \"dtype\": \"bf16\", \"staged\": 0, \"test\": false}" >> $G/variants.json
    python3 python/cakec_torch.py build --cuda-include /usr/local/cuda/include --stamp $G/$n/.cakec_torch/prebuilt.stamp $G/$n >/dev/null
  done
done
echo "]" >> $G/variants.json
echo "$b $(git describe --always --dirty)" > $R/$b/COMMIT
tar cJf .device/gdpv1.tar.xz -C $R v1; ls -la .device/gdpv1.tar.xz
