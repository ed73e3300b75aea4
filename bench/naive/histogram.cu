// Twin of histogram.cake: the same algorithm, thread mapping and launch shape.
#define BLOCK 256
#define BINS 256

extern "C" __global__ void histogram(const unsigned char *x, int *counts, int N)
{
    __shared__ int hist[BINS];
    hist[threadIdx.x] = 0;
    __syncthreads();
    for (int i = blockIdx.x * BLOCK + threadIdx.x; i < N; i += BLOCK * gridDim.x) {
        atomicAdd(&hist[(int)x[i]], 1);
    }
    __syncthreads();
    int h = hist[threadIdx.x];
    if (h != 0) {
        atomicAdd(&counts[threadIdx.x], h);
    }
}
