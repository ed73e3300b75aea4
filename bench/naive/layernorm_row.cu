// Twin of layernorm_row.cake: the same algorithm, thread mapping and launch shape.
// NVRTC (CUDA 13) finds no cuda_bf16.h without an include path, so bf16 is its bits here,
// converted as cuda_bf16.h does on sm_90: widening is exact (the bits shifted up), narrowing
// is PTX's cvt.rn.bf16.f32, which is what cakec's bf16(x) is too.
typedef unsigned short bf16;

static __device__ __forceinline__ float bf16_to_f32(bf16 v)
{
    return __uint_as_float((unsigned)v << 16);
}

static __device__ __forceinline__ bf16 f32_to_bf16(float f)
{
    bf16 r;
    asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(r) : "f"(f));
    return r;
}
#define ROWS 4

extern "C" __global__ void layernorm_row(const bf16 *x, const bf16 *w,
                                         const bf16 *b, bf16 *y, float eps,
                                         int M, int N)
{
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    int row = blockIdx.x * ROWS + warp;
    if (row < M) {
        float s = 0.0f;
        for (int j = lane; j < N; j += 32) {
            s += bf16_to_f32(x[row * N + j]);
        }
        for (int o = 0; o < 5; o++) {
            s += __shfl_xor_sync(0xffffffffu, s, 16 >> o);
        }
        float mean = s / (float)N;

        float q = 0.0f;
        for (int j = lane; j < N; j += 32) {
            float d = bf16_to_f32(x[row * N + j]) - mean;
            q += d * d;
        }
        for (int o = 0; o < 5; o++) {
            q += __shfl_xor_sync(0xffffffffu, q, 16 >> o);
        }
        float rstd = rsqrtf(q / (float)N + eps);

        for (int j = lane; j < N; j += 32) {
            float v = (bf16_to_f32(x[row * N + j]) - mean) * rstd;
            y[row * N + j] = f32_to_bf16(v * bf16_to_f32(w[j]) + bf16_to_f32(b[j]));
        }
    }
}
