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
const LOG2E: f32 = 1.4426950408889634;
const NORM_EPS: f32 = 1e-6;

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
    cp_async(stage[k0 + 0, vc : 4], s[b, h, k0 + 0, vg : 4]);
    cp_async(stage[k0 + 1, vc : 4], s[b, h, k0 + 1, vg : 4]);
    cp_async(stage[k0 + 2, vc : 4], s[b, h, k0 + 2, vg : 4]);
    cp_async(stage[k0 + 3, vc : 4], s[b, h, k0 + 3, vg : 4]);
    cp_async(stage[k0 + 4, vc : 4], s[b, h, k0 + 4, vg : 4]);
    cp_async(stage[k0 + 5, vc : 4], s[b, h, k0 + 5, vg : 4]);
    cp_async(stage[k0 + 6, vc : 4], s[b, h, k0 + 6, vg : 4]);
    cp_async(stage[k0 + 7, vc : 4], s[b, h, k0 + 7, vg : 4]);
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
        let decay = f32x4(exp2(g[b, t, h] * LOG2E));
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
                var ss = ka.x * ka.x + ka.y * ka.y + ka.z * ka.z + ka.w * ka.w +
                         kb.x * kb.x + kb.y * kb.y + kb.z * kb.z + kb.w * kb.w;
                for (st in 0 .. LOGKT) unroll {
                    ss += shfl_xor(ss, 1 << st);
                }
                let inv = f32x4(rsqrt(ss + NORM_EPS));
                ka = ka * inv;
                kb = kb * inv;
            }
            // u = v - S^T k: this thread's 8 rows, then the sum over the KT threads
            var acc = s0 * f32x4(ka.x);
            acc = fma(s1, f32x4(ka.y), acc);
            acc = fma(s2, f32x4(ka.z), acc);
            acc = fma(s3, f32x4(ka.w), acc);
            acc = fma(s4, f32x4(kb.x), acc);
            acc = fma(s5, f32x4(kb.y), acc);
            acc = fma(s6, f32x4(kb.z), acc);
            acc = fma(s7, f32x4(kb.w), acc);
            for (st in 0 .. LOGKT) unroll {
                let m = 1 << st;
                acc = acc + f32x4(shfl_xor(acc.x, m), shfl_xor(acc.y, m), shfl_xor(acc.z, m), shfl_xor(acc.w, m));
            }
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
            var ss = qa.x * qa.x + qa.y * qa.y + qa.z * qa.z + qa.w * qa.w +
                     qb.x * qb.x + qb.y * qb.y + qb.z * qb.z + qb.w * qb.w;
            for (st in 0 .. LOGKT) unroll {
                ss += shfl_xor(ss, 1 << st);
            }
            let inv = f32x4(rsqrt(ss + NORM_EPS));
            qa = qa * inv;
            qb = qb * inv;
        }
        // o = S^T q * scale
        var oacc = s0 * f32x4(qa.x);
        oacc = fma(s1, f32x4(qa.y), oacc);
        oacc = fma(s2, f32x4(qa.z), oacc);
        oacc = fma(s3, f32x4(qa.w), oacc);
        oacc = fma(s4, f32x4(qb.x), oacc);
        oacc = fma(s5, f32x4(qb.y), oacc);
        oacc = fma(s6, f32x4(qb.z), oacc);
        oacc = fma(s7, f32x4(qb.w), oacc);
        for (st in 0 .. LOGKT) unroll {
            let m = 1 << st;
            oacc = oacc + f32x4(shfl_xor(oacc.x, m), shfl_xor(oacc.y, m), shfl_xor(oacc.z, m), shfl_xor(oacc.w, m));
        }
        if (kt == 0) {
            o[b, t, h, vg : 4] = bf16x4(oacc * f32x4(scale));
        }
        if (t < TI) {
            inter[b, t, h, k0 + 0, vg : 4] = s0;
            inter[b, t, h, k0 + 1, vg : 4] = s1;
            inter[b, t, h, k0 + 2, vg : 4] = s2;
            inter[b, t, h, k0 + 3, vg : 4] = s3;
            inter[b, t, h, k0 + 4, vg : 4] = s4;
            inter[b, t, h, k0 + 5, vg : 4] = s5;
            inter[b, t, h, k0 + 6, vg : 4] = s6;
            inter[b, t, h, k0 + 7, vg : 4] = s7;
        }
    }

    s[b, h, k0 + 0, vg : 4] = s0;
    s[b, h, k0 + 1, vg : 4] = s1;
    s[b, h, k0 + 2, vg : 4] = s2;
    s[b, h, k0 + 3, vg : 4] = s3;
    s[b, h, k0 + 4, vg : 4] = s4;
    s[b, h, k0 + 5, vg : 4] = s5;
    s[b, h, k0 + 6, vg : 4] = s6;
    s[b, h, k0 + 7, vg : 4] = s7;
}
