// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// The register budgets of the roles (and the entry budget of warps in no role with one)
// must fit the registers the CTA is launched with (the entry budget per thread, what fits
// min_blocks CTAs in the 64K register file); a budget needs min_blocks. The
// schedule-check pass reports at the role with the largest budget.

kernel big(a: in f32[N]) targets(sm_90a) threads(384) min_blocks(1) {
    role producer(warpgroup 0) regs(56) { }
    role consumer(warpgroups 1 .. 2) regs(232) { }
}

kernel rest(a: in f32[N]) targets(sm_90a) threads(512) min_blocks(1) {
    role consumer(warpgroups 1 .. 2) regs(200) { }
}

// 384 threads: 65536 / 384 = 170, rounded down to 168 at entry.
kernel rounded(a: in f32[N]) targets(sm_90a) threads(384) min_blocks(1) {
    role producer(warpgroup 0) regs(256) { }
}

kernel nomin(a: in f32[N]) targets(sm_90a) threads(256) {
    role producer(warpgroup 0) regs(40) { }
}

// CHECK: err-hopper-budget.cake:9:10: error: register budgets need 66560 registers per CTA (56 x 128 threads (warps 0 .. 3) + 232 x 256 threads (warps 4 .. 11)), more than the 64512 it is launched with (168 per thread at entry, which fits 1 CTA in the 65536 of the register file, x 384 threads): a budget increase would wait for ever
// CHECK-NEXT: {{^}}    role consumer(warpgroups 1 .. 2) regs(232) { }
// CHECK-NEXT: {{^}}         ^
// CHECK: err-hopper-budget.cake:13:10: error: register budgets need 83968 registers per CTA (200 x 256 threads (warps 4 .. 11) + 128 x 256 threads (the other warps, at the entry budget)), more than the 65536 it is launched with (128 per thread at entry, which fits 1 CTA in the 65536 of the register file, x 512 threads): a budget increase would wait for ever
// CHECK-NEXT: {{^}}    role consumer(warpgroups 1 .. 2) regs(200) { }
// CHECK-NEXT: {{^}}         ^
// CHECK: err-hopper-budget.cake:18:10: error: register budgets need 75776 registers per CTA (256 x 128 threads (warps 0 .. 3) + 168 x 256 threads (the other warps, at the entry budget)), more than the 64512 it is launched with (168 per thread at entry, which fits 1 CTA in the 65536 of the register file, x 384 threads): a budget increase would wait for ever
// CHECK-NEXT: {{^}}    role producer(warpgroup 0) regs(256) { }
// CHECK-NEXT: {{^}}         ^
// CHECK: err-hopper-budget.cake:22:10: error: role sets a register budget of 40 but kernel 'nomin' has no min_blocks (ptxas ignores setmaxnreg without a known register count at entry)
// CHECK-NEXT: {{^}}    role producer(warpgroup 0) regs(40) { }
// CHECK-NEXT: {{^}}         ^
