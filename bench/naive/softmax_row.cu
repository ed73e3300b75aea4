// Twin of softmax_row.cake: the same algorithm, thread mapping and launch shape.
#define BLOCK 256
#define WARPS (BLOCK / 32)
#define NEG_MAX -3.4028234663852886e38f

extern "C" __global__ void softmax_row(const float *x, float *y, int M, int N)
{
    __shared__ float wmax[WARPS];
    __shared__ float wsum[WARPS];
    int row = blockIdx.x;
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;

    float m = NEG_MAX;
    for (int j = threadIdx.x; j < N; j += BLOCK) {
        m = fmaxf(m, x[row * N + j]);
    }
    for (int o = 0; o < 5; o++) {
        m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, 16 >> o));
    }
    if (lane == 0) {
        wmax[warp] = m;
    }
    __syncthreads();
    float rmax = NEG_MAX;
    for (int i = 0; i < WARPS; i++) {
        rmax = fmaxf(rmax, wmax[i]);
    }

    float s = 0.0f;
    for (int j = threadIdx.x; j < N; j += BLOCK) {
        s += expf(x[row * N + j] - rmax);
    }
    for (int o = 0; o < 5; o++) {
        s += __shfl_xor_sync(0xffffffffu, s, 16 >> o);
    }
    if (lane == 0) {
        wsum[warp] = s;
    }
    __syncthreads();
    float total = 0.0f;
    for (int i = 0; i < WARPS; i++) {
        total += wsum[i];
    }
    float inv = 1.0f / total;

    for (int j = threadIdx.x; j < N; j += BLOCK) {
        y[row * N + j] = expf(x[row * N + j] - rmax) * inv;
    }
}
