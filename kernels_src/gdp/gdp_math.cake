// gdp_math.cake: the math the gdp decode designs share (docs/gdp.md), imported by each
// (`import "gdp_math.cake";`). A library: functions and constants, no kernel; the tools
// that compile every kernels_src file skip files without one.
//
// Every function is inlined at its call (docs/language.md, Functions), so a design that
// calls these compiles to the code it had with the math written out. The layout constants
// of a design (how many lanes share a sum, how far apart they are) are parameters here,
// not constants: the designs set theirs with -D. Nothing here names bf16 or f16 (the f16
// variants respell the designs' text only: tests/gpu/gdp_variant.cmake). Sums run in the
// order they were written in, left to right, so results are bit for bit the same.
// The importer's constants share this file's scope: no parameter or dimension name here
// is one of theirs (hence XB .. XV, SK, SC for the tensors' and arrays' dimensions).

const LOG2E: f32 = 1.4426950408889634;
const NORM_EPS: f32 = 1e-6;        // added to the sum of squares before the rsqrt

// exp(g) for a column quad: the decay of the state for a token, as exp2(g * log2 e) with
// the hardware's approximate ex2 (as Triton's exp).
fn decay4(g: f32) -> f32x4 {
    return f32x4(exp2(g * LOG2E));
}

// The sum of squares of 8 elements (a, then b).
fn sumsq8(a: f32x4, b: f32x4) -> f32 {
    return a.x * a.x + a.y * a.y + a.z * a.z + a.w * a.w +
           b.x * b.x + b.y * b.y + b.z * b.z + b.w * b.w;
}

// The sum of squares of 16 elements, in order.
fn sumsq16(a: f32x4, b: f32x4, c: f32x4, d: f32x4) -> f32 {
    return sumsq8(a, b) + c.x * c.x + c.y * c.y + c.z * c.z + c.w * c.w +
           d.x * d.x + d.y * d.y + d.z * d.z + d.w * d.w;
}

// The dot product of 8 elements (a, then b) with 8 others (c, then d).
fn dot8(a: f32x4, b: f32x4, c: f32x4, d: f32x4) -> f32 {
    return a.x * c.x + a.y * c.y + a.z * c.z + a.w * c.w +
           b.x * d.x + b.y * d.y + b.z * d.z + b.w * d.w;
}

// A butterfly over 2^steps lanes m0 apart (lane i with i ^ (m0 << st) for st = 0 ..
// steps - 1): every one of them ends with the sum of all. Uses shfl_xor: every lane of
// the warp must call it.
fn xor_sum(x: f32, m0: i32, steps: i32) -> f32 {
    var acc = x;
    for (st in 0 .. steps) unroll {
        acc += shfl_xor(acc, m0 << st);
    }
    return acc;
}

// xor_sum of each lane of a column quad. Uses shfl_xor: every lane of the warp must call it.
fn xor_sum4(x: f32x4, m0: i32, steps: i32) -> f32x4 {
    var acc = x;
    for (st in 0 .. steps) unroll {
        let m = m0 << st;
        acc = acc + f32x4(shfl_xor(acc.x, m), shfl_xor(acc.y, m), shfl_xor(acc.z, m), shfl_xor(acc.w, m));
    }
    return acc;
}

// 1 / |x| for L2 normalisation, from the partial sums of squares of the lanes that hold x
// (xor_sum's m0 and steps), with the approximate rsqrt (flash-linear-attention's
// use_qk_l2norm_in_kernel). Uses shfl_xor: every lane of the warp must call it.
fn l2_inv(sumsq: f32, m0: i32, steps: i32) -> f32 {
    return rsqrt(xor_sum(sumsq, m0, steps) + NORM_EPS);
}

// This thread's part of S^T x for its column quad: rows s0 .. s7 times x's 8 elements
// (xa, then xb), as a chain of fmas.
fn rows8_dot(s0: f32x4, s1: f32x4, s2: f32x4, s3: f32x4, s4: f32x4, s5: f32x4, s6: f32x4,
             s7: f32x4, xa: f32x4, xb: f32x4) -> f32x4 {
    var acc = s0 * f32x4(xa.x);
    acc = fma(s1, f32x4(xa.y), acc);
    acc = fma(s2, f32x4(xa.z), acc);
    acc = fma(s3, f32x4(xa.w), acc);
    acc = fma(s4, f32x4(xb.x), acc);
    acc = fma(s5, f32x4(xb.y), acc);
    acc = fma(s6, f32x4(xb.z), acc);
    acc = fma(s7, f32x4(xb.w), acc);
    return acc;
}

