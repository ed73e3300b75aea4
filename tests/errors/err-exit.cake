// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// break and continue need a loop (not one outside the function they are in); a kernel
// returns no value; a loop that break or return may leave has no fixed trip count, so it
// cannot be unrolled.

fn f(x: f32) -> f32 {
    break;
    return x;
}

kernel k(x: in f32[N], y: out f32[N]) threads(32) {
    let i = thread.x;
    continue;
    for (j in 0 .. 4) unroll {
        if (x[j] < 0.0) {
            break;
        }
    }
    for (j in 0 .. N) {
        y[j] = f(x[j]);
    }
    return 1;
}
// CHECK: err-exit.cake:13:5: error: 'continue' outside a loop
// CHECK-NEXT: {{^}}    continue;
// CHECK: err-exit.cake:14:5: error: a loop left by 'break' or 'return' cannot be unrolled (its trip count is not known)
// CHECK: err-exit.cake:7:5: error: 'break' outside a loop
// CHECK-NEXT: {{^}}    break;
// CHECK-NEXT: {{^}}    ^
// CHECK-NEXT: err-exit.cake:20:16: note: in the call of 'f' here
// CHECK-NEXT: {{^}}        y[j] = f(x[j]);
// CHECK-NEXT: {{^}}               ^
// CHECK: err-exit.cake:22:12: error: a kernel returns no value
