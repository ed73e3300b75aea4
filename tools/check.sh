#!/usr/bin/env bash
# Runs every test: builds cakec with warnings as errors and runs the lit suite through ctest,
# then does the same under AddressSanitizer and UndefinedBehaviorSanitizer.
# Usage: tools/check.sh   (run tools/setup.sh once first on a fresh machine)
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)

cmake -S . -B build -DCAKEC_WERROR=ON >/dev/null
cmake --build build -j "$jobs"
(cd build && ctest -j "$jobs" --output-on-failure)

# -O1, as ASan's documentation advises: the interpreter's tests (tests/interp/kernels.test)
# run 2.5 times faster than at -O0, which keeps CI under its 30 minutes
# PTX-only launchers in gen/ (no ptxas per generated kernel): the emulated driver runs the
# IR, and the plain build above covers the cubins (lit's gen-cubins tests)
cmake -S . -B build-asan -DCAKEC_WERROR=ON -DCAKEC_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug \
  "-DCMAKE_C_FLAGS_DEBUG=-g -O1" -DCAKEC_GPU_PTX_ONLY=ON >/dev/null
cmake --build build-asan -j "$jobs"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ctest -j "$jobs" --output-on-failure)
echo "check: all tests passed (plain and ASan/UBSan builds)"
