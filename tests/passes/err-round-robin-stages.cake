// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// schedule-check's rules for round_robin loops (docs/language.md, "Dealing iterations"):
// a pipeline with 3 stages dealt to 2 warpgroups (a stage would go to each in turn), and a
// pipeline the role also consumes after the loop; `ip` (2 stages, only in the loop) is
// fine. The loop's blocks count one warpgroup's threads: ip's `empty: warpgroup` holds,
// vp's `warpgroup * 2` does not.
// CHECK: err-round-robin-stages.cake:55:13: error: pipeline 'tp' has 3 stages, not a multiple of the 2 warpgroups that take the round_robin loop's iterations: each stage must always go to the same warpgroup
// CHECK: err-round-robin-stages.cake:22:14: note: pipeline 'tp' is declared here
// CHECK: err-round-robin-stages.cake:65:9: error: pipeline 'wp' is used in the role of warps 4 .. 11 both inside a round_robin loop and outside it: a warpgroup that skipped the loop's iterations of a stage could not tell its phases apart
// CHECK: err-round-robin-stages.cake:58:13: note: the consume in the loop is here
// CHECK: err-round-robin-stages.cake:58:13: error: pipeline 'wp': its empty barrier 'wp.empty' counts 128 arrivals per phase (warpgroup * 1) but 256 threads (warps 4 .. 11) run its consume blocks
// CHECK: err-round-robin-stages.cake:24:14: note: pipeline 'wp' is declared here
// CHECK: err-round-robin-stages.cake:58:13: note: the consume blocks of a round_robin loop count one warpgroup of its role an iteration
// CHECK: err-round-robin-stages.cake:61:13: error: pipeline 'vp': its empty barrier 'vp.empty' counts 256 arrivals per phase (warpgroup * 2) but 128 threads (warps 4 .. 7) run its consume blocks
// CHECK: err-round-robin-stages.cake:26:14: note: pipeline 'vp' is declared here
// CHECK: err-round-robin-stages.cake:61:13: note: the consume blocks of a round_robin loop count one warpgroup of its role an iteration
kernel rr_stages(o: out f32[384], n: i32)
    targets(sm_90a) threads(384)
{
    pipeline ip(stages: 2, full: warp, empty: warpgroup);
    shared sx: f32[128] in ip;
    pipeline tp(stages: 3, full: warp, empty: warpgroup);
    shared st: f32[128] in tp;
    pipeline wp(stages: 2, full: warp, empty: warpgroup);
    shared sw: f32[128] in wp;
    pipeline vp(stages: 2, full: warp, empty: warpgroup * 2);
    shared sv: f32[128] in vp;
    role io(warpgroup 0) {
        if (warp == 0) {
            for (i in 0 .. n) {
                produce ip {
                    sx[lane] = 1.0;
                }
                produce tp {
                    st[lane] = 2.0;
                }
                produce wp {
                    sw[lane] = 3.0;
                }
                produce vp {
                    sv[lane] = 5.0;
                }
            }
            produce wp {
                sw[lane] = 4.0;
            }
        }
    }
    role pair(warpgroups 1 .. 2) {
        var x: f32 = 0.0;
        for (i in 0 .. n) round_robin {
            consume ip {
                x += sx[0];
            }
            consume tp {
                x += st[0];
            }
            consume wp {
                x += sw[0];
            }
            consume vp {
                x += sv[0];
            }
        }
        consume wp {
            x += sw[1];
        }
        o[thread.x] = x;
    }
}
