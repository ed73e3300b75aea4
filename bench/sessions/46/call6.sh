#!/bin/bash
# session 46 call 6 (H200 only; exits at once elsewhere): cp_fixup's variants, test_vsa and
# bench/vsa.py with padded lists at 93aa9f9 (bundle cur46), within a short budget
nvidia-smi --query-gpu=name,clocks.sm,driver_version --format=csv,noheader; date -u
nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 || { echo "not an H200: nothing run"; exit 0; }
D=/tmp/dev; mkdir -p $D && tar xJf .device/cpx.tar.xz -C $D && tar xJf .device/cur46.tar.xz -C $D
timeout 70 python3 bench/sessions/46/cpx.py $D/gen/cpx 8,32,16,128,128 1 2>&1 | tee $OUT/cpx.log | tail -13
export CAKEC_COMMIT="$(cat $D/cur46/COMMIT)"
CAKE_GPU_TEST_REQUIRE=1 timeout 25 $D/cur46/build/tests/gpu/test_vsa > $OUT/test_vsa.log 2>&1; echo "test_vsa rc=$?"; tail -1 $OUT/test_vsa.log
timeout 150 python3 bench/vsa.py --build $D/cur46/build --out $OUT/vsa_padded.md > $OUT/vsa_padded.log 2>&1; echo "vsa padded rc=$?"; grep '^|' $OUT/vsa_padded.md | cut -d'|' -f2-8,14-16 | head -18
date -u
