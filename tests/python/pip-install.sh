#!/bin/sh
# pip-install.sh [BUILD] [GEN...]: `pip install ./python` into a fresh virtual environment,
# then imports the helpers from there (not from the checkout) and runs cakec_torch's CPU
# tests (no torch or GPU needed: layouts, grids, validation errors) against the installed
# module on the generated folders GEN (default: out/elementwise, from tools/setup.sh).
# Needs python3-venv and PyPI (for setuptools); .ci/run runs it.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
[ $# -eq 0 ] || shift
[ $# -gt 0 ] || set -- "$root/out/elementwise"
venv=$build/pip-venv
rm -rf "$venv"
python3 -m venv "$venv"
# from a copy: setuptools writes build/ and *.egg-info beside the sources
rm -rf "$build/pip-src" && cp -r "$root/python" "$build/pip-src"
"$venv/bin/pip" install -q "$build/pip-src"
cd "$build"
"$venv/bin/python" - "$root" <<'PY'
import os, re, sys
import cakec_run, cakec_torch
root = sys.argv[1]
for m in (cakec_run, cakec_torch):
    assert "site-packages" in m.__file__, m.__file__
from importlib.metadata import version
want = re.search(r"project\(cakec VERSION ([0-9.]+)", open(os.path.join(root, "CMakeLists.txt")).read()).group(1)
assert version("cakec-helpers") == want, (version("cakec-helpers"), want)
print("pip-install: installed cakec-helpers %s: %s, %s" % (want, cakec_torch.__file__, cakec_run.__file__))
PY
CAKEC_TEST_INSTALLED=1 "$venv/bin/python" "$root/python/test_cakec_torch.py" \
	$(for g in "$@"; do printf -- '--gen %s ' "$g"; done) | tail -3
