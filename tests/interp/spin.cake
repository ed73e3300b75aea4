// RUN: %not %builddir/cakec-run --max-steps 100000 %s spin x=%S/Inputs/f32_100.npy 2>&1 | FileCheck %s
// A planted bug: thread 0 spins on a flag that nothing sets (on the GPU: a hang). Blocks
// run one at a time, so a wait for another block hangs the same way; past the step
// budget the interpreter stops with an error at the op it was running.

kernel spin(x: inout f32[n])
    targets(sm_90a)
    threads(32)
    grid(1)
{
    var seen: f32 = 0.0;
    while (seen != 42.0) {
// CHECK: spin.cake:[[@LINE+1]]:17: error: the block ran more than 100000 warp-steps without finishing: a loop that never ends, or a wait for another block (blocks run one at a time) [block (0,0,0), warp 0, lanes 0-31]
        seen = x[0];
    }
    x[thread.x] = seen;
}
