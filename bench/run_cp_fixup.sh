#!/usr/bin/env bash
# The cp_fixup family on a GPU machine (docs/cp_fixup.md): test_cp_fixup (every instance
# and the entry point against the float64 reference), then bench/cp_fixup.py (the
# instances and the entry point against a torch.baddbmm loop and the memory floor).
# Usage and environment: bench/run_family.sh.
exec "$(dirname "$0")/run_family.sh" cp_fixup "$@"
