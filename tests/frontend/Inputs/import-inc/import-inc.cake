// Found through -I only (import.cake's folder has no import-inc.cake).
fn square(x: f32) -> f32 {
    return x * x;
}
