// batched_matvec: y[b, i] = sum over j of a[b, i, j] * x[b, j], f32, for a batch of small
// matrices. One block per matrix; each thread computes whole rows, walking along them.

const BLOCK: i32 = 64;

kernel batched_matvec(a: in f32[B, R, C], x: in f32[B, C], y: out f32[B, R])
    threads(BLOCK)
    grid(B)
{
    let b = block.x;
    for (i in thread.x .. R step BLOCK) {
        var acc: f32 = 0.0;
        for (j in 0 .. C) {
            acc += a[b, i, j] * x[b, j];
        }
        y[b, i] = acc;
    }
}
