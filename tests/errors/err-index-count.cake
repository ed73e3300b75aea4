// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// An element access takes one index per dimension.
// CHECK: err-index-count.cake:[[@LINE+5]]:20: error: wrong number of indices for 'x': it has 2 dimensions, found 1 index
// CHECK-NEXT: {{^}}    y[thread.x] = x[thread.x];
// CHECK-NEXT: {{^}}                   ^

kernel k(x: in f32[M, N], y: out f32[M]) threads(32) {
    y[thread.x] = x[thread.x];
}
