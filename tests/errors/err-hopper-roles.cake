// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// Roles: the frontend checks names and syntax (unique names, the warp clause's words, one
// constant register count of at least 1, as 0 means none in the IR), and that produce and
// consume blocks are inside a role (their hidden stage and phase live in the role's). The
// warps' order, the CTA's size, overlap and setmaxnreg's budget are the verifier's rules:
// err-hopper-region-rules.cake.

kernel k(a: in f32[N]) targets(sm_90a) threads(384) min_blocks(1) {
    pipeline ld(stages: 2, full: thread, empty: warpgroup);
    role p(warps 0 .. 5) { }
    role s(warp 8) regs(0) { }
    role s(warp 10) { }
    role t(warp 9) regs(48, 56) { }
    role v(warp 0 .. 1) { }
    role w(lanes 3) { }
    consume ld { }
}

// CHECK: err-hopper-roles.cake:11:25: error: the register budget must be from 1 to 2147483647, found 0
// CHECK-NEXT: {{^}}    role s(warp 8) regs(0) { }
// CHECK-NEXT: {{^}}                        ^
// CHECK: err-hopper-roles.cake:12:10: error: duplicate role 's'
// CHECK-NEXT: {{^}}    role s(warp 10) { }
// CHECK-NEXT: {{^}}         ^
// CHECK: err-hopper-roles.cake:11:10: note: the first role 's' is here
// CHECK-NEXT: {{^}}    role s(warp 8) regs(0) { }
// CHECK-NEXT: {{^}}         ^
// CHECK: err-hopper-roles.cake:13:20: error: regs(...) takes one register count
// CHECK-NEXT: {{^}}    role t(warp 9) regs(48, 56) { }
// CHECK-NEXT: {{^}}                   ^
// CHECK: err-hopper-roles.cake:14:12: error: 'warp' takes one number; write 'warps a .. b' for a range
// CHECK-NEXT: {{^}}    role v(warp 0 .. 1) { }
// CHECK-NEXT: {{^}}           ^
// CHECK: err-hopper-roles.cake:15:12: error: expected warps, warp, warpgroup or warpgroups, found 'lanes'
// CHECK-NEXT: {{^}}    role w(lanes 3) { }
// CHECK-NEXT: {{^}}           ^
// CHECK: err-hopper-roles.cake:16:5: error: consume of pipeline 'ld' outside any role: produce and consume blocks run in a role (role NAME(warps a .. b) { ... })
// CHECK-NEXT: {{^}}    consume ld { }
// CHECK-NEXT: {{^}}    ^
