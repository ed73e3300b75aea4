// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// An atomic updates a tensor or shared element, not a local.
// CHECK: err-atomic-place.cake:[[@LINE+6]]:16: error: the first argument of 'atomic_add' must be a tensor or shared array element, as in x[i]
// CHECK-NEXT: {{^}}    atomic_add(count, 1);
// CHECK-NEXT: {{^}}               ^

kernel k(y: out i32[N]) threads(32) {
    var count = 0;
    atomic_add(count, 1);
    y[0] = count;
}
