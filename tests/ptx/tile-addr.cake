// Untransposed shared tiles at constant corners (docs/ir.md, shared tiles; TileAddr in
// backend_ptx/llvm_wgmma.c): each element's address is one value per thread plus a
// constant. The f32 array's 16 pair stores (rows 3 and 11 of the tile, columns 6 .. 69 of
// 80) all address one register with immediate offsets; the swizzled bf16 tile's (second
// panel, rows 8 ..) need one xor per column chunk of the thread, 7 in all (chunk 0 is the
// thread's own), shared by both rows and by the load that reads the tile back, where each
// element used to recompute its swizzle (14 xors). A first row known only at run time joins
// the thread's rows where it is a multiple of 8 (`rows8`, 7 xors again); elsewhere each
// element keeps its own swizzle (`rows1`).
// RUN: %cakec --target sm_90a --emit=ptx %s | FileCheck %s
// RUN: %cakec --target sm_90a --emit=ptx,cubin -o %t %s && %ptxas -arch=sm_90a %t/tiles.sm_90a.ptx -o %t/a.cubin
// REQUIRES: ptxas

kernel tiles(x: in f32[64, 64], o: out f32[2, 64, 64]) targets(sm_90a) threads(128) grid(1) {
    shared sg: f32[72, 80];
    shared sw: bf16[256, 64] swizzle(128);
    let f = fragment(x, [0, 0], 64);
    store(sg, f, [3, 6]);
    store(sw.rows(0, 128), f, [8, 64]);
    store(o[0], fragment(sg, [3, 6], 64), [0, 0]);
    store(o[1], fragment(sw.rows(0, 128), [8, 64], 64), [0, 0]);
}
kernel rows8(x: in f32[64, 64], o: out f32[64, 64]) targets(sm_90a) threads(128) grid(2) {
    shared sw: bf16[256, 64] swizzle(128);
    let f = fragment(x, [0, 0], 64);
    store(sw.rows(0, 128), f, [block.x * 8, 64]);
    store(o, fragment(sw.rows(0, 128), [block.x * 8, 64], 64), [0, 0]);
}

kernel rows1(x: in f32[64, 64], o: out f32[64, 64]) targets(sm_90a) threads(128) grid(2) {
    shared sw: bf16[256, 64] swizzle(128);
    let f = fragment(x, [0, 0], 64);
    store(sw.rows(0, 128), f, [block.x, 64]);
    store(o, fragment(sw.rows(0, 128), [block.x, 64], 64), [0, 0]);
}
// CHECK-LABEL: .visible .entry tiles_
// CHECK: st.shared.v2.b32 [[[B:%r[0-9]+]]+984],
// CHECK-COUNT-15: st.shared.v2.b32 [[[B]]+{{[0-9]+}}],
// CHECK-COUNT-7: xor.b32
// CHECK-NOT: xor.b32
// CHECK: ret;
// CHECK-LABEL: .visible .entry rows8_
// CHECK-COUNT-7: xor.b32
// CHECK-NOT: xor.b32
// CHECK: ret;
// CHECK-LABEL: .visible .entry rows1_
// CHECK-COUNT-14: xor.b32
