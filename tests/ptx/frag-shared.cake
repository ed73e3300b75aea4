// store and fragment on shared arrays: a pair of an untransposed fragment's lanes is one
// 4-byte store (bf16) or 8-byte store and load (f32), its address swizzled by one xor of the
// row's bits 7..9 into bits 4..6; a transposed tile takes one 2-byte access per element,
// and so does a tile whose first column is not known to be even (odd: a pair could
// straddle a 16-byte chunk). No predicate: the tile lies inside the array. ptxas
// assembles both.
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cakec --emit=ptx -o %t %s
// RUN: FileCheck %s < %t/tiles.sm_90a.ptx
// RUN: %ptxas -arch=sm_90a %t/tiles.sm_90a.ptx -o %t/tiles.cubin
// RUN: FileCheck %s --check-prefix=ODD < %t/odd.sm_90a.ptx
// RUN: %ptxas -arch=sm_90a %t/odd.sm_90a.ptx -o %t/odd.cubin
// CHECK-LABEL: .entry tiles
// CHECK-NOT:   @%p{{[0-9]+}} st.shared
// CHECK:       xor.b32
// CHECK:       st.shared.b32
// CHECK:       ld.shared.v2.b32
// CHECK:       ld.shared.b16
// CHECK-NOT:   @%p{{[0-9]+}} ld.shared
// ODD-LABEL:   .entry odd
// ODD-NOT:     st.shared.v2
// ODD-COUNT-32: st.shared.b32
// ODD-NOT:     st.shared.v2

kernel tiles(x: in f32[128, 128], o: out f32[64, 64], p: out f32[64, 64])
    targets(sm_90a) threads(128)
{
    shared sx: bf16[128, 64] swizzle(128);
    shared sf: f32[64, 64];
    let f = fragment(x, [0, 0], 128);
    store(sx.rows(0, 64), f, [0, 0]);
    store(sf, fragment(x.T, [0, 0], 64), [0, 0]);
    barrier();
    store(o, fragment(sf, [0, 0], 64), [0, 0]);
    store(p, fragment(sx.rows(64, 64).T, [0, 0], 64), [0, 0]);
}

kernel odd(x: in f32[128, 128], o: out f32[64, 64], c0: i32)
    targets(sm_90a) threads(128)
{
    shared sf: f32[64, 128];
    store(sf, fragment(x, [0, 0], 64), [0, c0]);
    barrier();
    store(o, fragment(sf, [0, 0], 64), [0, 0]);
}

// Paired rows on transposed shared tiles: a thread's two rows are one column's adjacent
// elements, so each pair of lanes is one access: 16 8-byte stores and loads for the plain
// f32 array (a 64-column fragment's 32 lanes), 16 4-byte ones for the swizzled bf16 panels
// (the loads as a pair of b16); without `paired` each element is an access of its own.
// RUN: FileCheck %s --check-prefix=PAIR < %t/paired.sm_90a.ptx
// RUN: %ptxas -arch=sm_90a %t/paired.sm_90a.ptx -o %t/paired.cubin
// PAIR-LABEL:    .entry paired
// PAIR-COUNT-16: st.shared.v2.b32
// PAIR-COUNT-16: st.shared.b32
// PAIR-NOT:      ld.shared.b32
// PAIR-NOT:      st.shared.b16
// PAIR-COUNT-16: ld.shared.v2.b32
// PAIR-COUNT-16: ld.shared.v2.b16
// PAIR-NOT:      ld.shared.b16
kernel paired(x: in f32[128, 128], o: out f32[64, 64], p: out f32[64, 64])
    targets(sm_90a) threads(128)
{
    shared sf: f32[64, 64];
    shared sx: bf16[128, 64] swizzle(128);
    let f = fragment(x.T, [0, 0], 64, paired: true);
    store(sf.T, f, [0, 0], paired: true);
    store(sx.rows(0, 64).T, f, [0, 0], paired: true);
    barrier();
    store(o.T, fragment(sf.T, [0, 0], 64, paired: true), [0, 0], paired: true);
    store(p.T, fragment(sx.rows(0, 64).T, [0, 0], 64, paired: true), [0, 0], paired: true);
}
