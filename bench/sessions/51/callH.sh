#!/bin/bash
# session 51: on an H200, issue 15's and 16's benchmarks (bench/ssd.py against mamba_ssm,
# bench/vsa.py against FlexAttention and SDPA) with the new bundle; on any other GPU,
# call2.sh's ssd ablations instead.
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "$gpu, driver $(nvidia-smi --query-gpu=driver_version --format=csv,noheader)"
case "$gpu" in *H200*) ;; *) exec bash bench/sessions/51/call2.sh ;; esac
D=/tmp/dev; mkdir -p $D && tar xJf .device/new.tar.xz -C $D && tar xJf .device/py.tar.xz -C $D
cat $D/new/COMMIT; export CAKEC_COMMIT=$(cat $D/new/COMMIT)
timeout 250 python3 bench/ssd.py --build $D/new/build --mamba $D/mamba --pythonpath $D/pyp --cakec $D/new/cakec --out $OUT/ssd.md > $OUT/ssd.log 2>&1
echo "ssd rc=$?"; grep -E "^\| B" $OUT/ssd.md | cut -d'|' -f1-9
timeout 320 python3 bench/vsa.py --build $D/new/build --out $OUT/vsa.md > $OUT/vsa.log 2>&1
echo "vsa rc=$?"; grep -E "^\| B" $OUT/vsa.md | cut -d'|' -f1-12 | head -24; tail -3 $OUT/vsa.log
