// A library for import.cake: functions and constants only, one of each never called there
// (no warning: an imported file is a library), and an import of its own.
import "import-math2.cake";

const SCALE: f32 = 2.0;

fn scaled<T: f32 | f16>(x: T) -> f32 {
    return f32(x) * SCALE;
}

fn unused(x: f32) -> f32 {
    return x;
}
