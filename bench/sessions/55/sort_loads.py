#!/usr/bin/env python3
"""Session 55: sort_loads.py LAUNCHER.c KERNEL.ptx: moves gdp_decode_warp's 16 state loads
(ld.global.v4.b32 from one row-0 address %rdA and a base %rdB + 512 i) to the place of the
first of them, in address order, assembles the PTX with ptxas and puts PTX and cubin into
the launcher in place of its own (an experiment: does the order ptxas issues them in
matter at copy bandwidth?)."""
import re, subprocess, sys, tempfile, os

launcher, ptx_path = sys.argv[1], sys.argv[2]
lines = open(ptx_path).read().split("\n")
pat = re.compile(r"\s*ld\.global\.v4\.b32\s+\{[^}]*\}, \[(%rd\d+)(?:\+(\d+))?\];")
loads = [(i, pat.match(l)) for i, l in enumerate(lines)]
loads = [(i, m) for i, m in loads if m][:16]
assert len(loads) == 16, len(loads)
offs = sorted(((int(m.group(2) or 0)), i) for i, m in loads)
assert [o for o, _ in offs] == [512 * r for r in range(16)], offs
first = loads[0][0]
moved = [lines[i] for _, i in offs]
drop = {i for i, _ in loads}
out = []
for i, l in enumerate(lines):
    if i == first:
        out.extend(moved)
    if i not in drop:
        out.append(l)
ptx = "\n".join(out)
open(ptx_path, "w").write(ptx)
with tempfile.TemporaryDirectory() as d:
    cub = os.path.join(d, "k.cubin")
    subprocess.check_call(["/usr/local/cuda/bin/ptxas", "-arch=sm_90a", "-o", cub, ptx_path])
    cubin = open(cub, "rb").read()

def arr(data):
    rows = [",".join("0x%02x" % b for b in data[i:i + 20]) for i in range(0, len(data), 20)]
    return "\t" + ",\n\t".join(rows) + "\n"

src = open(launcher).read()
pdata = ptx.encode() + b"\0"
src, n1 = re.subn(r"/\* PTX for sm_90a: \d+ bytes and a NUL\. \*/\n(static const unsigned char \w+_ptx_sm_90a)\[\d+\] = \{\n.*?\};",
                  lambda m: "/* PTX for sm_90a: %d bytes and a NUL. */\n%s[%d] = {\n%s};" % (len(pdata) - 1, m.group(1), len(pdata), arr(pdata)),
                  src, count=1, flags=re.S)
src, n2 = re.subn(r"/\* cubin for sm_90a: \d+ bytes\. \*/\n(static const unsigned char \w+_cubin_sm_90a)\[\d+\] = \{\n.*?\};",
                  lambda m: "/* cubin for sm_90a: %d bytes. */\n%s[%d] = {\n%s};" % (len(cubin), m.group(1), len(cubin), arr(cubin)),
                  src, count=1, flags=re.S)
assert n1 == 1 and n2 == 1, (n1, n2)
open(launcher, "w").write(src)
print("sorted 16 loads; cubin %d bytes" % len(cubin))
