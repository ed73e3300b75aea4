// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// cp_async copies a tensor element or slice into a shared one of the same type, 4, 8 or
// 16 bytes; the source must be readable; cp_async_wait takes a constant group count.
// CHECK: err-cp-async.cake:19:15: error: the destination of 'cp_async' must be a shared array element or slice, as in s[i, j : 4]
// CHECK-NEXT: {{^}}    cp_async(x[0 : 4], s[0 : 4]);
// CHECK-NEXT: {{^}}              ^
// CHECK: err-cp-async.cake:20:24: error: the source of 'cp_async' must be a tensor element or slice, as in x[i, j : 4]
// CHECK: err-cp-async.cake:21:5: error: 'cp_async' copies bf16x2 into f32x2: the types must be the same
// CHECK: err-cp-async.cake:22:5: error: 'cp_async' copies 4, 8 or 16 bytes, found 2 (bf16)
// CHECK: err-cp-async.cake:23:24: error: cannot read 'o': it is an 'out' tensor (declare it 'inout' to read and write it)
// CHECK: err-cp-async.cake:24:19: error: the group count of 'cp_async_wait' must be a compile-time integer constant
// CHECK: err-cp-async.cake:25:19: error: the group count of 'cp_async_wait' must be 0 to 31, found 32
// CHECK: err-cp-async.cake:26:5: error: 'cp_async_commit' takes 0 arguments, found 1

kernel k(x: in f32[64], h: in bf16[64], o: out f32[64], n: i32) threads(32) {
    shared s: f32[64];
    shared t: bf16[64];
    var r: f32 = 0.0;
    cp_async(x[0 : 4], s[0 : 4]);
    cp_async(s[0 : 4], r);
    cp_async(s[0 : 2], h[0 : 2]);
    cp_async(t[0], h[0]);
    cp_async(s[0 : 4], o[0 : 4]);
    cp_async_wait(n);
    cp_async_wait(32);
    cp_async_commit(1);
    o[0] = r;
}
