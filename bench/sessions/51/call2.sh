#!/bin/bash
# session 51 call 2: ssd's ablations and the dtraw variant in CUDA graphs (ssd_ab.py), then
# ncu's per-instruction stall samples of the base build (SourceCounters, exported as CSV)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
D=/tmp/dev; mkdir -p $D && tar xJf .device/abl.tar.xz -C $D
G=""; for v in base dtraw no_gm no_oi no_exp no_px no_state_mma no_dx; do G="$G $D/abl/$v/build/gen/ssd"; done
timeout 300 python3 bench/sessions/51/ssd_ab.py $G 2>&1 | tail -6
timeout 240 ncu --kernel-name regex:ssd --launch-skip 1 --launch-count 1 --section SourceCounters --section WarpStateStats \
  -o $OUT/ssd_src python3 bench/sessions/51/ssd_once.py $D/abl/base/build/gen/ssd 1 8192 128 128 > $OUT/ncu2.log 2>&1
echo "ncu rc=$?"; tail -3 $OUT/ncu2.log
ncu --import $OUT/ssd_src.ncu-rep --page source --csv --print-source sass > $OUT/ssd_sass.csv 2> $OUT/ncu_src_err.txt
echo "export rc=$? $(wc -l < $OUT/ssd_sass.csv) lines"; head -c 600 $OUT/ncu_src_err.txt; head -3 $OUT/ssd_sass.csv | cut -c1-400
