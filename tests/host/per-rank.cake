// A per_rank table in the launcher (per_rank_checks.c, no GPU needed): the args struct
// has one tensor per rank (CakeTensor a[4]); the launcher binds the shape symbols from
// all of them, so a rank's tensor of another shape is refused, named by its place in the
// table ("a[2]"); one tensor map per rank is encoded over its tensor.
// REQUIRES: cuda-h
// RUN: rm -rf %t && %cakec --emit=ptx,host --ptx-only -o %t %s
// RUN: %cc %sanflags -std=c99 -Wall -Wextra -Werror -I%t -I%cudainc %S/per_rank_checks.c %t/gather4.c %t/cakert.c -ldl -lpthread -o %t/checks
// RUN: %t/checks | FileCheck %s
// RUN: FileCheck %s --check-prefix=HDR < %t/gather4.h
// RUN: FileCheck %s --check-prefix=GEN < %t/gather4.c
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json
// RUN: %cakec --emit=ptx,host --ptx-only --list-outputs -o %t %s | FileCheck %s --check-prefix=LIST
// CHECK: ok same shapes: grid (16, 1, 1)
// CHECK-NEXT: ok other shape: CAKE_ERR_SHAPE: gather4: parameter 'a[2]'
// CHECK-NEXT: ok null table entry: CAKE_ERR_NULL: gather4: parameter 'a[3]'
// HDR: CakeTensor a[4];{{.*}}one per rank: in bf16 [M, 64]
// HDR-NOT: a_1
// GEN: {"ta_0", {{[0-9]+}}, 0,
// GEN: {"ta_3", {{[0-9]+}}, 3,
// The manifest names each table tensor's C field (cakec_torch reads it).
// MANIFEST: {"name": "a_2", "kind": "tensor", "dtype": "bf16", "access": "in", "shape": ["M", 64], "align": 16, "table": "a", "field": "a[2]", "rank": 2, "ranks": 4}
// The generic kernel below has instances for 2 and 4 ranks, whose args structs differ:
// their launchers, and no entry point (relay.c / relay.h).
// LIST: relay_w2.c
// LIST: relay_w4.c
// LIST-NOT: relay.c
// LIST-NOT: relay.h
kernel gather4(a: in bf16[4, M, 64] per_rank, c: out bf16[R, 64], rank: i32)
    targets(sm_90a)
    threads(128)
    grid(4 * cdiv(M, 64))
    requires(R == 4 * M)
{
    tensormap ta = tma(a, box[1, 64, 64], swizzle(128));
    tensormap tc = tma(c, box[64, 64], swizzle(128));
    pipeline ip(stages: 1, full: tma, empty: thread);
    shared sa: bf16[64, 64] in ip swizzle(128);
    let nb = cdiv(M, 64);
    let r = (block.x / nb + rank) % 4;
    let row = (block.x % nb) * 64;
    role load(warp 0) {
        elect {
            produce ip {
                tma_load(sa, ta, [r, row, 0]);
            }
        }
    }
    role store(warp 1) {
        elect {
            consume ip {
                tma_store(tc, [r * M + row, 0], sa);
                tma_store_wait();
            }
        }
    }
}

kernel relay<W: i32>(a: in f32[W, N] per_rank, o: out f32[N], r: i32)
    targets(sm_90a)
    threads(32)
    grid(cdiv(N, 32))
{
    let i = block.x * 32 + thread.x;
    if (i < N) {
        o[i] = a[r, i];
    }
}

instance relay<2> as relay_w2;
instance relay<4> as relay_w4;
