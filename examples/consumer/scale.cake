// scale.cake: the kernel of the consumer example (README, "Use it in your project"):
// y = a * x over a flat tensor.
kernel scale(x: in f32[n], y: out f32[n], a: f32)
    targets(sm_90a, sm_100a, sm_103a)
    threads(256)
    grid(max(cdiv(n, 256), 1))
{
    let i = block.x * 256 + thread.x;
    if (i < n) {
        y[i] = a * x[i];
    }
}
