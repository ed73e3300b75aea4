// Session 55 (bench/RESULTS.md): gdp_decode_warp (the variant gdp.cmake writes for BV 64, bf16)
// with lane rows kl + KL * i instead of k0 + i, read straight from global memory, so that
// one warp instruction reads KL consecutive rows whatever order ptxas issues them in; k and
// q gathered as scalars. An experiment, edited by hand from the generated variant.

// gdp_decode_warp: gdp_decode (docs/gdp.md) with each warp owning whole columns of the
// state: all KD rows of a few columns, 16 rows per thread, so every sum over K stays in
// the warp (shuffles only: no shared memory, no barrier after the loads).
//
// Same parameters, layouts, -D constants and grid as gdp_decode; the block is smaller.
// Block (vb, h, b) owns the BV columns vb*BV .. vb*BV+BV-1 of one head; it is 32 x NW
// threads, NW = BV / WC warps (thread.y) of WC columns each. In a warp, lane l holds rows k0 .. k0+15 (k0 = (l / VL) * 16) of the
// column quad l % VL: KL = KD / 16 lanes along K, VL = 32 / KL lanes along V (K = 128:
// 8 x 4, WC = 16 columns, one warp instruction reads 8 rows x 64 contiguous bytes; K = 64:
// 4 x 8, WC = 32, 4 rows x 128 bytes). BV = 64 at K = 128: 4 warps, 128 threads.
//
// Sixteen 16-byte loads per thread (64 registers of state) are issued before the first
// use, so a resident warp has 8 KiB of loads in flight, twice gdp_decode's; fewer threads
// per block hold more of the state each. S^T k and S^T q: a 16-row multiply-add per
// thread and log2(KL) xor shuffles (the butterfly leaves the sum in every lane of the
// column). With L2NORM the norms of q and k are the squares of each lane's 16 elements
// summed over the same KL lanes: no extra loads.
//
// The state is staged through shared memory as gdp_decode stages it (each thread copies
// and reads back its own rows); staging elision turns that into sixteen 16-byte loads per
// thread, with no shared memory and no barrier (the block is two-dimensional so that the
// pass can prove, from thread.x % VL, thread.x / VL and thread.y, that no thread writes
// back a row another thread read). BV a multiple of WC; KD 64 or 128.

import "gdp_math.cake";         // the math the gdp designs share

const T: i32 = 1;
const NH: i32 = 1;
const KD: i32 = 128;
const VD: i32 = 128;
const BV: i32 = 64;
const L2NORM: i1 = false;

const KPT: i32 = 16;                // state rows per thread (s0 .. s15)
const KL: i32 = KD / KPT;           // lanes along K in a warp
const LOGKL: i32 = KL == 2 ? 1 : KL == 4 ? 2 : KL == 8 ? 3 : 4;
const VL: i32 = 32 / KL;            // lanes along V in a warp (one column quad each)
const WC: i32 = VL * 4;             // columns per warp
const NW: i32 = BV / WC;            // warps per block
const CHECK: i32 = 1 / (KL * KPT == KD && KL * VL == 32 && NW * WC == BV ? 1 : 0);
// decode (T = NH = 1): at least 16 / NW blocks per SM, so at most 128 registers a thread
// (ptxas takes up to 150 otherwise: 12 resident warps instead of 16); one-warp blocks are
// left alone (16 of them spill)
const MINB: i32 = T * NH == 1 && NW > 1 ? 16 / NW : 1;

fn store_rows16s(x: out f32[XB, XH, XK, XV], b: i32, h: i32, kl: i32, vg: i32, s0: f32x4, s1: f32x4, s2: f32x4, s3: f32x4, s4: f32x4, s5: f32x4, s6: f32x4, s7: f32x4, s8: f32x4, s9: f32x4, s10: f32x4, s11: f32x4, s12: f32x4, s13: f32x4, s14: f32x4, s15: f32x4) {
    x[b, h, kl + 0 * KL, vg : 4] = s0;
    x[b, h, kl + 1 * KL, vg : 4] = s1;
    x[b, h, kl + 2 * KL, vg : 4] = s2;
    x[b, h, kl + 3 * KL, vg : 4] = s3;
    x[b, h, kl + 4 * KL, vg : 4] = s4;
    x[b, h, kl + 5 * KL, vg : 4] = s5;
    x[b, h, kl + 6 * KL, vg : 4] = s6;
    x[b, h, kl + 7 * KL, vg : 4] = s7;
    x[b, h, kl + 8 * KL, vg : 4] = s8;
    x[b, h, kl + 9 * KL, vg : 4] = s9;
    x[b, h, kl + 10 * KL, vg : 4] = s10;
    x[b, h, kl + 11 * KL, vg : 4] = s11;
    x[b, h, kl + 12 * KL, vg : 4] = s12;
    x[b, h, kl + 13 * KL, vg : 4] = s13;
    x[b, h, kl + 14 * KL, vg : 4] = s14;
    x[b, h, kl + 15 * KL, vg : 4] = s15;
}

