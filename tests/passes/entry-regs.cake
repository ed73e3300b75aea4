// The register count at entry is 64K / (threads * min_blocks) rounded down to a multiple
// of 8, at most 255: what ptxas gives a kernel with these launch bounds. With 128 threads
// and min_blocks(1) that is 255 (capping at 255 before rounding down would say 248). So a
// role's regs(248) lowers the budget (setmaxnreg.dec 248) and regs(256) raises it, and
// schedule-check finds that both fit the register file.
// RUN: %cakec --target sm_90a %s | FileCheck %s --implicit-check-not=setmaxnreg

kernel lower(a: in f32[N]) targets(sm_90a) threads(128) min_blocks(1) {
    role all(warpgroup 0) regs(248) { }
}

kernel raise(a: in f32[N]) targets(sm_90a) threads(128) min_blocks(1) {
    role all(warpgroup 0) regs(256) { }
}

// CHECK-LABEL: .entry lower_
// CHECK: setmaxnreg.dec.sync.aligned.u32 248;
// CHECK-LABEL: .entry raise_
// CHECK: setmaxnreg.inc.sync.aligned.u32 256;
