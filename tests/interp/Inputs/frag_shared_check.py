"""Checks tests/interp/frag-shared.cake's outputs against its input a[64, 128]: o1 = a
(TMA's swizzled panels read back as a fragment), o2 = a[:, :64]^T (a transposed read),
o3 = 2 a (a fragment stored into swizzled panels and read back), o4[r][c] = c (a 1-D
shared vector in every row), o5 = a[:, 64:]^T (through a plain shared f32 array), o6, o7,
o8 = a[:, :64] (paired rows on transposed shared tiles, stored back or read untransposed)."""
import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
import npy  # noqa: E402

d = sys.argv[1]
_, a = npy.read(d + "/a.npy")
at = lambda r, c: a[r * 128 + c]  # noqa: E731
want = {
    "o1": (128, lambda r, c: at(r, c)),
    "o2": (64, lambda r, c: at(c, r)),
    "o3": (128, lambda r, c: 2 * at(r, c)),
    "o4": (64, lambda r, c: c),
    "o5": (64, lambda r, c: at(c, 64 + r)),
    "o6": (64, lambda r, c: at(r, c)),
    "o7": (64, lambda r, c: at(r, c)),
    "o8": (64, lambda r, c: at(r, c)),
}
bad = 0
for name, (cols, f) in want.items():
    _, o = npy.read("%s/%s.npy" % (d, name))
    wrong = [(i // cols, i % cols) for i, v in enumerate(o) if v != f(i // cols, i % cols)]
    print("%s: %d of %d wrong%s" % (name, len(wrong), len(o), " first at %s" % (wrong[0],) if wrong else ""))
    bad += len(wrong)
sys.exit(1 if bad else 0)
