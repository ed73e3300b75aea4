// Imported by import-math.cake and by import.cake itself: read once.
const BIAS: f32 = 0.5;

fn biased(x: f32) -> f32 {
    return x + BIAS;
}
