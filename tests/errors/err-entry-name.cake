// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// `entry NAME` names the generic kernel whose entry point the instance joins.

kernel wide<T: f32>(x: in T[N], y: out f32[N]) threads(256) grid(cdiv(N, 256)) { }
kernel plain(x: in f32[N], y: out f32[N]) threads(256) { }

instance wide<f32> as wide_f32;
instance wide<f32> as nowhere entry nothing when (N < 64);
instance wide<f32> as flat entry plain when (N < 64);
instance wide<f32> as twice entry wide entry wide;

// CHECK: err-entry-name.cake:8:37: error: there is no kernel named 'nothing' in this file: an instance joins the entry point of a generic kernel, named as the kernel
// CHECK-NEXT: instance wide<f32> as nowhere entry nothing when (N < 64);
// CHECK-NEXT:                                     ^
// CHECK: err-entry-name.cake:9:34: error: kernel 'plain' is not generic: an instance joins the entry point of a generic kernel, named as the kernel
