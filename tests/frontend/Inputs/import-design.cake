// A kernel file imported for its generic kernel: its plain kernel and its instance stay its
// own; its constants join the importer's, ROWS as the same constant as the importer's.
const ROWS: i32 = 4;
const GAIN: f32 = 2.0;

kernel design_plain(x: inout f32[N]) threads(32) {
    x[thread.x] = GAIN;
}

kernel design<E: f32 | f16>(x: inout E[N], n: i32) threads(32 * ROWS) grid(cdiv(N, 32 * ROWS)) {
    let i = block.x * (32 * ROWS) + thread.x;
    if (i < N) {
        x[i] = E(f32(x[i]) * GAIN);
    }
}

instance design<f32> as design_own;
instance design<f16> as design_own16;
