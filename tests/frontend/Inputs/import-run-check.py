"""import-run-check.py X.npy Y.npy: prints ok when Y holds X * X (f32, .npy version 1)."""
import struct
import sys


def floats(path):
    d = open(path, "rb").read()
    n = struct.unpack("<H", d[8:10])[0]
    body = d[10 + n:]
    return struct.unpack("<%df" % (len(body) // 4), body)


x, y = floats(sys.argv[1]), floats(sys.argv[2])
sq = [struct.unpack("<f", struct.pack("<f", v * v))[0] for v in x]
print("ok" if len(x) == len(y) == 100 and list(y) == sq else "mismatch")
