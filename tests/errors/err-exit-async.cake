// RUN: %not %cakec %s 2>&1 | FileCheck --strict-whitespace %s --implicit-check-not=error:
// A produce or consume block cannot be left early: its stage would never be filled or
// released, and the other side would wait for it forever. Nor can a role or elect block.

kernel k(a: in f32[N], o: out f32[N]) targets(sm_90a) threads(256) {
    pipeline ld(stages: 2, full: thread, empty: warp * 4);
    shared buf: f32[128] in ld;
    role producer(warp 0) {
        for (i in 0 .. 8) {
            produce ld {
                if (lane == 0) {
                    buf[0] = a[i];
                }
                if (a[i] < 0.0) {
                    break;
                }
            }
        }
    }
    role consumer(warps 4 .. 7) {
        for (i in 0 .. 8) {
            consume ld {
                o[i] = buf[0];
                continue;
            }
        }
        elect {
            return;
        }
    }
}
// CHECK: err-exit-async.cake:15:21: error: 'break' cannot leave the produce block early: its stage must be filled and released
// CHECK-NEXT: {{^}}                    break;
// CHECK: err-exit-async.cake:10:13: note: the produce block is here
// CHECK: err-exit-async.cake:24:17: error: 'continue' cannot leave the consume block early: its stage must be filled and released
// CHECK: err-exit-async.cake:22:13: note: the consume block is here
// CHECK: err-exit-async.cake:28:13: error: 'return' cannot leave the elect block early
// CHECK: err-exit-async.cake:27:9: note: the elect block is here
