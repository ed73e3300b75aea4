// load(buf, [i, j]) into a register array reads as wide as the start's known alignment
// allows, up to 16 bytes: 8 bf16 at 8 * q (an unrolled loop's index times 8) in one
// ld.shared.v4.b32; 4 f32 at 4 * (lane / 2) in one ld.shared.v4; a start known only to be
// even (2 * lane) in 8-byte pieces; a start nothing is known of (lane) one element at a
// time. The f32 conversion of bf16 is a shift of each half (no second copy in shared
// memory). ptxas assembles it.
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cakec --emit=ptx -o %t %s
// RUN: FileCheck %s < %t/rows.sm_90a.ptx
// RUN: %ptxas -arch=sm_90a %t/rows.sm_90a.ptx -o %t/rows.cubin
// CHECK-LABEL: .entry rows_
// CHECK-COUNT-2: ld.shared.v4.b32
// CHECK: ld.shared.v4.b32
// CHECK-COUNT-2: ld.shared.v2.b32
// CHECK-COUNT-4: ld.shared.b16
// CHECK-NOT: ld.shared
// CHECK: ret;
kernel rows(a: in bf16[1024], o: out f32[32, 24])
    targets(sm_90a) threads(32) grid(1)
{
    shared sb: bf16[2, 64];
    shared sf: f32[128];
    for (i in 0 .. 4) {
        sb[i % 2, lane + 32 * (i / 2)] = a[lane + 32 * i];
        sf[lane + 32 * i] = f32(a[lane + 32 * i]);
    }
    barrier();
    for (q in 0 .. 2) unroll {
        var r: f32[8] = load(sb, [1, 8 * q + 16 * (lane / 8)]);
        for (k in 0 .. 8) unroll {
            o[lane, 8 * q + k] = r[k];
        }
    }
    var f: f32[4] = load(sf, [4 * (lane / 2)]);
    var g: f32[4] = load(sf, [2 * lane]);
    var h: bf16[4] = load(sb, [0, lane]);
    for (k in 0 .. 4) unroll {
        o[lane, 16 + k] = f[k] + g[k];
        o[lane, 20 + k] = f32(h[k]);
    }
}
