#!/bin/bash
# session 54's first device call: section 52's gdp question (bench/sessions/53/call_bis2.sh:
# 550a03e's build against HEAD's sources, O B B O at 32768 heads), then gdp_decode_fused with
# and without launch(dependent) at 1024 and 4096 heads (HV 32, batches 32 and 128, L2 norm),
# in the order cur pdl pdl cur. Bundles: bis, py, cur (HEAD's gdp), pdl (HEAD with
# `launch(dependent)` added to gdp_decode_fused: bench/sessions/54/make_pdl.sh).
cd "$(dirname "$0")/../../.."
bash bench/sessions/53/call_bis2.sh
D=/tmp/dev; mkdir -p $D $OUT
for b in cur pdl; do tar xJf .device/$b.tar.xz -C $D; done
export PYTHONPATH=$D/pyp
i=0
for b in cur pdl pdl cur; do i=$((i + 1))
  CAKEC_COMMIT=$(cat $D/$b/COMMIT) timeout 60 python3 bench/gdp.py --build $D/$b/build --designs fused,tma --design-heads 32 --design-batches 32,128 --no-sweep --l2norm on --out /tmp/p_$b$i.md > /tmp/p_$b$i.log 2>&1
  echo "== $b ($i) rc=$?"; grep -E '^T=' /tmp/p_$b$i.log | sed 's/  */ /g' | cut -c1-700
done
tar cJf $OUT/pdl_logs.tar.xz /tmp/p_*.md /tmp/p_*.log 2>/dev/null
