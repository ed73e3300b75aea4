// A fragment of rows 8 .. 71 of a 128-byte swizzled array: its start, 1024 bytes in, is a
// multiple of 8 rows of the swizzle (tests/interp/tile-start.test moves it).
kernel tile(o: out f32[64, 64])
    targets(sm_90a) threads(128) grid(1)
{
    shared sw: bf16[128, 64] swizzle(128);
    for (i in 0 .. 64) {
        sw[i + 64 * (thread.x / 64), thread.x % 64] = bf16(i);
    }
    barrier();
    let f = fragment(sw.rows(8, 64), [0, 0], 64);
    store(o, f, [0, 0]);
}
