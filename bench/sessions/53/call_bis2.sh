#!/bin/bash
# session 53, the short form of call_bis.sh for a short device budget: 550a03e's build (O)
# against HEAD's sources compiled by b2d9bf2 (B, the same PTX as HEAD), in the order O B B O,
# at 32768 heads only (HV 64, batch 512; warp, tma and fused BV64, T = NH = 1, no L2 norm).
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
tar xJf .device/bis.tar.xz -C /tmp
export PYTHONPATH=/tmp/dev/pyp CAKEC_COMMIT=bisect
[ -d /tmp/dev/pyp ] || { mkdir -p /tmp/dev && tar xJf .device/py.tar.xz -C /tmp/dev; }
i=0
for n in O B B O; do i=$((i + 1))
  timeout 60 python3 bench/gdp.py --build /tmp/bis/$n/build --designs warp,tma,fused --design-heads 64 --design-batches 512 --no-sweep --l2norm off --out /tmp/bis_$n$i.md > /tmp/bis_$n$i.log 2>&1
  echo "== $n ($i) rc=$?"; grep -E "^T=1" /tmp/bis_$n$i.log | sed 's/  */ /g' | cut -c1-300
done
mkdir -p $OUT && tar cJf $OUT/bis2_logs.tar.xz /tmp/bis_*.md /tmp/bis_*.log 2>/dev/null
