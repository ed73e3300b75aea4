#!/bin/bash
# session 49: the ssd A/B bundle (.device/ssx.tar.xz): gen/base, the ssd family of HEAD's
# bundle (.device/cur.tar.xz, bench/make_bundle.sh cur), and gen/new, this tree's
# build/gen/ssd (ssd with the two-segment split and its workspace). Run from the repository
# root after `cmake --build build`; bench/sessions/49/ssd_split.py times them on a GPU.
set -eu
rm -rf /tmp/ssx && mkdir -p /tmp/ssx/gen /tmp/ssx/cur
tar xJf .device/cur.tar.xz -C /tmp/ssx/cur
cp -r /tmp/ssx/cur/cur/build/gen/ssd /tmp/ssx/gen/base
cp -r build/gen/ssd /tmp/ssx/gen/new
for d in base new; do
	python3 python/cakec_torch.py build --cuda-include /usr/local/cuda/include \
		--stamp /tmp/ssx/gen/$d/.cakec_torch/prebuilt.stamp /tmp/ssx/gen/$d
done
mkdir -p .device && tar cJf .device/ssx.tar.xz -C /tmp/ssx gen
ls -la .device/ssx.tar.xz
