// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// A type name that does not exist.
// CHECK: err-unknown-type.cake:[[@LINE+5]]:14: error: unknown type 'float'
// CHECK-NEXT: {{^}}    var acc: float = 0.0;
// CHECK-NEXT: {{^}}             ^

kernel k(y: out f32[N]) threads(32) {
    var acc: float = 0.0;
    y[0] = acc;
}
