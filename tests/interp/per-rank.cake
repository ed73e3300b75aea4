// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/npy.py make %t/a0.npy '<f4' 3,40 'i'
// RUN: python3 %S/Inputs/npy.py make %t/a1.npy '<f4' 3,40 '10000 + i'
// RUN: %builddir/cakec-run --seeds 3 %s gather a_0=%t/a0.npy a_1=%t/a1.npy c=%t/c.npy N=6 rank=1
// RUN: python3 %S/Inputs/per_rank_check.py %t/c.npy 2 | FileCheck %s --check-prefix=ELEM
// RUN: python3 %S/Inputs/npy.py make %t/b0.npy '<f4' 128,32 'i'
// RUN: python3 %S/Inputs/npy.py make %t/b1.npy '<f4' 128,32 '10000 + i'
// RUN: python3 %S/Inputs/npy.py make %t/b2.npy '<f4' 128,32 '20000 + i'
// RUN: python3 %S/Inputs/npy.py make %t/b3.npy '<f4' 128,32 '30000 + i'
// RUN: %builddir/cakec-run --seeds 3 %s gather_tma a_0=%t/b0.npy a_1=%t/b1.npy a_2=%t/b2.npy a_3=%t/b3.npy c=%t/d.npy R=512 rank=2
// RUN: python3 %S/Inputs/per_rank_check.py %t/d.npy 4 | FileCheck %s --check-prefix=TMA
// RUN: %cakec --emit=ir,ptx -o %t/g %s
// RUN: FileCheck %s --check-prefix=IR < %t/g/gather_tma.ir
// RUN: FileCheck %s --check-prefix=PTX < %t/g/gather_tma.sm_90a.ptx
// RUN: %cakec --input=ir --emit=ptx -o %t/g2 %t/g/gather_tma.ir
// RUN: cmp %t/g/gather_tma.sm_90a.ptx %t/g2/gather_tma.sm_90a.ptx

// A table of tensors, one per rank (docs/language.md, "Tensors on other GPUs"): rank r's
// rows land at rows r M .. r M + M - 1 of c, each block starting at another rank
// (local first). Read element by element (the first index picks the tensor), and by TMA
// (the first coordinate picks the rank's tensor map); every element of c checked, under
// three schedules.
// ELEM: ok 6 rows
// TMA: ok 512 rows
// IR: param a_0 : tensor in f32 [M, 32] rank 0 of 4
// IR: param a_3 : tensor in f32 [M, 32] rank 3 of 4
// IR: param ta_0 : tmap a_0 box [64, 32]
// IR: param ta_3 : tmap a_3 box [64, 32]
// IR: select {{.*}} : tmap
// PTX: selp.b64
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global
kernel gather(a: in f32[2, M, K] per_rank, c: out f32[N, K], rank: i32)
    targets(sm_90a)
    threads(32)
    grid(2 * M)
    requires(N == 2 * M)
{
    let row = block.x;
    let r = (row / M + rank) % 2;
    for (j in lane .. K step 32) {
        c[r * M + row % M, j] = a[r, row % M, j];
    }
}

kernel gather_tma(a: in f32[4, M, 32] per_rank, c: out f32[R, 32], rank: i32)
    targets(sm_90a)
    threads(128)
    grid(4 * cdiv(M, 64))
    requires(R == 4 * M && M % 64 == 0)
{
    tensormap ta = tma(a, box[1, 64, 32], swizzle(128));
    tensormap tc = tma(c, box[64, 32], swizzle(128));
    pipeline ip(stages: 1, full: tma, empty: thread);
    shared sa: f32[64, 32] in ip swizzle(128);
    let nb = M / 64;
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
