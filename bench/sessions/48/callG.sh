#!/bin/bash
# session 48 call G, on the final tree (b2d31fa's kernels, the bundle of 90b3a5e's build):
# test_gdp and test_cp_fixup of the new build
D=/tmp/dev; mkdir -p $D && tar xJf .device/new.tar.xz -C $D
nvidia-smi --query-gpu=name --format=csv,noheader
for t in test_gdp test_cp_fixup; do
  CAKE_GPU_TEST_REQUIRE=1 timeout 200 $D/new/build/tests/gpu/$t > $OUT/$t.log 2>&1
  echo "$t rc=$? $(grep -c '^PASS' $OUT/$t.log) PASS $(grep -c '^FAIL' $OUT/$t.log) FAIL | $(tail -1 $OUT/$t.log)"
done
grep -m2 "t5_h1.*bitwise\|t8_h1.*bitwise" $OUT/test_gdp.log
