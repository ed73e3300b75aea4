// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// The rules on where roles, elect, produce, consume and wgmma run have one implementation,
// the verifier's (ir/verify_async.c, tests/ir/err-async-regions.ir); on .cake input they are
// user errors at the user's line. Roles: warps in order, inside the CTA, disjoint, and a
// setmaxnreg budget that is a multiple of 8 in 24..256 on whole warpgroups. No elect inside
// elect, no produce/consume inside one of the same pipeline. wgmma runs in whole warpgroups,
// never inside elect, on sm_90a only. A TMA load in a produce block needs the pipeline's full
// source to be tma. Each kernel holds rules the verifier checks together
// (an error in an op's own operands stops the whole-kernel walk of that kernel).

kernel warps(a: in f32[N]) targets(sm_90a) threads(384) min_blocks(1) {
    role r(warpgroups 2 .. 3) { }
    role s(warp 8) regs(41) { }
    role t(warp 9) regs(48) { }
    role u(warps 11 .. 10) { }
}

kernel overlap(a: in f32[N]) targets(sm_90a) threads(384) {
    role p(warps 0 .. 5) { }
    role q(warpgroup 1) { }
}

kernel nesting(a: in f32[N]) targets(sm_90a) threads(128) {
    pipeline ld(stages: 2, full: thread, empty: warpgroup);
    role r(warpgroup 0) {
        elect {
            elect { }
        }
        consume ld {
            consume ld { }
        }
    }
}

kernel roles(c: out bf16[M, N]) targets(sm_90a) threads(256) {
    shared x: bf16[64, 64] swizzle(128);
    var acc: f32acc[64, 64] = 0.0;
    role p(warps 0 .. 2) {
        acc = wgmma(acc, x, x);
    }
    role q(warps 4 .. 7) {
        elect {
            acc = wgmma(acc, x, x);
        }
        store(c, acc, [0, 0]);
    }
}

kernel odd(c: out bf16[M, N]) targets(sm_90a) threads(96) {
    shared x: bf16[64, 64] swizzle(128);
    var acc: f32acc[64, 64] = 0.0;
    acc = wgmma(acc, x, x);
}

kernel blackwell(c: out bf16[M, N]) targets(sm_90a, sm_100a) threads(128) {
    shared x: bf16[64, 64] swizzle(128);
    var acc: f32acc[64, 64] = 0.0;
    acc = wgmma(acc, x, x);
    store(c, acc, [0, 0]);
}

kernel fullsrc(a: in bf16[M, K]) targets(sm_90a) threads(256) {
    tensormap ta = tma(a, box[64, 64], swizzle(128));
    pipeline lt(stages: 2, full: thread, empty: warpgroup);
    shared sz: bf16[64, 64] in lt swizzle(128);
    role p(warpgroup 0) {
        elect {
            produce lt {
                tma_load(sz, ta, [0, 0]);
            }
        }
    }
    role c(warpgroup 1) {
        consume lt { }
    }
}

// CHECK: err-hopper-region-rules.cake:12:10: error: role warps 8 .. 15 go past the CTA's 12 warps
// CHECK-NEXT: {{^}}    role r(warpgroups 2 .. 3) { }
// CHECK-NEXT: {{^}}         ^
// CHECK: err-hopper-region-rules.cake:13:10: error: role register budget 41: setmaxnreg takes a multiple of 8 in 24..256 (or 0 for none)
// CHECK-NEXT: {{^}}    role s(warp 8) regs(41) { }
// CHECK-NEXT: {{^}}         ^
// CHECK: err-hopper-region-rules.cake:14:10: error: role register budget 48 on warps 9 .. 9, which is not whole warpgroups (setmaxnreg applies to all 4 warps of a warpgroup)
// CHECK-NEXT: {{^}}    role t(warp 9) regs(48) { }
// CHECK-NEXT: {{^}}         ^
// CHECK: err-hopper-region-rules.cake:15:10: error: role warps 11 .. 10: expected 0 <= lo <= hi
// CHECK-NEXT: {{^}}    role u(warps 11 .. 10) { }
// CHECK-NEXT: {{^}}         ^
// CHECK: err-hopper-region-rules.cake:20:10: error: role of warps 4 .. 7 overlaps the role of warps 0 .. 5
// CHECK-NEXT: {{^}}    role q(warpgroup 1) { }
// CHECK-NEXT: {{^}}         ^
// CHECK: err-hopper-region-rules.cake:19:10: note: the other role is here
// CHECK-NEXT: {{^}}    role p(warps 0 .. 5) { }
// CHECK-NEXT: {{^}}         ^
// CHECK: err-hopper-region-rules.cake:27:13: error: elect inside an elect region: only one thread runs the outer region
// CHECK-NEXT: {{^}}            elect { }
// CHECK-NEXT: {{^}}            ^
// CHECK: err-hopper-region-rules.cake:30:13: error: consume of pipeline 'ld' inside a consume of the same pipeline
// CHECK-NEXT: {{^}}            consume ld { }
// CHECK-NEXT: {{^}}            ^
// CHECK: err-hopper-region-rules.cake:39:15: error: wgmma.fence in a role of warps 0 .. 2, which is not whole warpgroups (it must start at a multiple of 4 warps and span a multiple of 4)
// CHECK-NEXT: {{^}}        acc = wgmma(acc, x, x);
// CHECK-NEXT: {{^}}              ^
// CHECK: err-hopper-region-rules.cake:43:19: error: wgmma.fence inside an elect region: wgmma needs the whole warpgroup
// CHECK-NEXT: {{^}}            acc = wgmma(acc, x, x);
// CHECK-NEXT: {{^}}                  ^
// CHECK: err-hopper-region-rules.cake:52:11: error: wgmma.fence outside any role in a CTA of 96 threads, which is not whole warpgroups
// CHECK-NEXT: {{^}}    acc = wgmma(acc, x, x);
// CHECK-NEXT: {{^}}          ^
// CHECK: err-hopper-region-rules.cake:58:11: error: wgmma.fence needs sm_90a; kernel 'blackwell' also targets sm_100a
// CHECK-NEXT: {{^}}    acc = wgmma(acc, x, x);
// CHECK-NEXT: {{^}}          ^
// CHECK: err-hopper-region-rules.cake:69:17: error: tma.load in a produce of pipeline 'lt', whose full source is thread: TMA bytes complete only a 'full: tma' barrier
// CHECK-NEXT: {{^}}                tma_load(sz, ta, [0, 0]);
// CHECK-NEXT: {{^}}                ^
