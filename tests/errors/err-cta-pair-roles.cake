// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// The sides of a CTA pair's pipelines (schedule-check): the mma side (produce of a
// full: mma pipeline, consume of an empty: mma one, and the tcgen05_mma) runs in the
// leader CTA, in a leader role; the other side runs in both CTAs; a non-tma source
// counts the arrivals of both CTAs on the leader's barrier.

// the MMAs in a role of both CTAs
kernel noleader(a: in bf16[M, K], b: in bf16[N, K], c: out f32[M, N])
    targets(sm_100a) threads(256) cluster(2) cta_group(2)
{
    tensormap ta = tma(a, box[128, 64], swizzle(128));
    tensormap tb = tma(b, box[64, 64], swizzle(128));
    pipeline ld(stages: 2, full: tma, empty: mma);
    pipeline accp(stages: 1, full: mma, empty: warpgroup);
    shared sa: bf16[128, 64] in ld swizzle(128);
    shared sb: bf16[64, 64] in ld swizzle(128);
    tmem acc: f32[128, 128] in accp;
    role producer(warp 0) {
        elect {
            produce ld {
                tma_load(sa, ta, [0, 0]);
                tma_load(sb, tb, [0, 0]);
            }
        }
    }
    role mma(warp 1) {
        elect {
            produce accp {
                consume ld {
                    tcgen05_mma(acc, sa, sb, accumulate: false);
                }
            }
        }
    }
    role epilogue(warpgroup 1) {
        consume accp {
            var r: f32[32] = tmem_load(acc, 32 * (warp % 4), 0);
            c[0, 0] = r[0];
        }
    }
}

// the loads in the leader only, and an epilogue of half a warpgroup in each CTA
kernel loadleader(a: in bf16[M, K], b: in bf16[N, K], c: out f32[M, N])
    targets(sm_100a) threads(256) cluster(2) cta_group(2)
{
    tensormap ta = tma(a, box[128, 64], swizzle(128));
    tensormap tb = tma(b, box[64, 64], swizzle(128));
    pipeline ld(stages: 2, full: tma, empty: mma);
    pipeline accp(stages: 1, full: mma, empty: warpgroup);
    shared sa: bf16[128, 64] in ld swizzle(128);
    shared sb: bf16[64, 64] in ld swizzle(128);
    tmem acc: f32[128, 128] in accp;
    role producer(warp 0, leader) {
        elect {
            produce ld {
                tma_load(sa, ta, [0, 0]);
                tma_load(sb, tb, [0, 0]);
            }
        }
    }
    role mma(warp 1, leader) {
        elect {
            produce accp {
                consume ld {
                    tcgen05_mma(acc, sa, sb, accumulate: false);
                }
            }
        }
    }
    role epilogue(warpgroup 1) {
        if (warp < 6) {
            consume accp {
                var r: f32[32] = tmem_load(acc, 32 * (warp % 4), 0);
                c[0, 0] = r[0];
            }
        }
    }
}
// CHECK: err-cta-pair-roles.cake:28:13: error: produce of pipeline 'accp' issues the CTA pair's MMAs and commits for both CTAs: it runs in the pair's leader CTA only, in a leader role (role NAME(warp N, leader))
// CHECK-NEXT: {{^}}            produce accp {
// CHECK-NEXT: {{^}}            ^
// CHECK-NEXT: err-cta-pair-roles.cake:14:14: note: pipeline 'accp' is declared here
// CHECK-NEXT: {{^}}    pipeline accp(stages: 1, full: mma, empty: warpgroup);
// CHECK-NEXT: {{^}}             ^
// CHECK: err-cta-pair-roles.cake:29:17: error: consume of pipeline 'ld' issues the CTA pair's MMAs and commits for both CTAs: it runs in the pair's leader CTA only, in a leader role (role NAME(warp N, leader))
// CHECK-NEXT: {{^}}                consume ld {
// CHECK-NEXT: {{^}}                ^
// CHECK-NEXT: err-cta-pair-roles.cake:13:14: note: pipeline 'ld' is declared here
// CHECK-NEXT: {{^}}    pipeline ld(stages: 2, full: tma, empty: mma);
// CHECK-NEXT: {{^}}             ^
// CHECK: err-cta-pair-roles.cake:30:21: error: tcgen05.mma with cta_group::2 is issued for the CTA pair by its leader CTA only: put it in a leader role (role NAME(warp N, leader))
// CHECK-NEXT: {{^}}                    tcgen05_mma(acc, sa, sb, accumulate: false);
// CHECK-NEXT: {{^}}                    ^
// CHECK: err-cta-pair-roles.cake:56:13: error: produce of pipeline 'ld' runs in both CTAs of the pair (each with its own half of the data, arriving on the leader's barrier), but its role runs in the leader CTA only
// CHECK-NEXT: {{^}}            produce ld {
// CHECK-NEXT: {{^}}            ^
// CHECK-NEXT: err-cta-pair-roles.cake:54:10: note: the leader role is here
// CHECK-NEXT: {{^}}    role producer(warp 0, leader) {
// CHECK-NEXT: {{^}}         ^
// CHECK: err-cta-pair-roles.cake:73:13: error: pipeline 'accp': its empty barrier 'accp.empty' counts 256 arrivals per phase (warpgroup * 2, over the 2 CTAs of a pair) but 64 threads (warps 4 .. 5) run its consume blocks in each CTA
// CHECK-NEXT: {{^}}            consume accp {
// CHECK-NEXT: {{^}}            ^
// CHECK-NEXT: err-cta-pair-roles.cake:50:14: note: pipeline 'accp' is declared here
// CHECK-NEXT: {{^}}    pipeline accp(stages: 1, full: mma, empty: warpgroup);
// CHECK-NEXT: {{^}}             ^
