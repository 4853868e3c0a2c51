//! `vr_arms_fuzz [FRAMES] [SEED]`: adversarial frames through the whole core (see
//! `vr_arms_eval::fuzz`). Prints `fuzz: N frames, P panics, F non-finite outputs`; exit status 1
//! when either count is not 0.

/// `[FRAMES] [SEED]`, parsed with lexopt.
fn args() -> Result<(u64, u64), lexopt::Error> {
    use lexopt::prelude::*;
    let mut numbers = Vec::new();
    let mut p = lexopt::Parser::from_env();
    while let Some(arg) = p.next()? {
        match arg {
            Value(v) if numbers.len() < 2 => numbers.push(v.parse::<u64>()?),
            _ => return Err(arg.unexpected()),
        }
    }
    Ok((
        numbers.first().copied().unwrap_or(1_000_000),
        numbers.get(1).copied().unwrap_or(0x5EED_1234_ABCD),
    ))
}

fn main() {
    let (frames, seed) = match args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("vr_arms_fuzz [FRAMES] [SEED]: {e}");
            std::process::exit(2);
        }
    };
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
