// strided_gather: y[m, k] = x[idx[m], k * S] for k < K: gathers rows by index and reads
// every S-th element of each (an embedding lookup over a strided view).
// One block per output row; the threads stride over its K elements.

const BLOCK: i32 = 256;

kernel strided_gather(x: in f32[R, C], idx: in i32[M], y: out f32[M, K], stride: i32)
    threads(BLOCK)
    grid(M)
{
    let m = block.x;
    let src = idx[m];
    for (k in thread.x .. K step BLOCK) {
        y[m, k] = x[src, k * stride];
    }
}
