// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// Roles: disjoint warp ranges inside the CTA (threads / 32 warps), setmaxnreg budgets that
// are a multiple of 8 in 24..256 on whole warpgroups, unique names; produce and consume
// blocks only inside a role.

kernel k(a: in f32[N]) targets(sm_90a) threads(384) min_blocks(1) {
    pipeline ld(stages: 2, full: thread, empty: warpgroup);
    role p(warps 0 .. 5) { }
    role q(warpgroup 1) { }
    role r(warpgroups 2 .. 3) { }
    role s(warp 8) regs(41) { }
    role t(warp 9) regs(48) { }
    role s(warp 10) { }
    role u(warps 11 .. 10) { }
    role v(warp 0 .. 1) { }
    role w(lanes 3) { }
    consume ld { }
}

// CHECK: err-hopper-roles.cake:9:12: error: role 'q' (warps 4 .. 7) overlaps role 'p' (warps 0 .. 5)
// CHECK-NEXT: {{^}}    role q(warpgroup 1) { }
// CHECK-NEXT: {{^}}           ^
// CHECK: err-hopper-roles.cake:8:10: note: role 'p' is here
// CHECK-NEXT: {{^}}    role p(warps 0 .. 5) { }
// CHECK-NEXT: {{^}}         ^
// CHECK: err-hopper-roles.cake:10:12: error: role 'r' covers warps 8 .. 15, but the CTA has 12 warps (threads(384))
// CHECK-NEXT: {{^}}    role r(warpgroups 2 .. 3) { }
// CHECK-NEXT: {{^}}           ^
// CHECK: err-hopper-roles.cake:11:25: error: regs(41): setmaxnreg takes a multiple of 8 from 24 to 256
// CHECK-NEXT: {{^}}    role s(warp 8) regs(41) { }
// CHECK-NEXT: {{^}}                        ^
// CHECK: err-hopper-roles.cake:12:20: error: role 't' sets regs(48) but covers warps 9 .. 9, not whole warpgroups (setmaxnreg applies to all 4 warps of a warpgroup)
// CHECK-NEXT: {{^}}    role t(warp 9) regs(48) { }
// CHECK-NEXT: {{^}}                   ^
// CHECK: err-hopper-roles.cake:13:10: error: duplicate role 's'
// CHECK-NEXT: {{^}}    role s(warp 10) { }
// CHECK-NEXT: {{^}}         ^
// CHECK: err-hopper-roles.cake:11:10: note: the first role 's' is here
// CHECK-NEXT: {{^}}    role s(warp 8) regs(41) { }
// CHECK-NEXT: {{^}}         ^
// CHECK: err-hopper-roles.cake:14:12: error: role 'u' has warps 11 .. 10: the first must not be after the last
// CHECK-NEXT: {{^}}    role u(warps 11 .. 10) { }
// CHECK-NEXT: {{^}}           ^
// CHECK: err-hopper-roles.cake:15:12: error: 'warp' takes one number; write 'warps a .. b' for a range
// CHECK-NEXT: {{^}}    role v(warp 0 .. 1) { }
// CHECK-NEXT: {{^}}           ^
// CHECK: err-hopper-roles.cake:16:12: error: expected warps, warp, warpgroup or warpgroups, found 'lanes'
// CHECK-NEXT: {{^}}    role w(lanes 3) { }
// CHECK-NEXT: {{^}}           ^
// CHECK: err-hopper-roles.cake:17:5: error: consume of pipeline 'ld' outside any role: produce and consume blocks run in a role (role NAME(warps a .. b) { ... })
// CHECK-NEXT: {{^}}    consume ld { }
// CHECK-NEXT: {{^}}    ^
