#!/bin/bash
# make_bundle.sh NAME [BUILD]: packs what bench/compare_builds.sh runs on a GPU machine from
# one build (default build/): NAME/{build/gen, build/tests/gpu/<test programs>, cakec,
# COMMIT}, stripped, as .device/NAME.tar.xz (about 15 MB; a device call carries 64 MiB).
# Make base from one commit's build and new from another's, then carry both.
set -eu
cd "$(dirname "$0")/.."
name=$1
build=${2:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/$name/build/tests/gpu" .device
cp -r "$build/gen" "$tmp/$name/build/gen"
find "$build/tests/gpu" -maxdepth 1 -type f -perm -u+x \( -name 'test_*' -o -name first_call \) \
	-exec cp {} "$tmp/$name/build/tests/gpu/" \;
cp "$build/cakec" "$tmp/$name/cakec"
strip "$tmp/$name/cakec" "$tmp/$name/build/tests/gpu/"*
# the commit of the sources the build was made from (a worktree's, for an older build)
src=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt")
git -C "${src:-.}" describe --always --dirty > "$tmp/$name/COMMIT"
tar cJf ".device/$name.tar.xz" -C "$tmp" "$name"
ls -la ".device/$name.tar.xz"
