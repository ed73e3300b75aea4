#!/bin/bash
# session 46 call 5 (H200 only; exits at once elsewhere): cp_fixup's variants (cpx.py), then
# ssd against mamba_ssm and vsa with compact and padded lists (93aa9f9, bundle cur46)
nvidia-smi --query-gpu=name,clocks.sm,driver_version --format=csv,noheader; date -u
nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 || { echo "not an H200: nothing run"; exit 0; }
D=/tmp/dev; mkdir -p $D && tar xJf .device/cpx.tar.xz -C $D && tar xJf .device/cur46.tar.xz -C $D && tar xJf .device/py.tar.xz -C $D
timeout 90 python3 bench/sessions/46/cpx.py $D/gen/cpx 8,32,16,128,128 2 2>&1 | tee $OUT/cpx.log | tail -13
date -u
export CAKEC_COMMIT="$(cat $D/cur46/COMMIT)"
CAKE_GPU_TEST_REQUIRE=1 timeout 25 $D/cur46/build/tests/gpu/test_vsa > $OUT/test_vsa.log 2>&1; echo "test_vsa rc=$?"; tail -1 $OUT/test_vsa.log
timeout 170 python3 bench/vsa.py --build $D/cur46/build --lists compact --out $OUT/vsa_compact.md > $OUT/vsa_compact.log 2>&1; echo "vsa compact rc=$?"; grep '^|' $OUT/vsa_compact.md | head -24
date -u
timeout 170 python3 bench/vsa.py --build $D/cur46/build --out $OUT/vsa_padded.md > $OUT/vsa_padded.log 2>&1; echo "vsa padded rc=$?"; grep '^|' $OUT/vsa_padded.md | head -24
date -u
timeout 120 python3 bench/ssd.py --build $D/cur46/build --mamba $D/mamba --pythonpath $D/pyp --cakec $D/cur46/cakec --out $OUT/ssd.md > $OUT/ssd.log 2>&1; echo "ssd rc=$?"; grep '^|' $OUT/ssd.md | head -12
date -u
