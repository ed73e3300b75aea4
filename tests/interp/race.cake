// RUN: %not %builddir/cakec-run --no-global-race-check --seeds 8 %s last out=%t.npy 2>&1 | FileCheck %s
// RUN: %not %builddir/cakec-run %s last out=%t.npy 2>&1 | FileCheck %s --check-prefix=GLOBAL
// RUN: python3 %S/Inputs/npy.py make %t.x.npy '<f4' 9,70 'i % 13 * 0.25'
// RUN: %builddir/cakec-run --seeds 8 %srcroot/kernels_src/reduction/softmax_rows.cake softmax_rows x=%t.x.npy y=%t.y.npy 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET
// RUN: python3 %S/Inputs/npy.py make %t.b.npy '<f4' 70,65 'i % 7 - 3.0'
// RUN: %builddir/cakec-run --seeds 4 %srcroot/kernels_src/matmul/sgemm_tiled.cake sgemm_tiled A=%t.x.npy B=%t.b.npy C=%t.c.npy 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET
// QUIET-NOT: error
// A planted bug: the first thread of every warp of every block stores its own id to one
// element, so the value left depends on which warp of which block runs last. Each seed is another order;
// the results differ between seeds, which --seeds reports as a race. (The shipped kernel
// gives the same bytes under every seed.)

kernel last(out: out f32[1])
    targets(sm_90a)
    threads(128)
    grid(4)
{
    if (thread.x % 32 == 0) {
        out[0] = f32(block.x * 128 + thread.x);
    }
}
// CHECK: cakec-run: error: the results depend on the schedule (a race): tensor 'out' element 0 differs between --seed 0 and --seed {{[1-7]}}
// GLOBAL: race.cake:[[@LINE-4]]:16: error: data race on global memory: this store and the store at line [[@LINE-4]]:16 (warp {{[0-3]}}, lane 0) touch element 0 of tensor 'out' (1 elements of 4 bytes) with no barrier between them [block ({{[0-3]}},0,0), warp {{[0-3]}}, lane 0
