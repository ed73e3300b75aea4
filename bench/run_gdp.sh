#!/usr/bin/env bash
# The gdp family on a GPU machine (docs/gdp.md): test_gdp (every variant against the
# float64 reference and bitwise against its staged twin), then bench/gdp.py (bandwidth
# against copies, staging elision on vs off, fla's fused recurrent gated delta rule).
# Usage and environment: bench/run_family.sh.
exec "$(dirname "$0")/run_family.sh" gdp "$@"
