#!/bin/bash
# session 51: ssd ablations, to find what bounds a chunk (issue 15): copies of
# kernels_src/ssd/ssd.cake with one piece of work removed each, compiled by build/cakec
# into .device/abl.tar.xz as abl/<variant>/build/gen/ssd (bench/ssd_builds.py's layout).
# Their outputs are wrong by design; only their times mean something. Ran at 34bec16 for
# call 2 (.device/abl.tar.xz, with dtraw) and at 491d520 (dtraw committed) as
# `bash make_ablate.sh abl2` for the ablations after it.
set -eu
cd "$(dirname "$0")/../../.."
name=${1:-abl}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
src=kernels_src/ssd/ssd.cake
variant() {     # NAME SED-SCRIPT
	mkdir -p "$tmp/abl/$1/build/gen"
	sed "$2" $src > "$tmp/$1.cake"
	if [ "$1" != base ] && cmp -s $src "$tmp/$1.cake"; then echo "variant $1 changes nothing" >&2; exit 1; fi
	build/cakec --emit=ptx,cubin,host -o "$tmp/abl/$1/build/gen/ssd" "$tmp/$1.cake"
}
variant base ''
variant no_gm '/gm = wgmma(gm, sc.rows/d'
variant no_oi '/oi = wgmma(oi, sc.rows/d'
variant no_exp 's/let p = gm \* exp2(e);/let p = gm;/'
variant no_px '/o = wgmma(o, Ta(p), sx.T);/d'
variant no_state_mma '/hs = wgmma(hs, Ta(fragment(sx.T/d'
variant no_dx '/o = o + fragment(sx, \[0, 0\], 64) \* dh;/d'
# warp 1 keeps the next chunk's dt raw (T) across the loop and converts it where it is used:
# the load's wait moves from right after the load to the next chunk
grep -q 'var n0: T' $src || variant dtraw 's/var n\([01]\): f32 = 0.0;/var n\1: T = 0.0;/; s/n\([01]\) = f32(\(dt\[[^]]*\]\));/n\1 = \2;/; s/let r\([01]\) = n\([01]\);/let r\1 = f32(n\2);/'
mkdir -p .device
mv "$tmp/abl" "$tmp/$name"
tar cJf .device/$name.tar.xz -C "$tmp" $name
ls -la .device/$name.tar.xz
