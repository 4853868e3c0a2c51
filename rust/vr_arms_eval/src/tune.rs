//! Honest parameter choice: leave-one-clip-out cross-validation.
//!
//! A tuned default is chosen on all clips but one and reported on that one; the eight held-out
//! results are pooled (frame-weighted). The choice never sees the clip it is reported on.

use crate::eval::{ClipResult, Metrics, Pooled};

/// One metric of one method and mode, summed over a clip's frames.
pub fn pooled(r: &ClipResult, method: &str, mode: &str, pick: fn(&Metrics) -> &[f32]) -> Pooled {
    let mut p = Pooled::default();
    for (_, _, m) in r.rows.iter().filter(|(a, b, _)| a == method && b == mode) {
        let v = pick(m);
        p.add(Pooled {
            sum: v.iter().map(|x| *x as f64).sum(),
            frames: v.len(),
        });
    }
    p
}

/// The value to use, from `errors[value][clip]` (lower is better) pooled over every clip except
/// `held_out`: the first value (values are listed from the plainest outward) whose pooled error
/// is within 1 % of the best, so a tie goes to the simpler choice.
pub fn choose(values: &[f32], errors: &[Vec<Pooled>], held_out: Option<usize>) -> f32 {
    let pooled: Vec<f32> = errors
        .iter()
        .map(|per_clip| {
            let mut p = Pooled::default();
            for (c, e) in per_clip.iter().enumerate() {
                if Some(c) != held_out {
                    p.add(*e);
                }
            }
            p.mean()
        })
        .collect();
    let best = pooled
        .iter()
        .copied()
        .filter(|e| e.is_finite())
        .fold(f32::INFINITY, f32::min);
    values
        .iter()
        .zip(&pooled)
        .filter(|(_, e)| **e <= best * 1.01)
        .map(|(v, _)| *v)
        .next()
        .unwrap_or(f32::NAN)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(mean: f64, frames: usize) -> Pooled {
        Pooled {
            sum: mean * frames as f64,
            frames,
        }
    }

    #[test]
    fn the_held_out_clip_never_takes_part_in_its_choice() {
        let values = [0.0, 0.5, 1.0];
        // Clip 0 (long) likes 1.0; clips 1 and 2 like 0.5.
        let errors = vec![
            vec![e(9.0, 1000), e(5.0, 100), e(5.0, 100)],
            vec![e(8.0, 1000), e(2.0, 100), e(2.0, 100)],
            vec![e(1.0, 1000), e(4.0, 100), e(4.0, 100)],
        ];
        assert_eq!(
            choose(&values, &errors, None),
            1.0,
            "in-sample: the long clip wins"
        );
        assert_eq!(choose(&values, &errors, Some(0)), 0.5);
        // Whatever clip 0's own errors are, its held-out choice stays the same.
        let mut changed = errors.clone();
        for row in &mut changed {
            row[0] = e(0.0, 5000);
        }
        changed[0][0] = e(-100.0, 5000);
        assert_eq!(choose(&values, &changed, Some(0)), 0.5);
    }

    #[test]
    fn near_ties_go_to_the_earlier_value_and_pooling_weights_frames() {
        let values = [0.0, 1.0];
        // 0.0 is within 1 % of 1.0's pooled error.
        let errors = vec![vec![e(3.02, 100)], vec![e(3.0, 100)]];
        assert_eq!(choose(&values, &errors, None), 0.0);
        // The tie goes to the earlier listed value, whichever is smaller.
        assert_eq!(choose(&[1.0, 0.0], &errors, None), 1.0);
        assert_eq!(choose(&[-0.5, 0.0], &errors, None), -0.5);
        // Frame-weighted: a short clip's large error counts for its frames only.
        let errors = vec![
            vec![e(1.0, 900), e(10.0, 100)], // pooled 1.9
            vec![e(2.0, 900), e(2.0, 100)],  // pooled 2.0
        ];
        assert_eq!(choose(&values, &errors, None), 0.0);
    }
}
