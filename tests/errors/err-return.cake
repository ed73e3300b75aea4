// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// No return yet: a kernel ends at its closing brace.
// CHECK: err-return.cake:[[@LINE+7]]:9: error: 'return' is not supported: a kernel ends at its closing brace (put the rest in an if)
// CHECK-NEXT: {{^}}        return;
// CHECK-NEXT: {{^}}        ^

kernel k(x: in f32[N], y: out f32[N]) threads(32) {
    let i = block.x * 32 + thread.x;
    if (i >= N) {
        return;
    }
    y[i] = x[i];
}
