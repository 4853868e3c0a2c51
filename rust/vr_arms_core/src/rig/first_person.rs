//! Which bones the player's own camera must not see: a bone (the neck, say) and every bone below
//! it (head, eyes, jaw, hair), so the inside of the avatar's head never fills the view.

use serde::{Deserialize, Serialize};

/// How the head is hidden from the player's camera (`[first_person]`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FirstPersonSettings {
    /// Hide the head from the player's camera.
    pub enabled: bool,
    /// Render layer (1-20) of the first-person copies, which only the player's camera sees.
    pub first_person_layer: u32,
    /// Render layer (1-20) the original meshes move to, which every other camera sees.
    pub third_person_layer: u32,
}

impl Default for FirstPersonSettings {
    fn default() -> Self {
        Self {
            enabled: true,
            first_person_layer: 19,
            third_person_layer: 20,
        }
    }
}

impl FirstPersonSettings {
    /// Layers into 1..=20 (Godot's render layers). Two equal layers are left as they are: the
    /// node reports that as a setup problem.
    pub fn validate(&mut self) {
        self.first_person_layer = self.first_person_layer.clamp(1, 20);
        self.third_person_layer = self.third_person_layer.clamp(1, 20);
    }
}

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
    fn layers_are_godots_render_layers() {
        let mut s = FirstPersonSettings {
            enabled: false,
            first_person_layer: 0,
            third_person_layer: 33,
        };
        s.validate();
        assert_eq!((s.first_person_layer, s.third_person_layer), (1, 20));
    }

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
        // A parent index one past the end is out of range too.
        assert_eq!(bones_below(&[-1, 2], 0), [true, false]);
        assert_eq!(bones_below(&[1, 0, -1], 2), [false, false, true]);
    }
}
