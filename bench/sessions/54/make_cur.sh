#!/bin/bash
# make_cur.sh [BUILD]: .device/cur.tar.xz, the gdp of this checkout's build (default
# build-fast): cur/build/gen/gdp, cur/build/tests/gpu/test_gdp (stripped) and cur/COMMIT.
set -eu
cd "$(dirname "$0")/../../.."
build=${1:-build-fast}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p $tmp/cur/build/gen $tmp/cur/build/tests/gpu
cp -r $build/gen/gdp $tmp/cur/build/gen/
cp $build/tests/gpu/test_gdp $tmp/cur/build/tests/gpu/ && strip $tmp/cur/build/tests/gpu/test_gdp
git describe --always --dirty > $tmp/cur/COMMIT
tar cJf .device/cur.tar.xz -C $tmp cur
