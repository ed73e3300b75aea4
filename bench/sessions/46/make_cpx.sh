#!/bin/bash
# The cp_fixup experiment bundle of session 46 (.device/cpx.tar.xz): bench/sessions/46/cpx.cake
# holds cp_fixup's MMA design as `cpx` with a DBG parameter (0 as shipped; 1 no conversion of
# M, 2 no stores of S but the last, 3 no wgmma, 4 no loads of L, 5 no copies of M: timing
# only, their results are wrong) and `cpy`, M in three stages converted in place (its f32
# copy two chunks ahead). `_merged` instances get their PTX's back-to-back wgmma groups
# joined into one (one wait a chunk instead of six) by editing the PTX, then embed.py puts
# the PTX and ptxas's cubin back into the launcher. Run from the repository root after
# `cmake --build build`; bench/sessions/46/cpx.py times the bundle on a GPU machine.
set -eu
rm -rf /tmp/cpx && mkdir -p /tmp/cpx
build/cakec --emit=ptx,host,cubin -o /tmp/cpx/gen/cpx bench/sessions/46/cpx.cake
python3 - <<'PY'
import re
pat = re.compile(r'wgmma\.commit_group\.sync\.aligned;\s*\nwgmma\.wait_group\.sync\.aligned 0;\s*\n\}\s*\n\s*// end inline asm\s*\n\s*// begin inline asm\s*\n\s*\{\s*\n\.reg \.pred p;\s*\nwgmma\.fence\.sync\.aligned;\s*\n')
for nm in ['cpx_f32_merged', 'cpx_bf16_merged', 'cpx_f32_inplace3m']:
    p = '/tmp/cpx/gen/cpx/%s.sm_90a.ptx' % nm
    s = open(p).read()
    open(p, 'w').write(pat.sub('', s))
PY
for nm in cpx_f32_merged cpx_bf16_merged cpx_f32_inplace3m; do
	python3 bench/sessions/46/embed.py /tmp/cpx/gen/cpx/$nm.c /tmp/cpx/gen/cpx/$nm.sm_90a.ptx
done
python3 python/cakec_torch.py build --cuda-include /usr/local/cuda/include \
	--stamp /tmp/cpx/gen/cpx/.cakec_torch/prebuilt.stamp /tmp/cpx/gen/cpx
mkdir -p .device && tar cJf .device/cpx.tar.xz -C /tmp/cpx gen
