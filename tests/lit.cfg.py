# lit configuration for cakec's tests. Run through ctest (see README), which passes the
# generated site file with --param site=...
import os
import shutil

import lit.formats

site = lit_config.params.get("site")
if site:
    exec(open(site).read())

config.name = "cakec"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".cake", ".ir", ".test"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py.in", "CMakeLists.txt"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.build_dir, "tests")

config.substitutions.append(("%cakec", config.cakec))
config.substitutions.append(("%srcroot", config.source_root))
config.substitutions.append(("%builddir", config.build_dir))
config.substitutions.append(("%cc", config.cc))
config.substitutions.append(("FileCheck", config.filecheck))
config.substitutions.append(("%not", config.not_exe))
# C test programs linked with cakec's static libraries need the flags they were built with.
sanitized = str(getattr(config, "sanitize", "")).upper() in ("ON", "1", "TRUE", "YES")
config.substitutions.append(("%sanflags", "-fsanitize=address,undefined" if sanitized else ""))
# ptxas reads the same PTX in every build: the sanitized build leaves that check to the
# plain one (kernels/all-kernels.test) and spends its time on cakec itself
config.substitutions.append(("%kernelcheck", "--no-ptxas" if sanitized else ""))
# cakec laid out by a profile after linking (CAKEC_BOLT, cmake/bolt.sh)
if str(getattr(config, "bolt", "")).upper() in ("ON", "1", "TRUE", "YES"):
    config.available_features.add("bolt")

ptxas = os.environ.get("CAKEC_PTXAS") or shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
if os.path.exists(ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
# the GPU tests' generated folders embed cubins (the build found ptxas and is not
# -DCAKEC_GPU_PTX_ONLY=ON): what tests/gpu/emu-images.test needs
try:
    with open(os.path.join(config.build_dir, "gen", "elementwise", "manifest.json")) as f:
        if '"images": "cubin+ptx"' in f.read():
            config.available_features.add("gen-cubins")
except OSError:
    pass
cuda_inc = "/usr/local/cuda/include"
if os.path.exists(os.path.join(cuda_inc, "cuda.h")):
    config.available_features.add("cuda-h")
    config.substitutions.append(("%cudainc", cuda_inc))

for var in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "CUDA_VISIBLE_DEVICES", "PATH"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
