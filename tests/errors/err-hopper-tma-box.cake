// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// TMA boxes: 1 to 5 dimensions, as many as the tensor's, each 1..256 elements; the inner
// dimension a multiple of 16 bytes and, with a swizzle, at most the swizzle span; swizzle
// none, 32, 64 or 128; oob(nan) or oob(zero).

kernel k(a: in bf16[M, K], f: in f32[A, B, C, D, E, F]) targets(sm_90a) threads(128) {
    tensormap t1 = tma(a, box[512, 64]);
    tensormap t2 = tma(a, box[64, 12]);
    tensormap t3 = tma(a, box[64, 128], swizzle(128));
    tensormap t4 = tma(f, box[1, 1, 1, 1, 1, 8]);
    tensormap t5 = tma(a, box[64]);
    tensormap t6 = tma(a, box[64, 64], swizzle(16));
    tensormap t7 = tma(a, box[64, 64], oob(inf));
    tensormap t8 = tmx(a, box[64, 64]);
    tensormap t9 = tma(K, box[64]);
    tensormap t10 = tma(a, box[0, 64]);
    let x = tma(a, box[64, 64]);
    if (true) {
        tensormap t11 = tma(a, box[64, 64]);
    }
}

// CHECK: err-hopper-tma-box.cake:7:31: error: TMA box dimension 1 of 't1' is 512, expected 1 to 256
// CHECK-NEXT: {{^}}    tensormap t1 = tma(a, box[512, 64]);
// CHECK-NEXT: {{^}}                              ^
// CHECK: err-hopper-tma-box.cake:8:30: error: TMA box inner dimension of 't2' is 24 bytes (12 x bf16), expected a multiple of 16
// CHECK-NEXT: {{^}}    tensormap t2 = tma(a, box[64, 12]);
// CHECK-NEXT: {{^}}                             ^
// CHECK: err-hopper-tma-box.cake:9:30: error: TMA box inner dimension of 't3' is 256 bytes but 128B swizzle allows at most 128
// CHECK-NEXT: {{^}}    tensormap t3 = tma(a, box[64, 128], swizzle(128));
// CHECK-NEXT: {{^}}                             ^
// CHECK: err-hopper-tma-box.cake:10:30: error: a TMA box has 1 to 5 dimensions, found 6
// CHECK-NEXT: {{^}}    tensormap t4 = tma(f, box[1, 1, 1, 1, 1, 8]);
// CHECK-NEXT: {{^}}                             ^
// CHECK: err-hopper-tma-box.cake:11:30: error: the box of tensor map 't5' has 1 dimension but tensor 'a' has 2
// CHECK-NEXT: {{^}}    tensormap t5 = tma(a, box[64]);
// CHECK-NEXT: {{^}}                             ^
// CHECK: err-hopper-tma-box.cake:12:48: error: swizzle must be none, 32, 64 or 128 (bytes), found 16
// CHECK-NEXT: {{^}}    tensormap t6 = tma(a, box[64, 64], swizzle(16));
// CHECK-NEXT: {{^}}                                               ^
// CHECK: err-hopper-tma-box.cake:13:44: error: oob(...) takes nan or zero (what reads outside the tensor give)
// CHECK-NEXT: {{^}}    tensormap t7 = tma(a, box[64, 64], oob(inf));
// CHECK-NEXT: {{^}}                                           ^
// CHECK: err-hopper-tma-box.cake:14:20: error: a tensor map is made by tma(TENSOR, box[...], swizzle(N)), as in 'tensormap t8 = tma(a, box[128, 64], swizzle(128));'
// CHECK-NEXT: {{^}}    tensormap t8 = tmx(a, box[64, 64]);
// CHECK-NEXT: {{^}}                   ^
// CHECK: err-hopper-tma-box.cake:15:24: error: tma(...) takes a tensor parameter first, but 'K' is a shape symbol
// CHECK-NEXT: {{^}}    tensormap t9 = tma(K, box[64]);
// CHECK-NEXT: {{^}}                       ^
// CHECK: err-hopper-tma-box.cake:16:32: error: TMA box dimension 1 of 't10' is 0, expected 1 to 256
// CHECK-NEXT: {{^}}    tensormap t10 = tma(a, box[0, 64]);
// CHECK-NEXT: {{^}}                               ^
// CHECK: err-hopper-tma-box.cake:17:13: error: tma(...) makes a tensor map: tensormap NAME = tma(TENSOR, box[...], swizzle(N));
// CHECK-NEXT: {{^}}    let x = tma(a, box[64, 64]);
// CHECK-NEXT: {{^}}            ^
// CHECK: err-hopper-tma-box.cake:19:19: error: tensor maps are declared at the top level of the kernel body
// CHECK-NEXT: {{^}}        tensormap t11 = tma(a, box[64, 64]);
// CHECK-NEXT: {{^}}                  ^
