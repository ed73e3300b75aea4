#!/bin/bash
# session 48 call E: cp_fixup_mma's M copies with their row and column written apart:
# test_cp_fixup of the new build, then cp_fixup.py --quick base (18041b1) then new, twice
D=/tmp/dev; mkdir -p $D && for b in base new; do tar xJf .device/$b.tar.xz -C $D; done
nvidia-smi --query-gpu=name,clocks.sm,driver_version --format=csv,noheader; date -u
CAKE_GPU_TEST_REQUIRE=1 timeout 200 $D/new/build/tests/gpu/test_cp_fixup > $OUT/test_cp_fixup.log 2>&1; echo "test_cp_fixup rc=$? $(grep -c '^PASS' $OUT/test_cp_fixup.log) PASS $(grep -c '^FAIL' $OUT/test_cp_fixup.log) FAIL"; grep -m4 "mma" $OUT/test_cp_fixup.log; tail -1 $OUT/test_cp_fixup.log
date -u
for r in 1 2; do OUT=$OUT BUNDLES=.device bash bench/compare_builds.sh cpf2 2>&1 | grep -E "rc=|B8 H32|^\| shape" | cut -c1-200; done
date -u
