#!/bin/bash
# Two builds of cakec side by side on a GPU machine (bench/RESULTS.md section 11): a base
# and a new build, each a folder BUNDLE/{build/gen/<families>, build/tests/gpu/<programs>,
# cakec, COMMIT} made where cakec builds (copy build/gen/<families>, the test programs and
# cakec, strip them) and carried as base.tar.xz / new.tar.xz (tar of the
# folders named base/ and new/), so that both run in the same device call on the same GPU.
# Usage: bench/compare_builds.sh STAGE...   (in the repository root; OUT: where logs go)
# Stages: tests (every test program of new), naive (bench/naive.py, new), bw (bandwidth.py,
# base then new), gemm (gemm.py --quick, base then new), gemm2 (new, base, new, base with
# --reps 11), gdp (gdp.py --quick, base then new), cpf (cp_fixup.py --quick, new), cpf2
# (cp_fixup.py --quick, base then new), cspeed
# (compile_speed.py, new cakec), cscmp (compile_speed.py --compare base new).
# bench/make_bundle.sh makes the bundles. Environment: BUNDLES (folder of the .tar.xz files, default .device), OUT (default /tmp/out).
# The logs and reports go to OUT/logs/ and, at the end, into one OUT/logs.tar.xz: a device call
# brings back only the first few files under OUT, and the stages write dozens.
set -u
cd "$(dirname "$0")/.."
D=/tmp/dev
BUNDLES=${BUNDLES:-.device}
mkdir -p $D
for b in base new; do
  [ -d $D/$b ] || { [ -f "$BUNDLES/$b.tar.xz" ] && tar xJf "$BUNDLES/$b.tar.xz" -C $D; }
done
O=${OUT:-/tmp/out}/logs
mkdir -p $O
for st in "$@"; do
  echo "=== stage $st $(date -u +%H:%M:%S)"
  case $st in
  tests)
    for t in $D/new/build/tests/gpu/test_*; do
      n=$(basename $t)
      CAKE_GPU_TEST_REQUIRE=1 timeout 300 $t > $O/$n.log 2>&1; rc=$?
      echo "$n rc=$rc $(grep -c '^PASS' $O/$n.log) PASS $(grep -c '^FAIL' $O/$n.log) FAIL | $(tail -1 $O/$n.log)"
      grep -m3 '^FAIL' $O/$n.log
    done ;;
  gemm2) for b in new base new base; do CAKEC_COMMIT=$(cat $D/$b/COMMIT) timeout 200 python3 bench/gemm.py --quick --reps 11 --build $D/$b/build --out $O/gemm2_$b.md > $O/gemm2_$b.log 2>&1; echo "gemm $b rc=$?"; grep '^| .*gemm_' $O/gemm2_$b.md | cut -d'|' -f2-10; done ;;
  naive) CAKEC_COMMIT=$(cat $D/new/COMMIT) timeout 500 python3 bench/naive.py --build $D/new/build --out $O/naive.md > $O/naive.log 2>&1; echo "naive rc=$?"; tail -40 $O/naive.md ;;
  naive_base) CAKEC_COMMIT=$(cat $D/base/COMMIT) timeout 500 python3 bench/naive.py --build $D/base/build --out $O/naive_base.md > $O/naive_base.log 2>&1; echo "naive_base rc=$?"; grep -i geomet $O/naive_base.md ;;
  bw) for b in base new; do CAKEC_COMMIT=$(cat $D/$b/COMMIT) timeout 300 python3 bench/bandwidth.py --build $D/$b/build --out $O/bw_$b.md > $O/bw_$b.log 2>&1; echo "bw $b rc=$?"; done
      paste -d'\n' <(grep '^|' $O/bw_base.md) <(grep '^|' $O/bw_new.md) | cut -c1-200 ;;
  gemm) for b in base new; do CAKEC_COMMIT=$(cat $D/$b/COMMIT) timeout 300 python3 bench/gemm.py --quick --build $D/$b/build --out $O/gemm_$b.md > $O/gemm_$b.log 2>&1; echo "gemm $b rc=$?"; done
      paste -d'\n' <(grep '^|' $O/gemm_base.md) <(grep '^|' $O/gemm_new.md) | cut -c1-220 ;;
  gdp) for b in base new; do CAKEC_COMMIT=$(cat $D/$b/COMMIT) timeout 300 python3 bench/gdp.py --quick --build $D/$b/build --out $O/gdp_$b.md > $O/gdp_$b.log 2>&1; echo "gdp $b rc=$?"; done
      grep -A12 "^## Designs" $O/gdp_base.md; grep -A12 "^## Designs" $O/gdp_new.md ;;
  cpf) CAKEC_COMMIT=$(cat $D/new/COMMIT) timeout 300 python3 bench/cp_fixup.py --quick --build $D/new/build --out $O/cpf_new.md > $O/cpf_new.log 2>&1; echo "cpf rc=$?"; tail -5 $O/cpf_new.log ;;
  cpf2) for b in base new; do CAKEC_COMMIT=$(cat $D/$b/COMMIT) timeout 300 python3 bench/cp_fixup.py --quick --build $D/$b/build --out $O/cpf_$b.md > $O/cpf_$b.log 2>&1; echo "cpf $b rc=$?"; done
      paste -d'\n' <(grep '^|' $O/cpf_base.md) <(grep '^|' $O/cpf_new.md) | cut -c1-200 ;;
  cspeed) timeout 300 python3 bench/compile_speed.py --cakec $D/new/cakec --runs 11 > $O/cspeed.txt 2>&1; echo "cspeed rc=$?"; cat $O/cspeed.txt ;;
  cscmp) timeout 300 python3 bench/compile_speed.py --cakec $D/new/cakec --compare $D/base/cakec --runs 11 > $O/cscmp.txt 2>&1; echo "cscmp rc=$?"; tail -30 $O/cscmp.txt ;;
  esac
done
tar cJf "$O.tar.xz" -C "$(dirname "$O")" logs && rm -rf "$O"
echo "=== done $(date -u +%H:%M:%S) (logs in ${OUT:-/tmp/out}/logs.tar.xz)"
