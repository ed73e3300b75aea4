// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// A character that is no token is reported, skipped, and lexing goes on.
// CHECK: err-bad-character.cake:[[@LINE+8]]:23: error: unexpected character '#'
// CHECK-NEXT: {{^}}    y[thread.x] = 1.0 # 2.0;
// CHECK-NEXT: {{^}}                      ^
// CHECK: err-bad-character.cake:[[@LINE+5]]:25: error: syntax error, unexpected float literal '2.0'
// CHECK-NEXT: {{^}}    y[thread.x] = 1.0 # 2.0;
// CHECK-NEXT: {{^}}                        ^

kernel k(y: out f32[4]) threads(4) {
    y[thread.x] = 1.0 # 2.0;
}
