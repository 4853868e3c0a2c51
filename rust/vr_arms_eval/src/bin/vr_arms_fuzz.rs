//! `vr_arms_fuzz [FRAMES] [SEED]`: adversarial frames through the whole core (see
//! `vr_arms_eval::fuzz`). Prints `fuzz: N frames, P panics, F non-finite outputs`; exit status 1
//! when either count is not 0.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let frames: u64 = args
        .first()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    let seed: u64 = args
        .get(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5EED_1234_ABCD);
    // Panics are counted, not printed one by one.
    std::panic::set_hook(Box::new(|_| {}));
    let r = vr_arms_eval::fuzz::run(frames, seed);
    println!(
        "fuzz: {} frames, {} panics, {} non-finite outputs (seed {seed})",
        r.frames, r.panics, r.non_finite
    );
    if r.panics > 0 || r.non_finite > 0 {
        std::process::exit(1);
    }
}
