// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cakec --lineinfo --emit=ptx %s | FileCheck %s
// RUN: %cakec --emit=ptx %s | FileCheck %s --check-prefix=PLAIN
// RUN: %cakec --lineinfo --emit=ptx,cubin -o %t %s
// RUN: grep -c 'lineinfo.cake' %t/scale_rows.sm_90a.cubin | FileCheck %s --check-prefix=CUBIN
// RUN: %cakec --lineinfo --emit=ptx %s > %t/a.ptx && %cakec --lineinfo --emit=ptx %s > %t/b.ptx && cmp %t/a.ptx %t/b.ptx
// --lineinfo: the PTX maps its instructions to the lines and columns of this file (.loc
// FILE LINE COL, one .file for it), so that ptxas keeps a line table in the cubin and
// ncu, compute-sanitizer and cuobjdump show .cake lines; a function from an imported file
// would get a .file of its own. Without the flag the PTX has no line table. The same
// input gives the same PTX.
// CHECK-LABEL: .entry scale_rows
// CHECK: ld.global.nc.b32
// CHECK: .loc 1 [[@LINE+14]] 18
// CHECK: mul.rn.f32
// CHECK: .loc 1 [[@LINE+12]] 14
// CHECK: st.global.b32
// CHECK: .file 1 "{{.*}}lineinfo.cake"
// PLAIN-LABEL: .entry scale_rows
// PLAIN-NOT: .loc
// PLAIN-NOT: .file
// CUBIN: 1
kernel scale_rows(x: in f32[N], y: out f32[N], a: f32)
    targets(sm_90a) threads(128) grid(cdiv(N, 128))
{
    let i = block.x * 128 + thread.x;
    if (i < N) {
        y[i] = a * x[i];
    }
}
