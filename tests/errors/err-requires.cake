// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// requires(...) takes one condition over shape symbols, integer scalars, constants and
// num_sms; an integer, a condition that never holds, a name of something else and two
// conditions are errors at the clause.

kernel whole(x: in f32[N]) threads(32) requires(N * 2) {
}

kernel never(x: in f32[N]) threads(32) requires(4 > 8) {
}

kernel other(x: in f32[N], s: f32) threads(32) requires(N > s) {
}

kernel two(x: in f32[N]) threads(32) requires(N > 1, N < 9) {
}

// CHECK: err-requires.cake:6:40: error: requires(...) takes a condition (a comparison, &&, || or !), found an integer expression
// CHECK-NEXT: {{^}}kernel whole(x: in f32[N]) threads(32) requires(N * 2) {
// CHECK: err-requires.cake:9:40: error: kernel 'never' can never launch: its requires(...) condition is always false
// CHECK: err-requires.cake:12:61: error: a value in requires(...) must be an integer, but the parameter 's' has type f32
// CHECK: err-requires.cake:15:38: error: requires(...) takes one condition, found 2
