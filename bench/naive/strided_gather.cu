// Twin of strided_gather.cake: the same algorithm, thread mapping and launch shape.
#define BLOCK 256

extern "C" __global__ void strided_gather(const float *x, const int *idx, float *y, int stride,
                                          int R, int C, int M, int K)
{
    int m = blockIdx.x;
    int src = idx[m];
    for (int k = threadIdx.x; k < K; k += BLOCK) {
        y[m * K + k] = x[src * C + k * stride];
    }
}
