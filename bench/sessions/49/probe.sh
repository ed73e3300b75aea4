#!/bin/bash
# session 49, first call: which GPU came; on an H200 only, issue 17's high-parallelism shape
# (B8 H32 C16 K = V = 128) with the shipped build (cur, HEAD's bundle) and session 46's
# cp_fixup variants (cpx: L by TMA, merged wgmma groups, M in three stages), side by side.
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader)
echo "$gpu"
case "$gpu" in *H200*) ;; *) echo "not an H200: nothing run"; exit 0;; esac
D=/tmp/dev; mkdir -p $D
tar xJf .device/cur.tar.xz -C $D && tar xJf .device/cpx.tar.xz -C $D
cat $D/cur/COMMIT
python3 bench/cp_fixup.py --build $D/cur/build --shapes "8,32,16,128,128;8,32,16,128,64;8,32,16,64,64" --out $OUT/cpf.md 2>&1 | tail -20
python3 bench/sessions/46/cpx.py $D/gen/cpx 8,32,16,128,128 3 2>&1 | tail -30
