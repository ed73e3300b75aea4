// A kernel file is not a library.
const C: f32 = 1.0;

kernel other(x: inout f32[N]) threads(32) {
    x[thread.x] = C;
}
