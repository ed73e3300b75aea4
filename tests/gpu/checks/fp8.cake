// fp8 and u8/u16 conversions on the GPU (check_fp8.c compares them bit for bit with a CPU
// reference): every form the backend has, one element (or one vector) per thread.
// N is a multiple of 4 in every launch.
// Here (lit): the kernels compile for every target and ptxas accepts them.
// REQUIRES: ptxas
// RUN: rm -rf %t && %cakec --emit=ptx -o %t %s
// RUN: for t in sm_90a sm_100a sm_103a; do for k in to8_f32 to8_half from8 small; do %ptxas -arch=$t %t/$k.$t.ptx -o %t/$k.$t.cubin || exit 1; done; done
// RUN: cat %t/to8_f32.sm_90a.ptx | FileCheck %s
// CHECK-COUNT-4: cvt.rn.satfinite.e{{4m3|5m2}}x2.f32

// f32 -> e4m3 / e5m2, 4 lanes (two paired cvts each) and 1 lane (the pair's low half).
kernel to8_f32(x: in f32[N], a4: out e4m3[N], b4: out e5m2[N], a1: out e4m3[N], b1: out e5m2[N])
    threads(256) grid(cdiv(N, 1024))
{
    let i = (block.x * 256 + thread.x) * 4;
    if (i < N) {
        let v = x[i : 4];
        a4[i : 4] = e4m3x4(v);
        b4[i : 4] = e5m2x4(v);
        for (j in 0 .. 4) unroll {
            a1[i + j] = e4m3(x[i + j]);
            b1[i + j] = e5m2(x[i + j]);
        }
    }
}

// f16 -> fp8 through the f16x2 form, bf16 -> fp8 through f32 (2 lanes each).
kernel to8_half(h: in f16[N], w: in bf16[N], ha: out e4m3[N], hb: out e5m2[N],
                wa: out e4m3[N], wb: out e5m2[N])
    threads(256) grid(cdiv(N, 512))
{
    let i = (block.x * 256 + thread.x) * 2;
    if (i < N) {
        ha[i : 2] = e4m3x2(h[i : 2]);
        hb[i : 2] = e5m2x2(h[i : 2]);
        wa[i : 2] = e4m3x2(w[i : 2]);
        wb[i : 2] = e5m2x2(w[i : 2]);
    }
}

// fp8 -> f32 (4 lanes), f16 (2 lanes), bf16 (1 lane).
kernel from8(a: in e4m3[N], b: in e5m2[N], fa: out f32[N], fb: out f32[N], ha: out f16[N],
             hb: out f16[N], wa: out bf16[N], wb: out bf16[N])
    threads(256) grid(cdiv(N, 1024))
{
    let i = (block.x * 256 + thread.x) * 4;
    if (i < N) {
        fa[i : 4] = f32x4(a[i : 4]);
        fb[i : 4] = f32x4(b[i : 4]);
        for (j in 0 .. 2) unroll {
            ha[i + 2 * j : 2] = f16x2(a[i + 2 * j : 2]);
            hb[i + 2 * j : 2] = f16x2(b[i + 2 * j : 2]);
        }
        for (j in 0 .. 4) unroll {
            wa[i + j] = bf16(a[i + j]);
            wb[i + j] = bf16(b[i + j]);
        }
    }
}

// u8/u16: from f32 (truncate, saturate, NaN -> 0), from i32 (wrap), back to f32, and
// unsigned arithmetic (wrapping add, div, shr, min/max, compare).
kernel small(x: in f32[N], k: in i32[N], s: u8, xu: out u8[N], xv: out u16[N], ku: out u8[N],
             kv: out u16[N], fu: out f32[N], fv: out f32[N], ar: out u8[N], av: out u16[N])
    threads(256) grid(cdiv(N, 256))
{
    let i = block.x * 256 + thread.x;
    if (i < N) {
        let u = u8(x[i]);
        let v = u16(x[i]);
        xu[i] = u;
        xv[i] = v;
        let p = u8(k[i]);
        let q = u16(k[i]);
        ku[i] = p;
        kv[i] = q;
        fu[i] = f32(p);
        fv[i] = f32(q);
        ar[i] = (p + s) / 3 + (p >> 2) + (p > 200 ? min(p, s) : max(p, s));
        av[i] = q / 5 - (q >> 3) + u16(p) * 300;
    }
}
