#!/bin/bash
# session 55: warp_strided.cake against the shipped warp variant on cakec's interpreter
# (cakec-run, B 1, HQK 2, HV 4, random inputs as bench/gdp.py makes them): the state and o
# after one call, relative difference (needs numpy; run from the repository root after a
# build of build-fast)
set -e
M=$PWD; T=$(mktemp -d); trap 'rm -rf $T' EXIT; cd $T
python3 - <<'PY'
import numpy as np
rng = np.random.default_rng(5)
B, T, NH, HQK, HV, K, V = 1, 1, 1, 2, 4, 128, 128
def bf(x):
    u = np.asarray(x, dtype=np.float32).view(np.uint32)
    return ((u + 0x7fff + ((u >> 16) & 1)) >> 16).astype(np.uint16)
q = rng.uniform(-1, 1, (B, T, HQK, K)); q /= np.linalg.norm(q, axis=-1, keepdims=True)
k = rng.uniform(-1, 1, (B, T, NH, HQK, K)); k /= np.linalg.norm(k, axis=-1, keepdims=True)
np.save('q.npy', bf(q)); np.save('k.npy', bf(k))
np.save('v.npy', bf(rng.uniform(-1, 1, (B, T, NH, HV, V))))
np.save('g.npy', (rng.uniform(0, 1, (B, T, HV)) * -0.69 - 0.01).astype(np.float32))
np.save('beta.npy', bf(rng.uniform(0, 1, (B, T, NH, HV)) * 0.95 + 0.05))
s = rng.uniform(-1, 1, (B, HV, K, V)).astype(np.float32)
for x in 'ab':
    np.save('s_%s.npy' % x, s); np.save('o_%s.npy' % x, np.full((B, T, HV, V), 0x7fc0, np.uint16))
np.save('s0.npy', s); np.save('inter.npy', np.zeros((B, 0, HV, K, V), np.float32))
PY
D="-D T=1 -D NH=1 -D KD=128 -D VD=128 -D BV=64 -D L2NORM=false -I $M/kernels_src/gdp"
A="q=q.npy k=k.npy v=v.npy g=g.npy beta=beta.npy inter=inter.npy scale=0.08838834764831845"
$M/build-fast/cakec-run $D --no-race-check $M/build-fast/gen/gdp/src/gdp_t1_h1_k128v128_bv64_warp_bf16.cake gdp_t1_h1_k128v128_bv64_warp_bf16 $A s=s_a.npy o=o_a.npy
$M/build-fast/cakec-run $D --no-race-check $M/bench/sessions/55/warp_strided.cake warp_strided $A s=s_b.npy o=o_b.npy
python3 - <<'PY'
import numpy as np
f = lambda u: (u.astype(np.uint32) << 16).view(np.float32)
sa, sb, s0 = np.load('s_a.npy'), np.load('s_b.npy'), np.load('s0.npy')
oa, ob = f(np.load('o_a.npy')), f(np.load('o_b.npy'))
assert not np.isnan(oa).any() and not np.isnan(ob).any() and not np.array_equal(sa, s0)
print("state: max |strided - shipped| / max |shipped| = %.1e; o: %.1e" % (
    np.abs(sa - sb).max() / np.abs(sa).max(), np.abs(oa - ob).max() / np.abs(oa).max()))
PY
