// gdp_decode_rows: gdp_decode (docs/gdp.md) with the lanes of a warp along V, so that one
// warp-wide 16-byte access covers whole row segments of the state.
//
// Same parameters, layouts, -D constants, grid and block size as gdp_decode; only the
// mapping of threads to the state differs. Block (vb, h, b) owns the BV columns
// vb*BV .. vb*BV+BV-1 of one head. Thread x holds rows k0 .. k0+7 (k0 = x / VL * 8) of
// the column quad vq = x % VL (VL = BV / 4 lanes along V): the VL lanes of one row segment
// are neighbours, so a warp instruction reads KL = 32 / VL rows of BV * 4 contiguous bytes
// (BV = 32: 4 rows x one whole 128-byte line; BV = 64: 2 rows x 256 bytes) where
// gdp_decode's read 16 rows x 32 bytes. A warp spans KL * 8 rows; NW = KD / (KL * 8) warps
// cover K (BV = 64: 8 warps, 256 threads; BV = 32: 4 warps, 128 threads).
//
// The sums over K (S^T k, S^T q) are then an 8-row multiply-add per thread, log2(KL)
// shuffle steps across the KL lanes of a warp that share a column quad, and a combine of
// the NW warp partials through a small shared buffer `red` (one barrier per sum; every
// thread adds the NW partials in the same order, so all threads of a column agree bit for
// bit). `red` has two halves used alternately by successive sums: the barrier of the sum
// in between orders a half's reads before its next writes.
//
// With L2NORM each warp computes the norms of q and k on its own: lane c % (KD / 8) sums
// the squares of elements 8c .. 8c+7 and a butterfly over KD / 8 lanes adds them up (the
// same order as gdp_decode, so the same bits for K = 128).
//
// The state is staged through shared memory as gdp_decode stages it (each thread copies
// and reads back its own rows); staging elision turns that into eight 16-byte loads per
// thread and removes the barrier after the copies (`red` and its barriers stay).
// BV from 4 to 128 (a power of two, VL <= 32), KD a multiple of KL * 8 and at most 256.

import "gdp_math.cake";         // the math the gdp designs share

const T: i32 = 1;
const NH: i32 = 1;
const KD: i32 = 128;
const VD: i32 = 128;
const BV: i32 = 64;
const L2NORM: i1 = false;

const KPT: i32 = 8;                 // state rows per thread (s0 .. s7)
const VL: i32 = BV / 4;             // lanes along V (one column quad each)
const KL: i32 = 32 / VL;            // lanes along K within a warp
const LOGKL: i32 = KL == 1 ? 0 : KL == 2 ? 1 : KL == 4 ? 2 : KL == 8 ? 3 : KL == 16 ? 4 : 5;
const NW: i32 = KD / (KL * KPT);    // warps along K
const NTHREADS: i32 = 32 * NW;
const NC: i32 = KD / 8;             // lanes of a warp that compute a norm (8 elements each)
const LOGNC: i32 = NC == 4 ? 2 : NC == 8 ? 3 : NC == 16 ? 4 : 5;
const CHECK: i32 = 1 / (VL * 4 == BV && KL * VL == 32 && NW * KL * KPT == KD && NC <= 32 ? 1 : 0);

kernel gdp_decode_rows(q: in bf16[B, T, HQK, KD], k: in bf16[B, T, NH, HQK, KD],
                       v: in bf16[B, T, NH, HV, VD], g: in f32[B, T, HV], beta: in bf16[B, T, NH, HV],
                       s: inout f32[B, HV, KD, VD], o: out bf16[B, T, HV, VD],
                       inter: out f32[B, TI, HV, KD, VD], scale: f32)
    targets(sm_90a, sm_100a, sm_103a)
    threads(NTHREADS)
    grid(VD / BV, HV, B)
{
    shared stage: f32[KD, BV];
    shared red: f32[2, NW, BV];     // warp partials of a sum over K, two alternating halves

    let vb = block.x;
    let h = block.y;
    let b = block.z;
    let vq = thread.x % VL;         // columns vc .. vc+3 of the slice
    let k0 = thread.x / VL * KPT;   // rows k0 .. k0+7
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
            let acc = xor_sum4(rows8_dot(s0, s1, s2, s3, s4, s5, s6, s7, ka, kb), VL, LOGKL);
            if (kl == 0) {
                red[pu, w, vc : 4] = acc;
            }
            barrier();
            var tot = red[pu, 0, vc : 4];
            for (i in 1 .. NW) unroll {
                tot = tot + red[pu, i, vc : 4];
            }
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
        // o = S^T q * scale, summed like u; warp 0's first row of lanes writes it
        let oacc = xor_sum4(rows8_dot(s0, s1, s2, s3, s4, s5, s6, s7, qa, qb), VL, LOGKL);
        if (kl == 0) {
            red[po, w, vc : 4] = oacc;
        }
        barrier();
        if (thread.x < VL) {
            var otot = red[po, 0, vc : 4];
            for (i in 1 .. NW) unroll {
                otot = otot + red[po, i, vc : 4];
            }
            o[b, t, h, vg : 4] = bf16x4(otot * f32x4(scale));
        }
        if (t < TI) {
            store_rows8_t(inter, b, t, h, k0, vg, s0, s1, s2, s3, s4, s5, s6, s7);
        }
    }

    store_rows8(s, b, h, k0, vg, s0, s1, s2, s3, s4, s5, s6, s7);
}
