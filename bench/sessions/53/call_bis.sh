#!/bin/bash
# session 53: section 52's open gdp question, at 32768 and 16384 heads only. gdp's warp BV64,
# tma BV64 c1s6 and fused BV64 from 550a03e's build (O, its own sources) and HEAD's sources
# compiled by cakec 550a03e (Z), b2d9bf2~1 (A) and b2d9bf2 (B), timed in turn, ROUNDS rounds (default 1)
# (bench/gdp.py's design comparison, T = NH = 1, no L2 norm). Bundle: bench/sessions/52/make_bis.sh.
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
tar xJf .device/bis.tar.xz -C /tmp
export PYTHONPATH=/tmp/dev/pyp CAKEC_COMMIT=bisect
[ -d /tmp/dev/pyp ] || { mkdir -p /tmp/dev && tar xJf .device/py.tar.xz -C /tmp/dev; }
for r in $(seq ${ROUNDS:-1}); do for n in O Z A B; do
  timeout 60 python3 bench/gdp.py --build /tmp/bis/$n/build --designs warp,tma,fused --design-heads 32,64 --design-batches 512 --no-sweep --l2norm off --out /tmp/bis_$n$r.md > /tmp/bis_$n$r.log 2>&1
  echo "== $n round $r rc=$?"; grep -E "^\| T" /tmp/bis_$n$r.md | awk -F'|' '{print $2 "|" $5 "|" $6 "|" $8 "|" $NF}' | cut -c1-200
done; done
mkdir -p $OUT && tar cJf $OUT/bis_logs.tar.xz /tmp/bis_*.md /tmp/bis_*.log 2>/dev/null
