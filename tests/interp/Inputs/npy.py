"""A .npy reader and writer for the interpreter's lit tests, without NumPy (CI has none).

    npy.py make PATH DESCR D0[,D1...] EXPR   # element i (flat) = eval(EXPR) with i bound
    npy.py print PATH                        # the shape, then a value (rank >= 2: a row) a line
    npy.py bits PATH                         # every element's bits in hex, on one line
"""
import struct
import sys

FMT = {"|u1": "B", "<f2": "e", "<f4": "f", "<f8": "d", "<u2": "H", "<i2": "h", "<i4": "i", "<i8": "q", "<u4": "I"}


def write(path, descr, shape, vals):
    h = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        descr, "".join("%d," % d for d in shape))
    h += " " * (63 - (10 + len(h)) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h.encode())
        f.write(struct.pack("<%d%s" % (len(vals), FMT[descr]), *vals))


def read(path):
    b = open(path, "rb").read()
    n = struct.unpack("<H", b[8:10])[0]
    d = eval(b[10:10 + n].decode())
    count = 1
    for s in d["shape"]:
        count *= s
    fmt = FMT[d["descr"]]
    return d["shape"], struct.unpack("<%d%s" % (count, fmt), b[10 + n:10 + n + count * struct.calcsize(fmt)])


if __name__ == "__main__":
    if sys.argv[1] == "make":
        shape = [int(x) for x in sys.argv[4].split(",")]
        count = 1
        for s in shape:
            count *= s
        write(sys.argv[2], sys.argv[3], shape, [eval(sys.argv[5], {"i": i}) for i in range(count)])
    elif sys.argv[1] == "bits":
        b = open(sys.argv[2], "rb").read()
        n = struct.unpack("<H", b[8:10])[0]
        size = int(eval(b[10:10 + n].decode())["descr"][2:])
        data = b[10 + n:]
        print(" ".join("%0*x" % (2 * size, int.from_bytes(data[i:i + size], "little"))
                       for i in range(0, len(data), size)))
    else:
        shape, vals = read(sys.argv[2])
        print("shape", shape)
        row = shape[-1] if len(shape) > 1 else 1    # rank >= 2: one row of the last dim a line
        for at in range(0, len(vals), row):
            print(" ".join(str(v) if isinstance(v, int) else "%.9g" % v for v in vals[at:at + row]))
