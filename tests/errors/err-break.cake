// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// No break (or continue) yet: loops run to their bounds.
// CHECK: err-break.cake:[[@LINE+8]]:13: error: 'break' is not supported: loops run to their bounds (use a while loop with a condition)
// CHECK-NEXT: {{^}}            break;
// CHECK-NEXT: {{^}}            ^

kernel k(x: in f32[N], y: out f32[1]) threads(32) {
    var s: f32 = 0.0;
    for (i in 0 .. N) {
        if (x[i] < 0.0) {
            break;
        }
        s += x[i];
    }
    y[0] = s;
}
