#!/usr/bin/env bash
# Sets up cakec on a fresh Debian 12 machine: installs whatever is missing (needs root or
# sudo for apt-get), builds cakec into build/, and compiles every kernel in kernels_src/ for
# every target it lists (sm_90a, sm_100a, sm_103a) into out/ (PTX, host launchers, manifest; cubins too when
# ptxas is installed). Usage: tools/setup.sh [OUTDIR]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-out}

need=()
command -v cmake >/dev/null || need+=(cmake)
command -v make >/dev/null || need+=(make)
command -v cc >/dev/null || need+=(gcc libc6-dev)
command -v flex >/dev/null || need+=(flex)
command -v bison >/dev/null || need+=(bison)
command -v python3 >/dev/null || need+=(python3)
[ -f /usr/lib/llvm-22/lib/cmake/llvm/LLVMConfig.cmake ] || need+=(llvm-22-dev)
[ -x /usr/lib/llvm-22/bin/FileCheck ] || need+=(llvm-22-tools)
[ -x /usr/lib/llvm-22/bin/llvm-bolt ] || need+=(bolt-22)   # lays cakec out by a profile (cmake/bolt.sh)
command -v groff >/dev/null || need+=(groff-base)   # the man page test renders docs/cakec.1
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing ${need[*]}"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi

jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j "$jobs"

ptxas=${CAKEC_PTXAS:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}
emit=ptx,host
if [ -x "$ptxas" ]; then emit=ptx,cubin,host; else echo "setup: no ptxas found: writing PTX only (no cubins)"; fi

rm -rf "$out"
mkdir -p "$out"
# one cakec run per family, so each out/<family>/manifest.json lists all of its kernels
n=0
for dir in $(find kernels_src -mindepth 1 -maxdepth 1 -type d | sort); do
  # a file without a kernel is a library the others import (kernels_src/gdp/gdp_math.cake)
  files=$(find "$dir" -name '*.cake' | sort | xargs -r grep -l '^kernel[[:space:]]' || true)
  [ -n "$files" ] || continue
  family=$(basename "$dir")
  # a family's kernels may list fewer targets (wgmma is Hopper-only): no --target here
  ./build/cakec --emit=$emit -o "$out/$family" $files
  n=$((n + $(echo "$files" | wc -l)))
done
echo "setup: built build/cakec and compiled $n kernel files into $out/ ($emit)"
