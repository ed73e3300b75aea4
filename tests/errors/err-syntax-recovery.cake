// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// Syntax errors: the parser reports what it expected and what it found, skips the broken
// statement (or declaration) and goes on, so one run reports every one of them.
// CHECK: err-syntax-recovery.cake:[[@LINE+17]]:13: error: syntax error, unexpected ';', expecting an expression
// CHECK-NEXT: {{^}}    let a = ;
// CHECK-NEXT: {{^}}            ^
// CHECK: err-syntax-recovery.cake:[[@LINE+16]]:5: error: syntax error, unexpected 'var'
// CHECK-NEXT: {{^}}    var c: f32 = 1.0;
// CHECK-NEXT: {{^}}    ^
// CHECK: err-syntax-recovery.cake:[[@LINE+12]]:14: note: is a ';' missing here?
// CHECK-NEXT: {{^}}    let b = 2
// CHECK-NEXT: {{^}}             ^
// CHECK: err-syntax-recovery.cake:[[@LINE+14]]:28: error: syntax error, unexpected identifier 'y', expecting 'per_rank' or ',' or ')'
// CHECK-NEXT: {{^}}kernel second(x: in f32[N] y: out f32[N]) threads(32) {
// CHECK-NEXT: {{^}}                           ^
// CHECK: err-syntax-recovery.cake:[[@LINE+15]]:24: error: syntax error, unexpected ';', expecting an expression
// CHECK-NEXT: {{^}}    y[thread.x] = 1.0 +;
// CHECK-NEXT: {{^}}                       ^

kernel first(x: in f32[N]) threads(32) {
    let a = ;
    let b = 2
    var c: f32 = 1.0;
    x[0] = c;
}

kernel second(x: in f32[N] y: out f32[N]) threads(32) {
}

kernel third(y: out f32[4]) threads(4) {
    y[thread.x] = 1.0 +;
}
