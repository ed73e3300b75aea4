// Twin of bcast_add.cake: the same algorithm, thread mapping and launch shape.
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

extern "C" __global__ void bcast_add(const bf16 *x, const bf16 *w,
                                     const bf16 *b, bf16 *y, int M, int N)
{
    int c = blockIdx.x * 32 + threadIdx.x;
    int r = blockIdx.y * 8 + threadIdx.y;
    if (r < M && c < N) {
        y[r * N + c] = f32_to_bf16(bf16_to_f32(x[r * N + c]) * bf16_to_f32(w[c])
                                        + bf16_to_f32(b[r]));
    }
}
