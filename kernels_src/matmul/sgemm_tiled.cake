// sgemm_tiled: C = A * B in f32, A: M x K, B: K x N, C: M x N, all row-major.
//
// A block of 16 x 16 threads computes a 64 x 64 tile of C, each thread a 4 x 4 register
// tile (rows ty*4.., columns tx*4..) held as four f32x4 accumulators. The K dimension is
// walked in steps of 16: the block stages a 64 x 16 slice of A (transposed, so that a
// thread's 4 rows are one 16-byte shared load) and a 16 x 64 slice of B in shared memory,
// with zero fill past the edges, then every thread does 16 rank-1 updates from registers.

const BM: i32 = 64;
const BN: i32 = 64;
const BK: i32 = 16;
const TX: i32 = 16;
const TY: i32 = 16;
const NT: i32 = TX * TY;

kernel sgemm_tiled(A: in f32[M, K], B: in f32[K, N], C: out f32[M, N])
    targets(sm_90a, sm_100a, sm_103a)
    threads(TX, TY)
    grid(cdiv(N, BN), cdiv(M, BM))
{
    // As[k, m] = A[m0 + m, k0 + k]. Rows padded by 4 floats: the staging stores of a warp
    // walk down a column of As, and a 68-float row stride spreads them over the banks
    // (2-way instead of 16-way conflicts) while keeping each row 16-byte aligned for the
    // f32x4 reads.
    shared As: f32[BK, BM + 4];
    shared Bs: f32[BK, BN];     // Bs[k, n] = B[k0 + k, n0 + n]

    let tx = thread.x;
    let ty = thread.y;
    let t = ty * TX + tx;
    let m0 = block.y * BM;
    let n0 = block.x * BN;

    var c0 = f32x4(0.0);
    var c1 = f32x4(0.0);
    var c2 = f32x4(0.0);
    var c3 = f32x4(0.0);

    for (k0 in 0 .. K step BK) {
        // stage the tiles: (BM * BK) / NT = 4 elements of each per thread; consecutive
        // threads read consecutive addresses of A's and B's rows
        for (r in 0 .. (BM * BK) / NT) unroll {
            let e = r * NT + t;
            let am = e / BK;
            let ak = e % BK;
            var av: f32 = 0.0;
            if (m0 + am < M && k0 + ak < K) {
                av = A[m0 + am, k0 + ak];
            }
            As[ak, am] = av;

            let bk = e / BN;
            let bn = e % BN;
            var bv: f32 = 0.0;
            if (k0 + bk < K && n0 + bn < N) {
                bv = B[k0 + bk, n0 + bn];
            }
            Bs[bk, bn] = bv;
        }
        barrier();

        for (k in 0 .. BK) unroll {
            let a = As[k, ty * 4 : 4];
            let b = Bs[k, tx * 4 : 4];
            c0 = fma(f32x4(a.x), b, c0);
            c1 = fma(f32x4(a.y), b, c1);
            c2 = fma(f32x4(a.z), b, c2);
            c3 = fma(f32x4(a.w), b, c3);
        }
        barrier();
    }

    // write back: one 16-byte store per row when the 4 columns are inside C and aligned
    let col = n0 + tx * 4;
    let row = m0 + ty * 4;
    let whole = N % 4 == 0 && col + 3 < N;
    for (i in 0 .. 4) unroll {
        let c = i == 0 ? c0 : i == 1 ? c1 : i == 2 ? c2 : c3;
        if (row + i < M) {
            if (whole) {
                C[row + i, col : 4] = c;
            } else {
                if (col < N) { C[row + i, col] = c.x; }
                if (col + 1 < N) { C[row + i, col + 1] = c.y; }
                if (col + 2 < N) { C[row + i, col + 2] = c.z; }
                if (col + 3 < N) { C[row + i, col + 3] = c.w; }
            }
        }
    }
}
