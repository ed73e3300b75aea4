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

cmake -S . -B build-asan -DCAKEC_WERROR=ON -DCAKEC_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug >/dev/null
cmake --build build-asan -j "$jobs"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ctest -j "$jobs" --output-on-failure)
echo "check: all tests passed (plain and ASan/UBSan builds)"
