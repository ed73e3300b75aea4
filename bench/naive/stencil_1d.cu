// Twin of stencil_1d.cake: the same algorithm, thread mapping and launch shape.
#define BLOCK 256
#define R 4

extern "C" __global__ void stencil_1d(const float *x, const float *w, float *y, int N)
{
    int i = blockIdx.x * BLOCK + threadIdx.x;
    if (i < N) {
        float acc = 0.0f;
        for (int k = 0; k < 2 * R + 1; k++) {
            int j = i + k - R;
            if (j >= 0 && j < N) {
                acc += w[k] * x[j];
            }
        }
        y[i] = acc;
    }
}
