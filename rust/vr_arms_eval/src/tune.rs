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
        // No value measured (no frame it acts on): the plainest.
        .or_else(|| values.first().copied())
        .unwrap_or(f32::NAN)
}

/// How much worse than with the reference value a training clip may get (a share of its error)
/// before a value counts as regressing it.
pub const REGRESSION_SHARE: f32 = 0.05;

/// [`choose`] among the values that regress no clip but `held_out`: a value is left out when
/// any of those clips' errors is over [`REGRESSION_SHARE`] worse than with `values[reference]`
/// (the shipped value), or, given `flips[value][clip]`, when it flips on any of them more often
/// than the reference does. The reference always remains. So a default moves only where it
/// helps the pool without making any clip it was chosen on worse.
pub fn choose_without_regression(
    values: &[f32],
    reference: usize,
    errors: &[Vec<Pooled>],
    flips: Option<&[Vec<usize>]>,
    held_out: Option<usize>,
) -> f32 {
    let Some(base) = errors.get(reference) else {
        return choose(values, errors, held_out);
    };
    let regresses = |v: usize| {
        (0..base.len()).filter(|c| Some(*c) != held_out).any(|c| {
            let (e, r) = (errors[v][c].mean(), base[c].mean());
            let worse = e.is_finite() && r.is_finite() && e > r * (1.0 + REGRESSION_SHARE) + 1e-6;
            let flips_more = flips.is_some_and(|f| f[v][c] > f[reference][c]);
            worse || flips_more
        })
    };
    let allowed: Vec<Vec<Pooled>> = errors
        .iter()
        .enumerate()
        .map(|(v, per_clip)| {
            if v != reference && regresses(v) {
                per_clip
                    .iter()
                    .map(|p| Pooled {
                        sum: f64::INFINITY,
                        ..*p
                    })
                    .collect()
            } else {
                per_clip.clone()
            }
        })
        .collect();
    choose(values, &allowed, held_out)
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

    /// A value better pooled but worse on one training clip (or flipping more on one) is not
    /// chosen; the held-out clip's own regression does not count, and a value that helps every
    /// training clip is chosen.
    #[test]
    fn a_value_that_makes_a_training_clip_worse_is_not_chosen() {
        let values = [0.0, 1.0, 2.0];
        // 1.0 (the shipped one) is the reference. 2.0 helps clips 0 and 1 a lot and hurts clip
        // 2 by 10 %.
        let errors = vec![
            vec![e(5.0, 100), e(5.0, 100), e(5.0, 100)],
            vec![e(3.0, 100), e(3.0, 100), e(3.0, 100)],
            vec![e(2.0, 100), e(2.0, 100), e(3.3, 100)],
        ];
        assert_eq!(choose(&values, &errors, None), 2.0, "pooled alone: 2.0");
        assert_eq!(
            choose_without_regression(&values, 1, &errors, None, None),
            1.0
        );
        // Clip 2 held out: its regression is not seen, 2.0 is chosen.
        assert_eq!(
            choose_without_regression(&values, 1, &errors, None, Some(2)),
            2.0
        );
        // Flipping more on a training clip than the reference does also rules a value out.
        let mut better = errors.clone();
        better[2][2] = e(2.9, 100);
        let flips = vec![vec![0, 0, 0], vec![0, 0, 0], vec![0, 1, 0]];
        assert_eq!(
            choose_without_regression(&values, 1, &better, None, None),
            2.0
        );
        assert_eq!(
            choose_without_regression(&values, 1, &better, Some(&flips), None),
            1.0
        );
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
