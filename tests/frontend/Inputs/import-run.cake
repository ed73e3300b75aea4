// Run by import-run.test under cakec-run: a kernel calling a function found through -I.
import "import-inc.cake";

kernel sq(x: in f32[N], y: out f32[N]) threads(128) grid(1) {
    if (thread.x < N) {
        y[thread.x] = square(x[thread.x]);
    }
}