fn store_rows16s_t(x: out f32[XB, XT, XH, XK, XV], b: i32, t: i32, h: i32, kl: i32, vg: i32, s0: f32x4, s1: f32x4, s2: f32x4, s3: f32x4, s4: f32x4, s5: f32x4, s6: f32x4, s7: f32x4, s8: f32x4, s9: f32x4, s10: f32x4, s11: f32x4, s12: f32x4, s13: f32x4, s14: f32x4, s15: f32x4) {
    x[b, t, h, kl + 0 * KL, vg : 4] = s0;
    x[b, t, h, kl + 1 * KL, vg : 4] = s1;
    x[b, t, h, kl + 2 * KL, vg : 4] = s2;
    x[b, t, h, kl + 3 * KL, vg : 4] = s3;
    x[b, t, h, kl + 4 * KL, vg : 4] = s4;
    x[b, t, h, kl + 5 * KL, vg : 4] = s5;
    x[b, t, h, kl + 6 * KL, vg : 4] = s6;
    x[b, t, h, kl + 7 * KL, vg : 4] = s7;
    x[b, t, h, kl + 8 * KL, vg : 4] = s8;
    x[b, t, h, kl + 9 * KL, vg : 4] = s9;
    x[b, t, h, kl + 10 * KL, vg : 4] = s10;
    x[b, t, h, kl + 11 * KL, vg : 4] = s11;
    x[b, t, h, kl + 12 * KL, vg : 4] = s12;
    x[b, t, h, kl + 13 * KL, vg : 4] = s13;
    x[b, t, h, kl + 14 * KL, vg : 4] = s14;
    x[b, t, h, kl + 15 * KL, vg : 4] = s15;
}

