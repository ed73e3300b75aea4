// Twin of batched_matvec.cake: the same algorithm, thread mapping and launch shape.
#define BLOCK 64

extern "C" __global__ void batched_matvec(const float *a, const float *x, float *y,
                                          int B, int R, int C)
{
    int b = blockIdx.x;
    for (int i = threadIdx.x; i < R; i += BLOCK) {
        float acc = 0.0f;
        for (int j = 0; j < C; j++) {
            acc += a[(b * R + i) * C + j] * x[b * C + j];
        }
        y[b * R + i] = acc;
    }
}
