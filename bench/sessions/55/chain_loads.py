#!/usr/bin/env python3
"""Session 55: chain_loads.py IN.ptx OUT.ptx: gdp_decode_warp's 16 state loads ([%rd1 + 512 i],
the -O2 PTX) read through a chain of addresses a_i = a_(i-1) + stride, the stride 256 *
%nctaid.x (= 512 bytes at VD / BV = 2, a value ptxas cannot fold), so that each row's
address is ready after the one before and ptxas issues the rows about in order (rows 1..9,
0, 10..15 in its SASS) as it did from 550a03e's PTX, where each row had an address of its
own. An experiment for section 55's hypothesis (the rows' issue order is warp's 7%)."""
import re, sys

L = open(sys.argv[1]).read().split("\n")
pat = re.compile(r"(\s*ld\.global\.v4\.b32\s+\{[^}]*\}, )\[%rd1(?:\+(\d+))?\];")
idx = [i for i, l in enumerate(L) if pat.match(l)]
assert len(idx) == 16, len(idx)
pre = ["\tmov.u32 \t%cx0, %nctaid.x;", "\tmul.wide.u32 \t%cs, %cx0, 256;", "\tmov.b64 \t%ca0, %rd1;"]
pre += ["\tadd.s64 \t%%ca%d, %%ca%d, %%cs;" % (i, i - 1) for i in range(1, 16)]
out = []
for i, l in enumerate(L):
    if i == idx[0]:
        out += pre
    m = pat.match(l)
    out.append(m.group(1) + "[%%ca%d];" % (int(m.group(2) or 0) // 512) if m else l)
s = "\n".join(out).replace("\t.reg .b64 \t%rd<", "\t.reg .b32 %cx0;\n\t.reg .b64 %cs;\n\t.reg .b64 %ca<16>;\n\t.reg .b64 \t%rd<", 1)
open(sys.argv[2], "w").write(s)
