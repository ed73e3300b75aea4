// histogram: counts[b] += the number of elements of x equal to b, for u8 data and 256
// bins. Each block counts into its own shared histogram with shared-memory atomics, over
// a grid-stride loop, then adds it to the global counts (which the caller zeroes).

const BLOCK: i32 = 256;
const BINS: i32 = 256;
const MAX_BLOCKS: i32 = 1024;

kernel histogram(x: in u8[N], counts: inout i32[BINS])
    threads(BLOCK)
    grid(min(cdiv(N, BLOCK), MAX_BLOCKS))
{
    shared hist: i32[BINS];
    hist[thread.x] = 0;
    barrier();
    for (i in block.x * BLOCK + thread.x .. N step BLOCK * grid_dim.x) {
        atomic_add(hist[i32(x[i])], 1);
    }
    barrier();
    let h = hist[thread.x];
    if (h != 0) {
        atomic_add(counts[thread.x], h);
    }
}
