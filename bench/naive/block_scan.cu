// Twin of block_scan.cake: the same algorithm, thread mapping and launch shape.
#define BLOCK 1024
#define WARPS (BLOCK / 32)

extern "C" __global__ void block_scan(const int *x, int *y, int N)
{
    __shared__ int totals[WARPS];
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    int i = blockIdx.x * BLOCK + threadIdx.x;
    int v = 0;
    if (i < N) {
        v = x[i];
    }
    for (int o = 0; o < 5; o++) {
        int d = 1 << o;
        int t = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d) {
            v += t;
        }
    }
    if (lane == 31) {
        totals[warp] = v;
    }
    __syncthreads();
    if (warp == 0) {
        int t = totals[lane];
        for (int o = 0; o < 5; o++) {
            int d = 1 << o;
            int u = __shfl_up_sync(0xffffffffu, t, d);
            if (lane >= d) {
                t += u;
            }
        }
        totals[lane] = t;
    }
    __syncthreads();
    if (warp > 0) {
        v += totals[warp - 1];
    }
    if (i < N) {
        y[i] = v;
    }
}
