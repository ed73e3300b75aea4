// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s
// launch(...) takes one launch mode, dependent, once.

kernel k1(x: inout f32[N]) threads(32) launch(eager) {
    x[0] = 1.0;
}
// CHECK: err-launch.cake:4:47: error: launch(...) takes one launch mode, dependent, as in launch(dependent)
// CHECK-NEXT: {{^}}kernel k1(x: inout f32[N]) threads(32) launch(eager) {
// CHECK-NEXT: {{^}}                                              ^

kernel k2(x: inout f32[N]) threads(32) launch(dependent, dependent) {
    x[0] = 1.0;
}
// CHECK: err-launch.cake:11:40: error: launch(...) takes one launch mode, dependent, as in launch(dependent)

kernel k3(x: inout f32[N]) threads(32) launch(dependent) launch(dependent) {
    x[0] = 1.0;
}
// CHECK: err-launch.cake:16:58: error: duplicate 'launch(...)' clause
// CHECK: err-launch.cake:16:40: note: the first one is here

kernel k4(x: inout f32[N]) threads(32) launch(1) {
    x[0] = 1.0;
}
// CHECK: err-launch.cake:22:47: error: launch(...) takes one launch mode, dependent, as in launch(dependent)
