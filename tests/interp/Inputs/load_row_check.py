"""load_row_check.py A O: checks load-row.cake's output o[32, 48] against its input a[256]
element by element (each output column names the input element it must hold)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import npy  # noqa: E402


def expected(a, t):
    row = []
    row += [a[64 * (t % 4) + 8 * (t // 4) + k] for k in range(8)]
    row += [a[64 + t + 3 + k] for k in range(5)]
    row += [a[4 * t + k] for k in range(4)]
    row += [a[2 * t + 1 + k] for k in range(6)]
    row += [a[128 + 16 * q + 8 * (t % 2) + k] for q in range(2) for k in range(8)]
    row += [a[12 * (t % 4) + 2 + k] for k in range(9)]
    return row


def main():
    _, a = npy.read(sys.argv[1])
    shape, o = npy.read(sys.argv[2])
    wrong = 0
    for t in range(32):
        for c, v in enumerate(expected(a, t)):
            if o[48 * t + c] != v:
                if wrong < 5:
                    print("o[%d, %d] = %r, expected %r" % (t, c, o[48 * t + c], v))
                wrong += 1
    print("o: %d of %d wrong" % (wrong, 32 * 48))


main()
