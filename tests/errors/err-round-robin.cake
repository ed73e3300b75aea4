// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// round_robin loops (docs/language.md, "Dealing iterations"): outside a role, in a role of
// warps that are not whole warpgroups, in an elect block, nested; left by break; a block
// in an inner loop, twice for one pipeline, under a condition that depends on the
// iteration or calls something; turns taken in it. (Its stages are schedule-check's:
// tests/passes/err-round-robin-stages.cake.)
// CHECK: err-round-robin.cake:34:5: error: a round_robin loop outside a role: its iterations go to the warpgroups of a role in turn
// CHECK: err-round-robin.cake:38:9: error: a round_robin loop in role 'half' of warps 0 .. 1: iterations are dealt to whole warpgroups (warpgroups a .. b)
// CHECK: err-round-robin.cake:42:13: error: a round_robin loop in role 'half' of warps 0 .. 1: iterations are dealt to whole warpgroups (warpgroups a .. b)
// CHECK: err-round-robin.cake:50:13: error: round_robin loops do not nest
// CHECK: err-round-robin.cake:49:9: note: the enclosing round_robin loop is here
// CHECK: err-round-robin.cake:49:9: error: a round_robin loop left by 'break', 'continue' or 'return': each warpgroup must walk every iteration's stages
// CHECK: err-round-robin.cake:85:13: error: take_turn() in a round_robin loop: its iterations run in one warpgroup each, and the turn goes around all of them
// CHECK: err-round-robin.cake:86:13: error: pass_turn() in a round_robin loop: its iterations run in one warpgroup each, and the turn goes around all of them
// CHECK: err-round-robin.cake:59:17: error: a consume block in a loop inside a round_robin loop: the warpgroups that skip an iteration could not tell how often it runs
// CHECK: err-round-robin.cake:63:13: error: a second block of pipeline 'ip' in a round_robin loop: each pipeline runs one produce or consume block an iteration
// CHECK: err-round-robin.cake:59:17: note: the first is here
// CHECK: err-round-robin.cake:66:13: error: a second block of pipeline 'ip' in a round_robin loop: each pipeline runs one produce or consume block an iteration
// CHECK: err-round-robin.cake:63:13: note: the first is here
// CHECK: err-round-robin.cake:69:17: error: the condition of a consume block in a round_robin loop depends on 'i', which the loop declares: the warpgroups that skip the iteration evaluate the condition too
// CHECK: err-round-robin.cake:75:17: error: the condition of a consume block in a round_robin loop depends on 'x', which the loop assigns: the warpgroups that skip the iteration evaluate the condition too
// CHECK: err-round-robin.cake:80:17: error: a call in the condition of a consume block in a round_robin loop: the warpgroups that skip the iteration evaluate the condition too, so it may only read values that stay the same
kernel rr_err(o: inout f32[N], n: i32)
    targets(sm_90a) threads(384)
{
    pipeline ip(stages: 2, full: warp, empty: warpgroup);
    shared sx: f32[128] in ip;
    pipeline up(stages: 2, full: warp, empty: warpgroup);
    shared su: f32[128] in up;
    pipeline vp(stages: 2, full: warp, empty: warpgroup);
    shared sv: f32[128] in vp;
    pipeline tp(stages: 2, full: warp, empty: warpgroup);
    shared st: f32[128] in tp;
    for (i in 0 .. n) round_robin {
        o[i] = 0.0;
    }
    role half(warps 0 .. 1) {
        for (i in 0 .. n) round_robin {
            o[i] = 1.0;
        }
        elect {
            for (i in 0 .. n) round_robin {
                o[i] = 2.0;
            }
        }
    }
    role pair(warpgroups 1 .. 2) {
        var x: f32 = 0.0;
        for (i in 0 .. n) round_robin {
            for (j in 0 .. n) round_robin {
                x += 1.0;
            }
            if (x > 3.0) {
                break;
            }
        }
        for (i in 0 .. n) round_robin {
            for (j in 0 .. 2) {
                consume ip {
                    x += sx[j];
                }
            }
            consume ip {
                x += sx[0];
            }
            consume ip {
                x += sx[1];
            }
            if (i > 2) {
                consume vp {
                    x += sv[1];
                }
            }
            x = x + 1.0;
            if (x > 2.0) {
                consume up {
                    x += su[0];
                }
            }
            if (exp(o[0]) > 1.0) {
                consume tp {
                    x += st[0];
                }
            }
            take_turn();
            pass_turn();
        }
        o[thread.x] = x;
    }
}
