// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// Every kernel states its block size.
// CHECK: err-missing-threads.cake:[[@LINE+4]]:8: error: kernel 'k' needs a threads(...) clause giving its block size
// CHECK-NEXT: {{^}}kernel k(y: out f32[N]) grid(1) {
// CHECK-NEXT: {{^}}       ^

kernel k(y: out f32[N]) grid(1) {
    y[0] = 0.0;
}
