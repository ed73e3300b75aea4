#!/bin/bash
# make_pdl.sh: .device/pdl.tar.xz, HEAD's gdp with `launch(dependent)` on gdp_decode_fused
# (a worktree at HEAD, the clause added after its grid, test_gdp built: build/gen/gdp and
# test_gdp as pdl/build/..., the COMMIT file saying so).
set -eu
cd "$(dirname "$0")/../../.."
wt=/tmp/wtpdl; rm -rf $wt /tmp/bpdl; git worktree prune; git worktree add -q $wt HEAD
python3 - $wt/kernels_src/gdp/gdp_decode_fused.cake <<'P'
import sys
p = sys.argv[1]; s = open(p).read()
old = "    grid(VD / BV, HV, B)\n{"
assert s.count(old) == 1
open(p, "w").write(s.replace(old, "    grid(VD / BV, HV, B)\n    launch(dependent)\n{"))
P
cmake -S $wt -B $wt/b -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCAKEC_BOLT=OFF > /dev/null
cmake --build $wt/b --target test_gdp -j2 > /dev/null
mkdir -p /tmp/bpdl/pdl/build/gen /tmp/bpdl/pdl/build/tests/gpu
cp -r $wt/b/gen/gdp /tmp/bpdl/pdl/build/gen/
cp $wt/b/tests/gpu/test_gdp /tmp/bpdl/pdl/build/tests/gpu/ && strip /tmp/bpdl/pdl/build/tests/gpu/test_gdp
echo "$(git rev-parse --short HEAD)+fused-pdl" > /tmp/bpdl/pdl/COMMIT
tar cJf .device/pdl.tar.xz -C /tmp/bpdl pdl
