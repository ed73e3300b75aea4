// block_scan: the inclusive prefix sum of each block's BLOCK consecutive i32 elements
// (a segmented scan with segments of BLOCK). Each warp scans its 32 values with shuffles,
// the warps' totals go through shared memory and warp 0 scans them, then every warp adds
// the total of the warps before it.

const BLOCK: i32 = 1024;
const WARPS: i32 = BLOCK / 32;

kernel block_scan(x: in i32[N], y: out i32[N])
    threads(BLOCK)
    grid(cdiv(N, BLOCK))
{
    shared totals: i32[WARPS];
    let i = block.x * BLOCK + thread.x;
    var v: i32 = 0;
    if (i < N) {
        v = x[i];
    }
    for (o in 0 .. 5) {
        let d = 1 << o;
        let t = shfl_up(v, d);
        if (lane >= d) {
            v += t;
        }
    }
    if (lane == 31) {
        totals[warp] = v;
    }
    barrier();
    if (warp == 0) {
        var t = totals[lane];
        for (o in 0 .. 5) {
            let d = 1 << o;
            let u = shfl_up(t, d);
            if (lane >= d) {
                t += u;
            }
        }
        totals[lane] = t;
    }
    barrier();
    if (warp > 0) {
        v += totals[warp - 1];
    }
    if (i < N) {
        y[i] = v;
    }
}
