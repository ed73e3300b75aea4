// masked_fill: y[i] = mask[i] ? value : x[i], f32 data, a boolean mask stored one byte per
// element (torch.bool's layout; 0 is false). One thread per element.

const BLOCK: i32 = 256;

kernel masked_fill(x: in f32[N], mask: in u8[N], y: out f32[N], value: f32)
    threads(BLOCK)
    grid(cdiv(N, BLOCK))
{
    let i = block.x * BLOCK + thread.x;
    if (i < N) {
        let v = x[i];
        y[i] = mask[i] != 0 ? value : v;
    }
}
