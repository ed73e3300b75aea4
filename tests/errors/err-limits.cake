// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// Limits instead of blow-ups (docs/language.md, "Limits"): nested full unrolls multiply,
// and a kernel may have at most 8192 operations counting each copy an unroll makes; the
// error is at the outermost unroll.

kernel nested(x: in f32[N], y: out f32[N]) threads(32) {
    for (i in 0 .. 64) unroll {
        for (j in 0 .. 64) unroll {
            for (l in 0 .. 64) unroll {
                y[i * 4096 + j * 64 + l] = x[l];
            }
        }
    }
}
// CHECK: err-limits.cake:7:5: error: the kernel has more than 8192 operations (each copy an unroll makes counted): unroll by a factor instead (for[N]), or split the kernel
// CHECK-NEXT: {{^}}    for (i in 0 .. 64) unroll {
// CHECK-NEXT: {{^}}    ^

// each loop alone is far below the full-unroll limit of 4096; a factor counts its copies
kernel factors(x: in f32[N], y: out f32[N], n: i32) threads(32) {
    for (i in 0 .. n) unroll(1024) {
        for (j in 0 .. 16) unroll {
            y[i * 16 + j] = x[j];
        }
    }
}
// CHECK: err-limits.cake:21:5: error: the kernel has more than 8192 operations
