// gdp_decode_ksplit: gdp_decode_rows (docs/gdp.md) with K split as well as V, across the
// KS CTAs of a cluster, for small batch: KS times the blocks of rows for the same BV, so
// that 16-256 heads fill the GPU without narrowing the column slices (a narrow slice
// reads short row segments).
//
// Same parameters, layouts and -D constants as gdp_decode_rows, plus KS (1, 2, 4 or 8).
// The grid is (KS * VD / BV, HV, B) in clusters of KS blocks along x: the cluster (vb, h,
// b) owns the column slice vb of head h, and its block of rank r the rows r * KR .. r * KR
// + KR - 1 (KR = KD / KS), mapped to threads as rows maps all of K (thread x: rows k0 ..
// k0 + 7 of the slice's column quad x % VL; NW = KR / (KL * 8) warps).
//
// The sums over K run as in rows up to the warp partials in `red`; then a cluster barrier,
// and every thread adds the KS * NW partials of its column quad from the blocks of the
// cluster (distributed shared memory, `remote`), rank by rank and warp by warp: the same
// order in every block, so they agree bit for bit on u and o. `red`'s two halves
// alternate as in rows: the cluster barrier of the sum in between orders a half's remote
// reads before its next writes, and a last cluster barrier keeps each block's shared
// memory alive until the others have read it. Rank 0 writes o. With L2NORM every warp
// computes the norms of q and k over all of K, as in rows.
//
// The state is staged through shared memory as gdp_decode_rows stages it (rows kg .. kg +
// 7 of a KD-row buffer); staging elision turns that into eight 16-byte loads per thread.

import "gdp_math.cake";         // the math the gdp designs share

const T: i32 = 1;
const NH: i32 = 1;
const KD: i32 = 128;
const VD: i32 = 128;
const BV: i32 = 32;
const L2NORM: i1 = false;
const KS: i32 = 2;                  // blocks a column slice (a cluster), each KD / KS rows

const KPT: i32 = 8;                 // state rows per thread (s0 .. s7)
const KR: i32 = KD / KS;            // rows of a block
const VL: i32 = BV / 4;             // lanes along V (one column quad each)
const KL: i32 = 32 / VL;            // lanes along K within a warp
const LOGKL: i32 = KL == 1 ? 0 : KL == 2 ? 1 : KL == 4 ? 2 : KL == 8 ? 3 : KL == 16 ? 4 : 5;
const NW: i32 = KR / (KL * KPT);    // warps along K in a block
const NTHREADS: i32 = 32 * NW;
const NC: i32 = KD / 8;             // lanes of a warp that compute a norm (8 elements each)
const LOGNC: i32 = NC == 4 ? 2 : NC == 8 ? 3 : NC == 16 ? 4 : 5;
const CHECK: i32 = 1 / (VL * 4 == BV && KL * VL == 32 && NW >= 1 && NW * KL * KPT * KS == KD &&
                        KS <= 8 && NC <= 32 ? 1 : 0);

