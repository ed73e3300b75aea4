// The rows of a fragment and wgmma's N-major operand B (docs/language.md, "Rows of a
// fragment"): row_max / row_sum combine the thread's lanes of each row, then the quad by
// two shfl.xor; mask_cols / mask_above select per lane against one bound per thread;
// store_rows writes from the quad's first thread, predicated; `sv.T` is a wgmma with
// imm-trans-b 1 whose descriptor carries the panel stride (the leading byte offset: 64
// rows of 128 bytes: 8192, so imm 128 | 8192 << 16) and whose k16 steps advance 16 rows.
// RUN: %cakec --target sm_90a --emit=ir %s | FileCheck %s --check-prefix=IR
// RUN: %cakec --target sm_90a --emit=ptx %s | FileCheck %s

kernel rows(lse: out f32[B, R], x: in bf16[R, 128], o: out f32[R, 128])
    targets(sm_90a) threads(128)
{
    shared sa: bf16[64, 64] swizzle(128);
    shared sv: bf16[128, 64] swizzle(128);
    var s: f32acc[64, 64] = fragment(x, [0, 0], 64);
    s = mask_above(mask_cols(s, 60), 3, -2.0);
    let m = max(row_max(s), f32x2(0.0));
    let p = exp2(s - by_row(m, 64));
    var acc: f32acc[64, 128] = 0.0;
    acc = wgmma(acc, bf16a(p), sv.T);
    store(o, acc * by_row(row_sum(p), 128), [0, 0]);
    store_rows(lse[1], log2(m), [0]);
}

// IR: wgmma.desc[536871040]
// IR: wgmma[268435584]
// IR: wgmma[269484160]
// IR: store.if

// CHECK-LABEL: .visible .entry rows_
// CHECK-COUNT-4: shfl.sync.bfly.b32
// CHECK: ex2.approx
// The accumulator starts at zero: the first wgmma runs with scale-d 0, and no zeros are
// moved into its registers.
// CHECK-NOT: mov.b32 {{%r[0-9]+}}, 0;
// CHECK: setp.ne.b32 p, 0, 0;
// CHECK-NEXT: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}, p, 1, 1, 1;
// CHECK: setp.ne.b32 p, 1, 0;
// CHECK-NEXT: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}, p, 1, 1, 1;
// CHECK: lg2.approx