// acc plus 8 more rows of S^T x (continuing rows8_dot's chain).
fn rows8_fma(acc: f32x4, s0: f32x4, s1: f32x4, s2: f32x4, s3: f32x4, s4: f32x4, s5: f32x4,
             s6: f32x4, s7: f32x4, xa: f32x4, xb: f32x4) -> f32x4 {
    var a = fma(s0, f32x4(xa.x), acc);
    a = fma(s1, f32x4(xa.y), a);
    a = fma(s2, f32x4(xa.z), a);
    a = fma(s3, f32x4(xa.w), a);
    a = fma(s4, f32x4(xb.x), a);
    a = fma(s5, f32x4(xb.y), a);
    a = fma(s6, f32x4(xb.z), a);
    a = fma(s7, f32x4(xb.w), a);
    return a;
}

// This thread's part of S^T x over 16 rows (x's 16 elements: xa, xb, xc, xd).
fn rows16_dot(s0: f32x4, s1: f32x4, s2: f32x4, s3: f32x4, s4: f32x4, s5: f32x4, s6: f32x4,
              s7: f32x4, s8: f32x4, s9: f32x4, s10: f32x4, s11: f32x4, s12: f32x4, s13: f32x4,
              s14: f32x4, s15: f32x4, xa: f32x4, xb: f32x4, xc: f32x4, xd: f32x4) -> f32x4 {
    return rows8_fma(rows8_dot(s0, s1, s2, s3, s4, s5, s6, s7, xa, xb),
                     s8, s9, s10, s11, s12, s13, s14, s15, xc, xd);
}

// ---- moving a thread's rows of the state: rows k0 .. k0+7 (or +15) of one column quad ----

// cp.async of rows k0 .. k0+7, columns vg .. vg+3 of x[b, h] into rows k0 .. k0+7, columns
// vc .. vc+3 of stage (the caller commits, waits and meets the others at a barrier).
fn stage_rows8(stage: shared f32[SK, SC], x: in f32[XB, XH, XK, XV], b: i32, h: i32, k0: i32,
               vc: i32, vg: i32) {
    cp_async(stage[k0 + 0, vc : 4], x[b, h, k0 + 0, vg : 4]);
    cp_async(stage[k0 + 1, vc : 4], x[b, h, k0 + 1, vg : 4]);
    cp_async(stage[k0 + 2, vc : 4], x[b, h, k0 + 2, vg : 4]);
    cp_async(stage[k0 + 3, vc : 4], x[b, h, k0 + 3, vg : 4]);
    cp_async(stage[k0 + 4, vc : 4], x[b, h, k0 + 4, vg : 4]);
    cp_async(stage[k0 + 5, vc : 4], x[b, h, k0 + 5, vg : 4]);
    cp_async(stage[k0 + 6, vc : 4], x[b, h, k0 + 6, vg : 4]);
    cp_async(stage[k0 + 7, vc : 4], x[b, h, k0 + 7, vg : 4]);
}

// s0 .. s7 into rows k0 .. k0+7, columns vg .. vg+3 of x[b, h].
fn store_rows8(x: out f32[XB, XH, XK, XV], b: i32, h: i32, k0: i32, vg: i32, s0: f32x4,
               s1: f32x4, s2: f32x4, s3: f32x4, s4: f32x4, s5: f32x4, s6: f32x4, s7: f32x4) {
    x[b, h, k0 + 0, vg : 4] = s0;
    x[b, h, k0 + 1, vg : 4] = s1;
    x[b, h, k0 + 2, vg : 4] = s2;
    x[b, h, k0 + 3, vg : 4] = s3;
    x[b, h, k0 + 4, vg : 4] = s4;
    x[b, h, k0 + 5, vg : 4] = s5;
    x[b, h, k0 + 6, vg : 4] = s6;
    x[b, h, k0 + 7, vg : 4] = s7;
}

// store_rows8 into x[b, t, h]: the state after token t.
fn store_rows8_t(x: out f32[XB, XT, XH, XK, XV], b: i32, t: i32, h: i32, k0: i32, vg: i32,
                 s0: f32x4, s1: f32x4, s2: f32x4, s3: f32x4, s4: f32x4, s5: f32x4, s6: f32x4,
                 s7: f32x4) {
    x[b, t, h, k0 + 0, vg : 4] = s0;
    x[b, t, h, k0 + 1, vg : 4] = s1;
    x[b, t, h, k0 + 2, vg : 4] = s2;
    x[b, t, h, k0 + 3, vg : 4] = s3;
    x[b, t, h, k0 + 4, vg : 4] = s4;
    x[b, t, h, k0 + 5, vg : 4] = s5;
    x[b, t, h, k0 + 6, vg : 4] = s6;
    x[b, t, h, k0 + 7, vg : 4] = s7;
}

