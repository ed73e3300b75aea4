// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// The register budgets of the roles (and the entry budget of warps in no role with one)
// must fit the 64K register file for min_blocks CTAs; a budget needs min_blocks.

kernel big(a: in f32[N]) targets(sm_90a) threads(384) min_blocks(1) {
    role producer(warpgroup 0) regs(56) { }
    role consumer(warpgroups 1 .. 2) regs(232) { }
}

kernel rest(a: in f32[N]) targets(sm_90a) threads(512) min_blocks(1) {
    role consumer(warpgroups 1 .. 2) regs(200) { }
}

kernel nomin(a: in f32[N]) targets(sm_90a) threads(256) {
    role producer(warpgroup 0) regs(40) { }
}

// CHECK: err-hopper-budget.cake:6:10: error: the register budgets of kernel 'big' add up to 66560 registers (role 'producer' 56 x 128 threads, role 'consumer' 232 x 256 threads), but 65536 fit (65536 / min_blocks(1))
// CHECK-NEXT: {{^}}    role producer(warpgroup 0) regs(56) { }
// CHECK-NEXT: {{^}}         ^
// CHECK: err-hopper-budget.cake:11:10: error: the register budgets of kernel 'rest' add up to 83968 registers (role 'consumer' 200 x 256 threads, other warps 128 x 256 threads), but 65536 fit (65536 / min_blocks(1))
// CHECK-NEXT: {{^}}    role consumer(warpgroups 1 .. 2) regs(200) { }
// CHECK-NEXT: {{^}}         ^
// CHECK: err-hopper-budget.cake:15:10: error: role 'producer' sets regs(40), but kernel 'nomin' has no min_blocks(...) clause: setmaxnreg needs the register count at entry that min_blocks(1) fixes
// CHECK-NEXT: {{^}}    role producer(warpgroup 0) regs(40) { }
// CHECK-NEXT: {{^}}         ^
