#!/bin/bash
# The A/B bundle of session 59's persistent ssd (.device/ssdp.tar.xz): base = the shipped
# kernels_src/ssd/ssd.cake, new = bench/sessions/59/ssd_persistent.cake (persistent CTAs,
# one an SM, taking heads or halves in turn; bench/RESULTS.md section 59), both compiled by
# this tree's cakec with the prebuilt Python library. Run from the repository root after
# `cmake --build build`; bench/sessions/59/call3.sh times them with bench/ssd_builds.py.
set -eu
rm -rf /tmp/ssdp && mkdir -p /tmp/ssdp/base/build/gen /tmp/ssdp/new/build/gen
build/cakec --emit=ptx,host,ir -o /tmp/ssdp/base/build/gen/ssd kernels_src/ssd/ssd.cake
build/cakec --emit=ptx,host,ir -o /tmp/ssdp/new/build/gen/ssd bench/sessions/59/ssd_persistent.cake
for v in base new; do
	python3 python/cakec_torch.py build --cuda-include /usr/local/cuda/include \
		--stamp /tmp/ssdp/$v/build/gen/ssd/.cakec_torch/prebuilt.stamp /tmp/ssdp/$v/build/gen/ssd
done
mkdir -p .device && tar cJf .device/ssdp.tar.xz -C /tmp/ssdp base new
