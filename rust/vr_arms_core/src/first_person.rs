//! Which bones the player's own camera must not see: a bone (the neck, say) and every bone below
//! it (head, eyes, jaw, hair), so the inside of the avatar's head never fills the view.

/// Scale a hidden bone's skin bind is multiplied by in the first-person copy of a mesh: its
/// vertices collapse onto the bone's joint (at 1e-4 a 0.25 m head becomes 25 um, under a pixel).
pub const COLLAPSED_BIND_SCALE: f32 = 1e-4;

/// For each bone, whether it is `root` or below it. `parents[i]` is bone `i`'s parent index
/// (negative for a root). A parent index out of range, or a cycle, never makes a bone hidden.
pub fn bones_below(parents: &[i32], root: usize) -> Vec<bool> {
    (0..parents.len())
        .map(|bone| {
            let mut at = bone;
            // At most one step per bone: a cycle ends the walk.
            for _ in 0..=parents.len() {
                if at == root {
                    return true;
                }
                match usize::try_from(parents[at]) {
                    Ok(p) if p < parents.len() => at = p,
                    _ => return false,
                }
            }
            false
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_neck_hides_head_and_eyes_not_the_arms() {
        // 0 hips, 1 chest, 2 neck, 3 head, 4 eye, 5 arm (on the chest)
        let parents = [-1, 0, 1, 2, 3, 1];
        assert_eq!(
            bones_below(&parents, 2),
            [false, false, true, true, true, false]
        );
    }

    #[test]
    fn bad_parents_and_cycles_hide_nothing_else() {
        assert_eq!(bones_below(&[-1, 7, 1], 0), [true, false, false]);
        assert_eq!(bones_below(&[1, 0, -1], 2), [false, false, true]);
    }
}
