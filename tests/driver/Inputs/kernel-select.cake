// Input of kernel-select.test: a generic kernel with an entry point whose instance sq_3
// divides by zero unless -D BAD= moves the zero away, a function only the kernel plain
// calls, and plain.
const BAD: i32 = 3;

fn twice(x: f32) -> f32 {
    return 2.0 * x;
}

kernel sq<U: i32>(x: in f32[N], y: out f32[N])
    targets(sm_90a) threads(128) grid(cdiv(N, 128))
{
    let i = block.x * 128 + thread.x;
    if (i < N) {
        y[i] = x[i] * f32(8 / (U - BAD));
    }
}
instance sq<1>;
instance sq<2>;
instance sq<3>;

kernel plain(x: in f32[N], y: out f32[N])
    targets(sm_90a) threads(128) grid(cdiv(N, 128))
{
    let i = block.x * 128 + thread.x;
    if (i < N) {
        y[i] = twice(x[i]);
    }
}
