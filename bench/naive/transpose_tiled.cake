// transpose_tiled: y[c, r] = x[r, c], f32, through a 32 x 33 shared tile (the padding
// column keeps the column reads free of bank conflicts). Blocks of 32 x 8 threads; each
// thread moves 4 elements of its tile.

const TILE: i32 = 32;
const ROWS: i32 = 8;

kernel transpose_tiled(x: in f32[M, N], y: out f32[N, M])
    threads(TILE, ROWS)
    grid(cdiv(N, TILE), cdiv(M, TILE))
{
    shared tile: f32[TILE, TILE + 1];
    let c = block.x * TILE + thread.x;
    let r0 = block.y * TILE;
    for (k in 0 .. TILE step ROWS) {
        let r = r0 + thread.y + k;
        if (r < M && c < N) {
            tile[thread.y + k, thread.x] = x[r, c];
        }
    }
    barrier();
    let oc = r0 + thread.x;
    let or0 = block.x * TILE;
    for (k in 0 .. TILE step ROWS) {
        let orow = or0 + thread.y + k;
        if (orow < N && oc < M) {
            y[orow, oc] = tile[thread.x, thread.y + k];
        }
    }
}
