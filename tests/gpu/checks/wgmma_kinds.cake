// wgmma_kinds: wgmma's 8-bit and 32-bit operand kinds (e4m3, e5m2: m64nNk32; f32 read as
// tf32: m64nNk8), checked on the GPU and under the interpreter by check_wgmma_kinds.c. One
// CTA of one warpgroup copies the operands with plain loads into 128-byte-swizzled shared
// arrays (a row is one 128-byte swizzle span: KD = 128 fp8 or 32 f32 elements; element
// (r, k) sits in 16-byte chunk (k / CH) ^ (r % 8) of row r, CH elements a chunk, the layout
// TMA writes for swizzle(128)), then
//   c  = a * b^T                     (SS, 64 x 64: KD / k instructions)
//   c8 = a * b8^T + a * b8^T         (SS, 64 x 8, two groups into one accumulator)
// Here (lit, no GPU): the kernels compile and ptxas assembles them with no spills.
// REQUIRES: ptxas
// RUN: rm -rf %t && %cakec --emit=ptx -o %t %s
// RUN: %ptxas -v -arch=sm_90a %t/wgmma_e4m3.sm_90a.ptx -o %t/a.cubin 2>&1 | FileCheck %s --implicit-check-not=Performance
// RUN: %ptxas -v -arch=sm_90a %t/wgmma_e5m2.sm_90a.ptx -o %t/b.cubin 2>&1 | FileCheck %s --implicit-check-not=Performance
// RUN: %ptxas -v -arch=sm_90a %t/wgmma_tf32.sm_90a.ptx -o %t/c.cubin 2>&1 | FileCheck %s --implicit-check-not=Performance
// RUN: FileCheck --check-prefix=PTX %s < %t/wgmma_e4m3.sm_90a.ptx
// RUN: FileCheck --check-prefix=TF32 %s < %t/wgmma_tf32.sm_90a.ptx
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTX-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3 {{.*}}, p, 1, 1;
// PTX-COUNT-8: wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e4m3 {{.*}}, p, 1, 1;
// TF32-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {{.*}}, p, 1, 1;

kernel wgmma_kind<T: e4m3 | e5m2 | f32, KD: i32, CH: i32>(a: in T[64, KD], b: in T[64, KD], b8: in T[8, KD],
                                                         c: out f32[64, 64], c8: out f32[64, 8])
    targets(sm_90a) threads(128)
{
    shared sa: T[64, KD] swizzle(128);
    shared sb: T[64, KD] swizzle(128);
    shared sb8: T[8, KD] swizzle(128);
    for (i in thread.x .. 64 * KD step 128) {
        let r = i / KD;
        let k = i % KD;
        let col = ((k / CH) ^ (r & 7)) * CH + k % CH;
        sa[r, col] = a[r, k];
        sb[r, col] = b[r, k];
        if (r < 8) {
            sb8[r, col] = b8[r, k];
        }
    }
    fence_proxy_async();
    barrier();
    var acc: f32acc[64, 64] = 0.0;
    acc = wgmma(acc, sa, sb);
    var acc8: f32acc[64, 8] = 0.0;
    acc8 = wgmma(acc8, sa, sb8);
    acc8 = wgmma(acc8, sa, sb8);
    store(c, acc, [0, 0]);
    store(c8, acc8, [0, 0]);
}

instance wgmma_kind<e4m3, 128, 16> as wgmma_e4m3;
instance wgmma_kind<e5m2, 128, 16> as wgmma_e5m2;
instance wgmma_kind<f32, 32, 4> as wgmma_tf32;