// The same for rows k0 .. k0+15 (the designs with 16 rows a thread).
fn stage_rows16(stage: shared f32[SK, SC], x: in f32[XB, XH, XK, XV], b: i32, h: i32, k0: i32,
                vc: i32, vg: i32) {
    cp_async(stage[k0 + 0, vc : 4], x[b, h, k0 + 0, vg : 4]);
    cp_async(stage[k0 + 1, vc : 4], x[b, h, k0 + 1, vg : 4]);
    cp_async(stage[k0 + 2, vc : 4], x[b, h, k0 + 2, vg : 4]);
    cp_async(stage[k0 + 3, vc : 4], x[b, h, k0 + 3, vg : 4]);
    cp_async(stage[k0 + 4, vc : 4], x[b, h, k0 + 4, vg : 4]);
    cp_async(stage[k0 + 5, vc : 4], x[b, h, k0 + 5, vg : 4]);
    cp_async(stage[k0 + 6, vc : 4], x[b, h, k0 + 6, vg : 4]);
    cp_async(stage[k0 + 7, vc : 4], x[b, h, k0 + 7, vg : 4]);
    cp_async(stage[k0 + 8, vc : 4], x[b, h, k0 + 8, vg : 4]);
    cp_async(stage[k0 + 9, vc : 4], x[b, h, k0 + 9, vg : 4]);
    cp_async(stage[k0 + 10, vc : 4], x[b, h, k0 + 10, vg : 4]);
    cp_async(stage[k0 + 11, vc : 4], x[b, h, k0 + 11, vg : 4]);
    cp_async(stage[k0 + 12, vc : 4], x[b, h, k0 + 12, vg : 4]);
    cp_async(stage[k0 + 13, vc : 4], x[b, h, k0 + 13, vg : 4]);
    cp_async(stage[k0 + 14, vc : 4], x[b, h, k0 + 14, vg : 4]);
    cp_async(stage[k0 + 15, vc : 4], x[b, h, k0 + 15, vg : 4]);
}

fn store_rows16(x: out f32[XB, XH, XK, XV], b: i32, h: i32, k0: i32, vg: i32, s0: f32x4,
                s1: f32x4, s2: f32x4, s3: f32x4, s4: f32x4, s5: f32x4, s6: f32x4, s7: f32x4,
                s8: f32x4, s9: f32x4, s10: f32x4, s11: f32x4, s12: f32x4, s13: f32x4,
                s14: f32x4, s15: f32x4) {
    x[b, h, k0 + 0, vg : 4] = s0;
    x[b, h, k0 + 1, vg : 4] = s1;
    x[b, h, k0 + 2, vg : 4] = s2;
    x[b, h, k0 + 3, vg : 4] = s3;
    x[b, h, k0 + 4, vg : 4] = s4;
    x[b, h, k0 + 5, vg : 4] = s5;
    x[b, h, k0 + 6, vg : 4] = s6;
    x[b, h, k0 + 7, vg : 4] = s7;
    x[b, h, k0 + 8, vg : 4] = s8;
    x[b, h, k0 + 9, vg : 4] = s9;
    x[b, h, k0 + 10, vg : 4] = s10;
    x[b, h, k0 + 11, vg : 4] = s11;
    x[b, h, k0 + 12, vg : 4] = s12;
    x[b, h, k0 + 13, vg : 4] = s13;
    x[b, h, k0 + 14, vg : 4] = s14;
    x[b, h, k0 + 15, vg : 4] = s15;
}

fn store_rows16_t(x: out f32[XB, XT, XH, XK, XV], b: i32, t: i32, h: i32, k0: i32, vg: i32,
                  s0: f32x4, s1: f32x4, s2: f32x4, s3: f32x4, s4: f32x4, s5: f32x4, s6: f32x4,
                  s7: f32x4, s8: f32x4, s9: f32x4, s10: f32x4, s11: f32x4, s12: f32x4,
                  s13: f32x4, s14: f32x4, s15: f32x4) {
    x[b, t, h, k0 + 0, vg : 4] = s0;
    x[b, t, h, k0 + 1, vg : 4] = s1;
    x[b, t, h, k0 + 2, vg : 4] = s2;
    x[b, t, h, k0 + 3, vg : 4] = s3;
    x[b, t, h, k0 + 4, vg : 4] = s4;
    x[b, t, h, k0 + 5, vg : 4] = s5;
    x[b, t, h, k0 + 6, vg : 4] = s6;
    x[b, t, h, k0 + 7, vg : 4] = s7;
    x[b, t, h, k0 + 8, vg : 4] = s8;
    x[b, t, h, k0 + 9, vg : 4] = s9;
    x[b, t, h, k0 + 10, vg : 4] = s10;
    x[b, t, h, k0 + 11, vg : 4] = s11;
    x[b, t, h, k0 + 12, vg : 4] = s12;
    x[b, t, h, k0 + 13, vg : 4] = s13;
    x[b, t, h, k0 + 14, vg : 4] = s14;
    x[b, t, h, k0 + 15, vg : 4] = s15;
}
