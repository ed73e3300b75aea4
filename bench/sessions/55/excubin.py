#!/usr/bin/env python3
"""Session 55: excubin.py LAUNCHER.c OUT.cubin: the sm_90a cubin a cakec launcher embeds,
written out for cuobjdump -sass (what the launcher loads is what is timed)."""
import re, sys

src = open(sys.argv[1]).read()
m = re.search(r"_cubin_sm_90a\[(\d+)\] = \{(.*?)\};", src, re.S)
data = bytes(int(x, 16) for x in re.findall(r"0x[0-9a-f]{2}", m.group(2)))
assert len(data) == int(m.group(1)), (len(data), m.group(1))
open(sys.argv[2], "wb").write(data)
