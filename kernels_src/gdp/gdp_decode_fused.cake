// gdp_decode_fused: gdp_decode_rows (lanes along V, 8 rows per thread, warp partials
// combined through shared memory) with one pass over the state per token instead of two:
// S^T q is summed in the same pass (the same shuffles and the same barrier) as S^T k of
// the first Householder step, so a token costs NH barriers instead of NH + 1.
//
// Same parameters, layouts, -D constants (but T and NH: generic, as in gdp_decode_multi,
// whose entry point launches gdp_decode_fused<1, 1> at large batch), grid and block size as
// gdp_decode. The layout constants carry an F (FKPT, FVL, ...): the warp-mapping designs'
// KPT, VL, ... have other values, and gdp_decode_multi imports this file too. With S the
// decayed state and S_j the state after Householder step j,
//     S_j^T q = S_{j-1}^T q + u_j (k_j . q)        (S_j = S_{j-1} + k_j u_j^T)
// so o = (S^T q + sum_j u_j (k_j . q)) * scale: the threads that write o carry
// p = S_j^T q along, and the scalars k_j . q are warp dot products (lane c % (KD / 8)
// multiplies elements 8c .. 8c+7 of k_j and q, a butterfly adds them up), which need no
// barrier. The sum is ordered differently from gdp_decode's S_final^T q, so o differs from
// it by f32 rounding (far below the bf16 output's), the state not at all in exact
// arithmetic (it is computed as in gdp_decode_rows).
//
// Mapping (as gdp_decode_rows): thread x holds rows k0 .. k0+7 (k0 = x / FVL * 8) of the
// column quad x % FVL, FVL = BV / 4 lanes along V, so a warp instruction reads FKL = 32 / FVL
// whole row segments of BV * 4 bytes; FNW = KD / (FKL * 8) warps cover K. Shared memory:
// `red` (the S^T k partials of the FNW warps, two halves used by alternate passes) and
// `redq` (the S^T q partials, two halves used by alternate tokens: the passes of the
// token in between order the reuse).
//
// The state is staged through shared memory as gdp_decode stages it; staging elision
// turns that into eight 16-byte loads per thread (red, redq and their barriers stay).
//
// launch(dependent): at 1024 heads (2048 blocks, about two waves) the next call's blocks
// take the SMs the last wave leaves, so back-to-back calls run 35.2 -> 34.5 us on the H200
// (90.0 -> 91.8% of copy bandwidth; 4096 heads 132.7 -> 132.1: bench/RESULTS.md section 54).
// Where the grid fits the GPU at once (64 heads) it cost 10% instead (section 22): the
// entry point takes tma there.

import "gdp_math.cake";         // the math the gdp designs share

const KD: i32 = 128;
const VD: i32 = 128;
const BV: i32 = 64;
const L2NORM: i1 = false;

const FKPT: i32 = 8;                 // state rows per thread (s0 .. s7)
const FVL: i32 = BV / 4;             // lanes along V (one column quad each)
const FKL: i32 = 32 / FVL;            // lanes along K within a warp
const FLOGKL: i32 = FKL == 1 ? 0 : FKL == 2 ? 1 : FKL == 4 ? 2 : FKL == 8 ? 3 : FKL == 16 ? 4 : 5;
const FNW: i32 = KD / (FKL * FKPT);    // warps along K
const NTHREADS: i32 = 32 * FNW;
const NC: i32 = KD / 8;             // lanes of a warp that compute a dot product (8 elements each)
const LOGNC: i32 = NC == 4 ? 2 : NC == 8 ? 3 : NC == 16 ? 4 : 5;
const CHECK: i32 = 1 / (FVL * 4 == BV && FKL * FVL == 32 && FNW * FKL * FKPT == KD && NC <= 32 ? 1 : 0);

