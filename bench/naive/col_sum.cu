// Twin of col_sum.cake: the same algorithm, thread mapping and launch shape.
#define BLOCK 256

extern "C" __global__ void col_sum(const float *x, float *y, int M, int N)
{
    int c = blockIdx.x * BLOCK + threadIdx.x;
    if (c < N) {
        float acc = 0.0f;
        for (int r = 0; r < M; r++) {
            acc += x[r * N + c];
        }
        y[c] = acc;
    }
}
