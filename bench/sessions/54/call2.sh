#!/bin/bash
# session 54: gdp at T = 8 with HEAD's build (cur): bench/gdp.py's T > 1 rows (HV 32,
# batches 128 and 512, L2 norm): multi (full unroll), multi fuse4, tma c2s3 / c3s4 beside fla.
cd "$(dirname "$0")/../../.."
D=/tmp/dev; mkdir -p $D $OUT
[ -d $D/cur ] || tar xJf .device/cur.tar.xz -C $D
[ -d $D/pyp ] || tar xJf .device/py.tar.xz -C $D
export PYTHONPATH=$D/pyp
CAKEC_COMMIT=$(cat $D/cur/COMMIT) timeout ${TMAX:-150} python3 bench/gdp.py --build $D/cur/build --only-multi --heads 32 --l2norm on --multi "${PAIRS:-8,1}" --out /tmp/m_cur.md > /tmp/m_cur.log 2>&1
echo "== cur rc=$?"; grep -E '^T=' /tmp/m_cur.log | sed 's/  */ /g' | cut -c1-700; grep -i 'note\|error' /tmp/m_cur.log | head -5
tar cJf $OUT/multi_logs.tar.xz /tmp/m_cur.md /tmp/m_cur.log 2>/dev/null
