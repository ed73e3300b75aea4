#!/bin/bash
# session 55, call 2 (H200): cp_fixup's MMA variants of session 46 (bench/sessions/46/cpx.py on
# the bundle make_cpx.sh makes, rebuilt by HEAD's cakec), bench/cp_fixup.py at B8 H32 C16
# K = V = 128 (issue 17's bullet 2), then bench/vsa.py with padded and compact lists (issue 16)
# on HEAD's build (bundle cur55: bench/make_bundle.sh cur55 build-fast).
nvidia-smi --query-gpu=name,clocks.sm,driver_version --format=csv,noheader; date -u
D=/tmp/dev; mkdir -p $D && tar xJf .device/cpx.tar.xz -C $D && tar xJf .device/cur55.tar.xz -C $D
export CAKEC_COMMIT="$(cat $D/cur55/COMMIT)"
timeout 90 python3 bench/sessions/46/cpx.py $D/gen/cpx 8,32,16,128,128 2 2>&1 | tee $OUT/cpx.log | tail -14
timeout 60 python3 bench/cp_fixup.py --build $D/cur55/build --shapes "8,32,16,128,128;8,32,64,128,128" --out $OUT/cpf.md > $OUT/cpf.log 2>&1; echo "cp_fixup rc=$?"; grep '^|' $OUT/cpf.md | head -12
date -u
[ -n "$NOVSA" ] && exit 0
timeout 170 python3 bench/vsa.py --build $D/cur55/build --out $OUT/vsa_padded.md > $OUT/vsa_padded.log 2>&1; echo "vsa padded rc=$?"; grep '^|' $OUT/vsa_padded.md | head -30
date -u
timeout 170 python3 bench/vsa.py --build $D/cur55/build --lists compact --out $OUT/vsa_compact.md > $OUT/vsa_compact.log 2>&1; echo "vsa compact rc=$?"; grep '^|' $OUT/vsa_compact.md | head -30
date -u
