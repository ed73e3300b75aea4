// Twin of masked_fill.cake: the same algorithm, thread mapping and launch shape.
#define BLOCK 256

extern "C" __global__ void masked_fill(const float *x, const unsigned char *mask, float *y,
                                       float value, int N)
{
    int i = blockIdx.x * BLOCK + threadIdx.x;
    if (i < N) {
        float v = x[i];
        y[i] = mask[i] != 0 ? value : v;
    }
}