kernel gdp_decode_fused<T: i32, NH: i32>(q: in bf16[B, T, HQK, KD], k: in bf16[B, T, NH, HQK, KD],
                        v: in bf16[B, T, NH, HV, VD], g: in f32[B, T, HV], beta: in bf16[B, T, NH, HV],
                        s: inout f32[B, HV, KD, VD], o: out bf16[B, T, HV, VD],
                        inter: out f32[B, TI, HV, KD, VD], scale: f32)
    targets(sm_90a, sm_100a, sm_103a)
    threads(NTHREADS)
    grid(VD / BV, HV, B)
    launch(dependent)
{
    shared stage: f32[KD, BV];
    shared red: f32[2, FNW, BV];     // warp partials of S^T k, halves alternating by pass
    shared redq: f32[2, FNW, BV];    // warp partials of S^T q, halves alternating by token

    let vb = block.x;
    let h = block.y;
    let b = block.z;
    let vq = thread.x % FVL;         // columns vc .. vc+3 of the slice
    let k0 = thread.x / FVL * FKPT;   // rows k0 .. k0+7
    let kl = thread.x / FVL % FKL;    // this lane's place along K in its warp
    let w = thread.x / 32;
    let nc = thread.x % NC * 8;     // the 8 elements this lane adds to a dot product
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
        // q: this thread's rows, and this lane's chunk for the dot products (and norm)
        var qa = f32x4(q[b, t, hq, k0 : 4]);
        var qb = f32x4(q[b, t, hq, k0 + 4 : 4]);
        let qna = f32x4(q[b, t, hq, nc : 4]);
        let qnb = f32x4(q[b, t, hq, nc + 4 : 4]);
        var invq: f32 = 1.0;
        if (L2NORM) {
            invq = l2_inv(sumsq8(qna, qnb), 1, LOGNC);
            qa = qa * f32x4(invq);
            qb = qb * f32x4(invq);
        }
        var p = f32x4(0.0);         // S_j^T q, in the threads that write o
        for (j in 0 .. NH) unroll {
            let pu = (t * NH + j) % 2;
            var ka = f32x4(k[b, t, j, hq, k0 : 4]);
            var kb = f32x4(k[b, t, j, hq, k0 + 4 : 4]);
            let kna = f32x4(k[b, t, j, hq, nc : 4]);
            let knb = f32x4(k[b, t, j, hq, nc + 4 : 4]);
            // k . q over the whole of K, in every lane
            var kq = xor_sum(dot8(kna, knb, qna, qnb), 1, LOGNC);
            if (L2NORM) {
                let inv = l2_inv(sumsq8(kna, knb), 1, LOGNC);
                ka = ka * f32x4(inv);
                kb = kb * f32x4(inv);
                kq = kq * inv * invq;
            }
            // S_{j-1}^T k: this thread's 8 rows, the FKL lanes of the warp, the FNW warps
            let acc = xor_sum4(rows8_dot(s0, s1, s2, s3, s4, s5, s6, s7, ka, kb), FVL, FLOGKL);
            if (kl == 0) {
                red[pu, w, vc : 4] = acc;
            }
            if (j == 0) {
                // S^T q of the decayed state, in the same pass
                let oacc = xor_sum4(rows8_dot(s0, s1, s2, s3, s4, s5, s6, s7, qa, qb), FVL, FLOGKL);
                if (kl == 0) {
                    redq[t % 2, w, vc : 4] = oacc;
                }
            }
            barrier();
            var tot = red[pu, 0, vc : 4];
            for (i in 1 .. FNW) unroll {
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
            if (thread.x < FVL) {
                if (j == 0) {
                    p = redq[t % 2, 0, vc : 4];
                    for (i in 1 .. FNW) unroll {
                        p = p + redq[t % 2, i, vc : 4];
                    }
                }
                p = fma(u, f32x4(kq), p);
            }
        }
        if (thread.x < FVL) {
            o[b, t, h, vg : 4] = bf16x4(p * f32x4(scale));
        }
        if (t < TI) {
            store_rows8_t(inter, b, t, h, k0, vg, s0, s1, s2, s3, s4, s5, s6, s7);
        }
    }

    store_rows8(s, b, h, k0, vg, s0, s1, s2, s3, s4, s5, s6, s7);
}

// One token and one step (gdp_decode_multi's entry point, which takes this design for them at
// large batch, is the one to call: docs/gdp.md); a file that imports this one can make
// other instances (tests/interp/Inputs/gdp_generic.cake makes <2, 2>).
instance gdp_decode_fused<1, 1>;
