// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// A block comment that never ends is reported where it starts.
// CHECK: err-unterminated-comment.cake:[[@LINE+6]]:5: error: unterminated comment: '/*' has no matching '*/'
// CHECK-NEXT: {{^}}    /* the end of this comment
// CHECK-NEXT: {{^}}    ^

kernel k(y: out f32[4]) threads(4) {
    y[thread.x] = 1.0;
    /* the end of this comment
       was never written
}
