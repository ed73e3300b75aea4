// Twin of transpose_tiled.cake: the same algorithm, thread mapping and launch shape.
#define TILE 32
#define ROWS 8

extern "C" __global__ void transpose_tiled(const float *x, float *y, int M, int N)
{
    __shared__ float tile[TILE][TILE + 1];
    int c = blockIdx.x * TILE + threadIdx.x;
    int r0 = blockIdx.y * TILE;
    for (int k = 0; k < TILE; k += ROWS) {
        int r = r0 + threadIdx.y + k;
        if (r < M && c < N) {
            tile[threadIdx.y + k][threadIdx.x] = x[r * N + c];
        }
    }
    __syncthreads();
    int oc = r0 + threadIdx.x;
    int or0 = blockIdx.x * TILE;
    for (int k = 0; k < TILE; k += ROWS) {
        int orow = or0 + threadIdx.y + k;
        if (orow < N && oc < M) {
            y[orow * M + oc] = tile[threadIdx.x][threadIdx.y + k];
        }
    }
}
