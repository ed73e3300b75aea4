#!/usr/bin/env python3
"""Session 55: sort_loads.py KERNEL.ptx: moves gdp_decode_warp's 16 state loads
(ld.global.v4.b32 from one row-0 address %rdA and a base %rdB + 512 i) to the place of the
first of them, in address order (an experiment: does the order ptxas issues them in matter
at copy bandwidth?). bench/sessions/46/embed.py then puts the PTX and ptxas's cubin into
the launcher."""
import re, sys

ptx_path = sys.argv[1]
lines = open(ptx_path).read().split("\n")
pat = re.compile(r"\s*ld\.global\.v4\.b32\s+\{[^}]*\}, \[(%rd\d+)(?:\+(\d+))?\];")
loads = [(i, pat.match(l)) for i, l in enumerate(lines)]
loads = [(i, m) for i, m in loads if m][:16]
assert len(loads) == 16, len(loads)
offs = sorted((int(m.group(2) or 0), i) for i, m in loads)
assert [o for o, _ in offs] == [512 * r for r in range(16)], offs
first = loads[0][0]
drop = {i for i, _ in loads}
out = []
for i, l in enumerate(lines):
    if i == first:
        out.extend(lines[j] for _, j in offs)
    if i not in drop:
        out.append(l)
open(ptx_path, "w").write("\n".join(out))
print("sorted 16 loads")
