#!/bin/bash
# session 51: narrow-carry's A/B bundle (.device/ncb.tar.xz): ssd.cake as it was before
# 491d520 (dt converted right after its prefetch) compiled by a cakec without the pass
# (OLD, e.g. a build of 491d520) into ncb/passoff and by one with it (NEW, 7ffb7e8 or later)
# into ncb/passon, bench/ssd_builds.py's layout. Timed with
#   python3 bench/sessions/51/ssd_ab.py /tmp/dev/ncb/passoff/build/gen/ssd /tmp/dev/ncb/passon/build/gen/ssd /tmp/dev/new2/build/gen/ssd
# Usage: make_ncb.sh OLD_CAKEC NEW_CAKEC
set -eu
cd "$(dirname "$0")/../../.."
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
git show 491d520~1:kernels_src/ssd/ssd.cake > "$tmp/ssd_old.cake"
"$1" --emit=ptx,cubin,host -o "$tmp/ncb/passoff/build/gen/ssd" "$tmp/ssd_old.cake"
"$2" --emit=ptx,cubin,host -o "$tmp/ncb/passon/build/gen/ssd" "$tmp/ssd_old.cake"
mkdir -p .device
tar cJf .device/ncb.tar.xz -C "$tmp" ncb
ls -la .device/ncb.tar.xz
