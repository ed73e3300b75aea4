#!/bin/bash
# make_fix.sh [BUILD]: .device/fix.tar.xz, the gdp of this checkout's build (default
# build-fast; the working tree's fix of issue 12's gdp question): fix/build/gen/gdp,
# fix/build/tests/gpu/test_gdp (stripped) and fix/COMMIT.
set -eu
cd "$(dirname "$0")/../../.."
build=${1:-build-fast}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p $tmp/fix/build/gen $tmp/fix/build/tests/gpu
cp -r $build/gen/gdp $tmp/fix/build/gen/
cp $build/tests/gpu/test_gdp $tmp/fix/build/tests/gpu/ && strip $tmp/fix/build/tests/gpu/test_gdp
git describe --always --dirty > $tmp/fix/COMMIT
tar cJf .device/fix.tar.xz -C $tmp fix
ls -la .device/fix.tar.xz