kernel warp_strided(q: in bf16[B, T, HQK, KD], k: in bf16[B, T, NH, HQK, KD],
                       v: in bf16[B, T, NH, HV, VD], g: in f32[B, T, HV], beta: in bf16[B, T, NH, HV],
                       s: inout f32[B, HV, KD, VD], o: out bf16[B, T, HV, VD],
                       inter: out f32[B, TI, HV, KD, VD], scale: f32)
    targets(sm_90a, sm_100a, sm_103a)
    threads(32, NW)
    min_blocks(MINB)
    grid(VD / BV, HV, B)
{

    let vb = block.x;
    let h = block.y;
    let b = block.z;
    let vq = thread.x % VL;         // column quad within the warp's columns
    let kl = thread.x / VL;         // rows kl, kl + KL, ..., kl + 15 KL

    let vc = thread.y * WC + vq * 4;    // columns vc .. vc+3 of the slice (warp thread.y)
    let vg = vb * BV + vc;          // the same columns in V
    let hq = h / (HV / HQK);        // the q/k head of value head h

    // session 55's experiment: lane rows kl + KL * i (i = 0..15), so that one warp
    // instruction reads KL consecutive rows; read straight from global memory
    var s0 = s[b, h, kl + 0 * KL, vg : 4];
    var s1 = s[b, h, kl + 1 * KL, vg : 4];
    var s2 = s[b, h, kl + 2 * KL, vg : 4];
    var s3 = s[b, h, kl + 3 * KL, vg : 4];
    var s4 = s[b, h, kl + 4 * KL, vg : 4];
    var s5 = s[b, h, kl + 5 * KL, vg : 4];
    var s6 = s[b, h, kl + 6 * KL, vg : 4];
    var s7 = s[b, h, kl + 7 * KL, vg : 4];
    var s8 = s[b, h, kl + 8 * KL, vg : 4];
    var s9 = s[b, h, kl + 9 * KL, vg : 4];
    var s10 = s[b, h, kl + 10 * KL, vg : 4];
    var s11 = s[b, h, kl + 11 * KL, vg : 4];
    var s12 = s[b, h, kl + 12 * KL, vg : 4];
    var s13 = s[b, h, kl + 13 * KL, vg : 4];
    var s14 = s[b, h, kl + 14 * KL, vg : 4];
    var s15 = s[b, h, kl + 15 * KL, vg : 4];

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
        s8 = s8 * decay;
        s9 = s9 * decay;
        s10 = s10 * decay;
        s11 = s11 * decay;
        s12 = s12 * decay;
        s13 = s13 * decay;
        s14 = s14 * decay;
        s15 = s15 * decay;
        for (j in 0 .. NH) unroll {
            var ka = f32x4(f32(k[b, t, j, hq, kl + 0 * KL]), f32(k[b, t, j, hq, kl + 1 * KL]), f32(k[b, t, j, hq, kl + 2 * KL]), f32(k[b, t, j, hq, kl + 3 * KL]));
            var kb = f32x4(f32(k[b, t, j, hq, kl + 4 * KL]), f32(k[b, t, j, hq, kl + 5 * KL]), f32(k[b, t, j, hq, kl + 6 * KL]), f32(k[b, t, j, hq, kl + 7 * KL]));
            var kc = f32x4(f32(k[b, t, j, hq, kl + 8 * KL]), f32(k[b, t, j, hq, kl + 9 * KL]), f32(k[b, t, j, hq, kl + 10 * KL]), f32(k[b, t, j, hq, kl + 11 * KL]));
            var kd = f32x4(f32(k[b, t, j, hq, kl + 12 * KL]), f32(k[b, t, j, hq, kl + 13 * KL]), f32(k[b, t, j, hq, kl + 14 * KL]), f32(k[b, t, j, hq, kl + 15 * KL]));
            if (L2NORM) {
                let inv = f32x4(l2_inv(sumsq16(ka, kb, kc, kd), VL, LOGKL));
                ka = ka * inv;
                kb = kb * inv;
                kc = kc * inv;
                kd = kd * inv;
            }
            // u = v - S^T k: this thread's 16 rows, then the sum over the KL lanes
            let acc = xor_sum4(rows16_dot(s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15, ka, kb, kc, kd), VL, LOGKL);
            let u = (f32x4(v[b, t, j, h, vg : 4]) - acc) * f32x4(f32(beta[b, t, j, h]));
            s0 = fma(f32x4(ka.x), u, s0);
            s1 = fma(f32x4(ka.y), u, s1);
            s2 = fma(f32x4(ka.z), u, s2);
            s3 = fma(f32x4(ka.w), u, s3);
            s4 = fma(f32x4(kb.x), u, s4);
            s5 = fma(f32x4(kb.y), u, s5);
            s6 = fma(f32x4(kb.z), u, s6);
            s7 = fma(f32x4(kb.w), u, s7);
            s8 = fma(f32x4(kc.x), u, s8);
            s9 = fma(f32x4(kc.y), u, s9);
            s10 = fma(f32x4(kc.z), u, s10);
            s11 = fma(f32x4(kc.w), u, s11);
            s12 = fma(f32x4(kd.x), u, s12);
            s13 = fma(f32x4(kd.y), u, s13);
            s14 = fma(f32x4(kd.z), u, s14);
            s15 = fma(f32x4(kd.w), u, s15);
        }
        var qa = f32x4(f32(q[b, t, hq, kl + 0 * KL]), f32(q[b, t, hq, kl + 1 * KL]), f32(q[b, t, hq, kl + 2 * KL]), f32(q[b, t, hq, kl + 3 * KL]));
        var qb = f32x4(f32(q[b, t, hq, kl + 4 * KL]), f32(q[b, t, hq, kl + 5 * KL]), f32(q[b, t, hq, kl + 6 * KL]), f32(q[b, t, hq, kl + 7 * KL]));
        var qc = f32x4(f32(q[b, t, hq, kl + 8 * KL]), f32(q[b, t, hq, kl + 9 * KL]), f32(q[b, t, hq, kl + 10 * KL]), f32(q[b, t, hq, kl + 11 * KL]));
        var qd = f32x4(f32(q[b, t, hq, kl + 12 * KL]), f32(q[b, t, hq, kl + 13 * KL]), f32(q[b, t, hq, kl + 14 * KL]), f32(q[b, t, hq, kl + 15 * KL]));
        if (L2NORM) {
            let inv = f32x4(l2_inv(sumsq16(qa, qb, qc, qd), VL, LOGKL));
            qa = qa * inv;
            qb = qb * inv;
            qc = qc * inv;
            qd = qd * inv;
        }
        // o = S^T q * scale
        let oacc = xor_sum4(rows16_dot(s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15, qa, qb, qc, qd), VL, LOGKL);
        if (kl == 0) {
            o[b, t, h, vg : 4] = bf16x4(oacc * f32x4(scale));
        }
        if (t < TI) {
            store_rows16s_t(inter, b, t, h, kl, vg, s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15);
        }
    }

    store_rows16s(s, b, h, kl, vg, s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15);
}
