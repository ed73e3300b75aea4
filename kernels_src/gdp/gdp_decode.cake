// gdp_decode: gated delta product decode, one step of T tokens (docs/gdp.md).
//
// Per batch b and value head h the state S (K x V, fp32) is updated in place, token by
// token: S <- exp(g_t) S; for each Householder step j: u = v_tj - S^T k_tj,
// S <- S + beta_tj k_tj u^T; then o_t = (S^T q_t) * scale. NH = 1 is Gated DeltaNet.
//
// Split-V: block (vb, h, b) owns the BV columns vb*BV .. vb*BV+BV-1 of S; columns update
// independently. Thread (kt, vq) of the block holds rows kt*8 .. kt*8+7 of 4 columns
// (eight f32x4 values s0 .. s7); the KT = KD / 8 threads of one column quad are KT
// neighbouring lanes of a warp, so the sums over K are warp shuffles (LOGKT xor steps).
//
// The state is staged through shared memory the natural way: every thread copies its own
// rows with cp.async, commits, waits, meets the others at a barrier and reads its rows
// back. At -O2 cakec's staging-elision pass sees that each thread reads back only what it
// copied and turns the copies into 16-byte loads straight into registers, with no shared
// memory and no barrier (cakec --report=staging; --no-staging-elision keeps the staging).
//
// Variants by -D: T tokens, NH Householder steps, KD and VD (64 or 128), BV columns per
// block (a multiple of 4 dividing VD), L2NORM (q and k L2-normalised in the kernel). The
// q/k heads are shared by HV / HQK value heads (GQA). Per-token states go to `inter` for
// the first TI tokens (TI = 0: an empty tensor, nothing written).

import "gdp_math.cake";         // the math the gdp designs share

const T: i32 = 1;
const NH: i32 = 1;
const KD: i32 = 128;
const VD: i32 = 128;
const BV: i32 = 32;
const L2NORM: i1 = false;

const KPT: i32 = 8;                 // state rows per thread (s0 .. s7)
const KT: i32 = KD / KPT;           // threads along K
const LOGKT: i32 = KT == 16 ? 4 : KT == 8 ? 3 : KT == 4 ? 2 : 5;
const NTHREADS: i32 = KT * (BV / 4);

kernel gdp_decode(q: in bf16[B, T, HQK, KD], k: in bf16[B, T, NH, HQK, KD],
                  v: in bf16[B, T, NH, HV, VD], g: in f32[B, T, HV], beta: in bf16[B, T, NH, HV],
                  s: inout f32[B, HV, KD, VD], o: out bf16[B, T, HV, VD],
                  inter: out f32[B, TI, HV, KD, VD], scale: f32)
    targets(sm_90a, sm_100a, sm_103a)
    threads(NTHREADS)
    grid(VD / BV, HV, B)
{
    shared stage: f32[KD, BV];

    let vb = block.x;
    let h = block.y;
    let b = block.z;
    let kt = thread.x % KT;         // rows k0 .. k0+7
    let vq = thread.x / KT;         // columns vc .. vc+3 of the slice
    let k0 = kt * KPT;
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
            var ka = f32x4(k[b, t, j, hq, k0 : 4]);
            var kb = f32x4(k[b, t, j, hq, k0 + 4 : 4]);
            if (L2NORM) {
                let inv = f32x4(l2_inv(sumsq8(ka, kb), 1, LOGKT));
                ka = ka * inv;
                kb = kb * inv;
            }
            // u = v - S^T k: this thread's 8 rows, then the sum over the KT threads
            let acc = xor_sum4(rows8_dot(s0, s1, s2, s3, s4, s5, s6, s7, ka, kb), 1, LOGKT);
            let u = (f32x4(v[b, t, j, h, vg : 4]) - acc) * f32x4(f32(beta[b, t, j, h]));
            s0 = fma(f32x4(ka.x), u, s0);
            s1 = fma(f32x4(ka.y), u, s1);
            s2 = fma(f32x4(ka.z), u, s2);
            s3 = fma(f32x4(ka.w), u, s3);
            s4 = fma(f32x4(kb.x), u, s4);
            s5 = fma(f32x4(kb.y), u, s5);
            s6 = fma(f32x4(kb.z), u, s6);
            s7 = fma(f32x4(kb.w), u, s7);
        }
        var qa = f32x4(q[b, t, hq, k0 : 4]);
        var qb = f32x4(q[b, t, hq, k0 + 4 : 4]);
        if (L2NORM) {
            let inv = f32x4(l2_inv(sumsq8(qa, qb), 1, LOGKT));
            qa = qa * inv;
            qb = qb * inv;
        }
        // o = S^T q * scale
        let oacc = xor_sum4(rows8_dot(s0, s1, s2, s3, s4, s5, s6, s7, qa, qb), 1, LOGKT);
        if (kt == 0) {
            o[b, t, h, vg : 4] = bf16x4(oacc * f32x4(scale));
        }
        if (t < TI) {
            store_rows8_t(inter, b, t, h, k0, vg, s0, s1, s2, s3, s4, s5, s6, s7);
        }
    }

    store_rows8(s, b, h, k0, vg, s0, s1, s2, s3, s4, s5, s6, s7);
}
