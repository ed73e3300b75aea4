#!/usr/bin/env bash
# The vsa family on a GPU machine: test_vsa (every instance and the entry point against the
# float64 reference), then bench/vsa.py. Usage and environment: bench/run_family.sh.
exec "$(dirname "$0")/run_family.sh" vsa "$@"
