#!/bin/bash
# The inputs the session-45 device calls carried in .device/ (run on the development machine
# after `cmake --build build`; bench/RESULTS.md section 45):
# - cur.tar.xz: `bash bench/make_bundle.sh cur` at 3dcf9ac; new.tar.xz: the same at 550a03e
# - ssdb.tar.xz: 6346155's cakec (a worktree build) compiling 6346155's kernels_src/ssd
# - py.tar.xz: mamba_ssm's source distribution and the einops and packaging wheels
# - gdpu.tar.xz: bench/sessions/45/make_gdp_unroll.sh
set -eu
cd "$(dirname "$0")/../../.."
git worktree add -f /tmp/wt6346 6346155
(cd /tmp/wt6346 && cmake -S . -B build -DCMAKE_BUILD_TYPE=Release && cmake --build build -j2 --target cakec)
rm -rf /tmp/ssdb && mkdir -p /tmp/ssdb/base/build/gen
/tmp/wt6346/build/cakec --emit=ptx,host,ir -o /tmp/ssdb/base/build/gen/ssd /tmp/wt6346/kernels_src/ssd/ssd.cake
python3 python/cakec_torch.py build --cuda-include /usr/local/cuda/include \
	--stamp /tmp/ssdb/base/build/gen/ssd/.cakec_torch/prebuilt.stamp /tmp/ssdb/base/build/gen/ssd
tar cJf .device/ssdb.tar.xz -C /tmp/ssdb base
git worktree remove --force /tmp/wt6346
# mamba_ssm's sdist from PyPI's JSON (pip download would build its metadata, which needs torch)
rm -rf /tmp/dl && mkdir -p /tmp/dl/pk/mamba /tmp/dl/pk/pyp && cd /tmp/dl
url=$(curl -s https://pypi.org/pypi/mamba-ssm/json | python3 -c "import json,sys; print([u['url'] for u in json.load(sys.stdin)['urls'] if u['packagetype'] == 'sdist'][0])")
curl -sLO "$url" && tar xzf mamba_ssm-*.tar.gz && cp -r mamba_ssm-*/mamba_ssm pk/mamba/
pip download -q --no-deps einops packaging -d . && (cd pk/pyp && for w in ../../*.whl; do unzip -q "$w"; done)
cd - >/dev/null && tar cJf .device/py.tar.xz -C /tmp/dl/pk mamba pyp
