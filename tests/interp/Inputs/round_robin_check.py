"""Checks round-robin.cake's outputs: o = 2 a (+ the row index with flag), and which
warpgroup ran each iteration."""
import sys

import os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import npy  # noqa: E402

(shape, a), (_, o), (_, w) = (npy.read(p) for p in sys.argv[1:4])
flag = int(sys.argv[4])
cols = shape[1]
wrong = sum(1 for k in range(len(a)) if o[k] != 2.0 * a[k] + (k // cols if flag else 0))
print("o: %d of %d wrong" % (wrong, len(a)))
print("w: " + " ".join(str(x) for x in w))