kernel gdp_decode_ksplit(q: in bf16[B, T, HQK, KD], k: in bf16[B, T, NH, HQK, KD],
                         v: in bf16[B, T, NH, HV, VD], g: in f32[B, T, HV], beta: in bf16[B, T, NH, HV],
                         s: inout f32[B, HV, KD, VD], o: out bf16[B, T, HV, VD],
                         inter: out f32[B, TI, HV, KD, VD], scale: f32)
    targets(sm_90a, sm_100a, sm_103a)
    threads(NTHREADS)
    cluster(KS)
    grid(KS * (VD / BV), HV, B)
{
    shared stage: f32[KD, BV];
    shared red: f32[2, NW, BV];     // warp partials of a sum over K, two alternating halves

    let vb = block.x / KS;
    let h = block.y;
    let b = block.z;
    let vq = thread.x % VL;         // columns vc .. vc+3 of the slice
    let k0 = cluster_rank * KR + thread.x / VL * KPT;   // rows k0 .. k0+7
    let kl = thread.x / VL % KL;    // this lane's place along K in its warp
    let w = thread.x / 32;
    let nc = thread.x % NC * 8;     // the 8 elements this lane adds to a norm
    let vc = vq * 4;
    let vg = vb * BV + vc;          // the same columns in V
    let hq = h / (HV / HQK);        // the q/k head of value head h

    // stage this thread's part of the state
    stage_rows8(stage, s, b, h, k0, vc, vg);
    cp_async_commit();
    cp_async_wait(0);
    barrier();
    var s0 = stage[k0 + 0, vc : 4];
    var s1 = stage[k0 + 1, vc : 4];
    var s2 = stage[k0 + 2, vc : 4];
    var s3 = stage[k0 + 3, vc : 4];
    var s4 = stage[k0 + 4, vc : 4];
    var s5 = stage[k0 + 5, vc : 4];
    var s6 = stage[k0 + 6, vc : 4];
    var s7 = stage[k0 + 7, vc : 4];

    for (t in 0 .. T) unroll {
        let decay = decay4(g[b, t, h]);
        s0 = s0 * decay;
        s1 = s1 * decay;
        s2 = s2 * decay;
        s3 = s3 * decay;
        s4 = s4 * decay;
        s5 = s5 * decay;
        s6 = s6 * decay;
        s7 = s7 * decay;
        for (j in 0 .. NH) unroll {
            let pu = (t * (NH + 1) + j) % 2;
            var ka = f32x4(k[b, t, j, hq, k0 : 4]);
            var kb = f32x4(k[b, t, j, hq, k0 + 4 : 4]);
            if (L2NORM) {
                let na = f32x4(k[b, t, j, hq, nc : 4]);
                let nb = f32x4(k[b, t, j, hq, nc + 4 : 4]);
                let inv = f32x4(l2_inv(sumsq8(na, nb), 1, LOGNC));
                ka = ka * inv;
                kb = kb * inv;
            }
            // u = v - S^T k: this thread's 8 rows, the KL lanes of the warp, the NW warps
            // of each of the KS blocks
            let acc = xor_sum4(rows8_dot(s0, s1, s2, s3, s4, s5, s6, s7, ka, kb), VL, LOGKL);
            if (kl == 0) {
                red[pu, w, vc : 4] = acc;
            }
            cluster_sync();
            let tot = cluster_sum(red, pu, vc);
            let u = (f32x4(v[b, t, j, h, vg : 4]) - tot) * f32x4(f32(beta[b, t, j, h]));
            s0 = fma(f32x4(ka.x), u, s0);
            s1 = fma(f32x4(ka.y), u, s1);
            s2 = fma(f32x4(ka.z), u, s2);
            s3 = fma(f32x4(ka.w), u, s3);
            s4 = fma(f32x4(kb.x), u, s4);
            s5 = fma(f32x4(kb.y), u, s5);
            s6 = fma(f32x4(kb.z), u, s6);
            s7 = fma(f32x4(kb.w), u, s7);
        }
        let po = (t * (NH + 1) + NH) % 2;
        var qa = f32x4(q[b, t, hq, k0 : 4]);
        var qb = f32x4(q[b, t, hq, k0 + 4 : 4]);
        if (L2NORM) {
            let na = f32x4(q[b, t, hq, nc : 4]);
            let nb = f32x4(q[b, t, hq, nc + 4 : 4]);
            let inv = f32x4(l2_inv(sumsq8(na, nb), 1, LOGNC));
            qa = qa * inv;
            qb = qb * inv;
        }
        // o = S^T q * scale, summed like u; rank 0's first row of lanes writes it
        let oacc = xor_sum4(rows8_dot(s0, s1, s2, s3, s4, s5, s6, s7, qa, qb), VL, LOGKL);
        if (kl == 0) {
            red[po, w, vc : 4] = oacc;
        }
        cluster_sync();
        if (cluster_rank == 0 && thread.x < VL) {
            o[b, t, h, vg : 4] = bf16x4(cluster_sum(red, po, vc) * f32x4(scale));
        }
        if (t < TI) {
            store_rows8_t(inter, b, t, h, k0, vg, s0, s1, s2, s3, s4, s5, s6, s7);
        }
    }

    store_rows8(s, b, h, k0, vg, s0, s1, s2, s3, s4, s5, s6, s7);
    // the other blocks may still read this block's `red`
    cluster_sync();
}

// The KS * NW warp partials of column quad vc in half p of `red`, rank by rank, warp by
// warp (the same order in every block of the cluster).
fn cluster_sum(red: shared f32[2, NW, BV], p: i32, vc: i32) -> f32x4 {
    var tot = remote(red, 0)[p, 0, vc : 4];
    for (i in 1 .. NW) unroll {
        tot = tot + remote(red, 0)[p, i, vc : 4];
    }
    for (r in 1 .. KS) unroll {
        for (i in 0 .. NW) unroll {
            tot = tot + remote(red, r)[p, i, vc : 4];
        }
    }
    return tot;
}
