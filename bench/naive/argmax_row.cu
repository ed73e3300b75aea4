// Twin of argmax_row.cake: the same algorithm, thread mapping and launch shape.
#define ROWS 4
#define NEG_INF -3.4028234663852886e38f

extern "C" __global__ void argmax_row(const float *x, float *vals, int *idxs, int M, int N)
{
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    int row = blockIdx.x * ROWS + warp;
    if (row < M) {
        float best = NEG_INF;
        int bi = N;
        for (int j = lane; j < N; j += 32) {
            float v = x[row * N + j];
            if (v > best) {
                best = v;
                bi = j;
            }
        }
        for (int o = 0; o < 5; o++) {
            float ov = __shfl_xor_sync(0xffffffffu, best, 16 >> o);
            int oi = __shfl_xor_sync(0xffffffffu, bi, 16 >> o);
            if (ov > best || (ov == best && oi < bi)) {
                best = ov;
                bi = oi;
            }
        }
        if (lane == 0) {
            vals[row] = best;
            idxs[row] = bi;
        }
    }
}
