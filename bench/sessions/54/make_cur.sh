#!/bin/bash
# make_cur.sh [BUILD] [NAME]: .device/NAME.tar.xz (NAME default cur), the gdp of this
# checkout's build (default build-fast): NAME/build/gen/gdp, NAME/build/tests/gpu/test_gdp
# (stripped) and NAME/COMMIT. Session 55 makes its `fix` bundle with it.
set -eu
cd "$(dirname "$0")/../../.."
build=${1:-build-fast}
name=${2:-cur}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p $tmp/$name/build/gen $tmp/$name/build/tests/gpu
cp -r $build/gen/gdp $tmp/$name/build/gen/
cp $build/tests/gpu/test_gdp $tmp/$name/build/tests/gpu/ && strip $tmp/$name/build/tests/gpu/test_gdp
git describe --always --dirty > $tmp/$name/COMMIT
tar cJf .device/$name.tar.xz -C $tmp $name
