// fragment(...) of a global tile that is inside its tensor whatever the arguments (a
// constant corner within constant last dimensions: a state of [B, 64, 128]) takes no
// bounds tests: each thread's two rows are one address each, every lane a constant byte
// offset from its row's (backend_ptx/llvm_wgmma.c, frag_load_inside). The IR handed to
// LLVM's passes holds no per-lane index arithmetic (an `or`, a `zext` and an address a
// lane before), so they have less to chew on; a corner known only at run time keeps
// the clamped lanes (`select`), and so do a tile's dimensions known only at run time.
// RUN: %cakec --target sm_90a --emit=llvm -o %t %s
// RUN: FileCheck %s --check-prefix=IN < %t/inside.sm_90a.ll
// RUN: FileCheck %s --check-prefix=RT < %t/runtime.sm_90a.ll
// RUN: FileCheck %s --check-prefix=DIMS < %t/dims.sm_90a.ll
// RUN: %cakec --target sm_90a --emit=ptx -o %t %s && FileCheck %s --check-prefix=PTX < %t/inside.sm_90a.ptx

kernel inside(s: in f32[B, 64, 128], o: out f32[B, 64, 128]) targets(sm_90a) threads(128) grid(B) {
    store(o[block.x], fragment(s[block.x], [0, 0], 128) * 2.0, [0, 0]);
}
kernel runtime(s: in f32[B, 64, 128], o: out f32[B, 64, 128]) targets(sm_90a) threads(128) grid(B) {
    store(o[block.x], fragment(s[block.x], [0, block.x], 64) * 2.0, [0, 0]);
}
kernel dims(s: in f32[B, R, C], o: out f32[B, 64, 128]) targets(sm_90a) threads(128) grid(B) {
    store(o[block.x], fragment(s[block.x], [0, 0], 128) * 2.0, [0, 0]);
}
// IN-LABEL: define {{.*}} @inside_
// IN-NOT: select
// IN-COUNT-2: zext
// IN-NOT: {{zext|select}}
// IN: ret void
// RT-LABEL: define {{.*}} @runtime_
// RT: select
// DIMS-LABEL: define {{.*}} @dims_
// DIMS: select
// PTX-LABEL: .visible .entry inside_
// PTX-NOT: setp
// PTX-COUNT-64: ld.global.nc.b32 %r{{[0-9]+}}, [%rd[[B:[0-9]+]]{{(\+[0-9]+)?}}];
