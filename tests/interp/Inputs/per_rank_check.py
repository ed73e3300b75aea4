"""Checks per-rank.cake's gathers: c[r M + i, j] is element (i, j) of rank r's tensor,
whose element (i, j) the test made r * 10000 + i * K + j. Prints 'ok' and the row count,
or the first wrong element."""
import sys

from npy import read

shape, c = read(sys.argv[1])
ranks = int(sys.argv[2])
rows, k = shape
m = rows // ranks
for row in range(rows):
    for j in range(k):
        want = (row // m) * 10000 + (row % m) * k + j
        if c[row * k + j] != want:
            print("wrong c[%d, %d]: %r, expected %r" % (row, j, c[row * k + j], want))
            sys.exit(1)
print("ok %d rows" % rows)
