#!/usr/bin/env bash
# The ssd family on a GPU machine: test_ssd (every instance and the entry point against the
# float64 recurrence), then bench/ssd.py (give it --mamba PATH, the unpacked mamba-ssm source
# distribution, and --pythonpath DIR with einops where torch's environment lacks it).
# Usage and environment: bench/run_family.sh.
exec "$(dirname "$0")/run_family.sh" ssd "$@"
