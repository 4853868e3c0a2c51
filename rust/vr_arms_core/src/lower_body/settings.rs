//! Settings of the lower body ([`crate::lower_body`]), in the avatar's metres.

use serde::{Deserialize, Serialize};

use crate::maths::finite::finite_clamp;

/// How the hips, spine, legs and feet follow the headset.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LowerBodySettings {
    /// Forward lean of the torso per metre the head is below its standing height (degrees per
    /// metre, on an avatar whose head bone stands 1.6 m high; in proportion on others, so a
    /// small avatar scaled to the player leans as far): a crouch puts the hips back behind the
    /// head.
    pub lean_deg_per_m: f32,
    /// Share of the head's downward pitch the torso takes as a forward lean (a bow).
    pub lean_head_pitch_share: f32,
    /// Largest forward lean of the torso (degrees).
    pub max_lean_deg: f32,
    /// How far the torso may turn forward about the head (which stays on the headset) to bring a
    /// hand's target below its shoulder within its arm's reach (degrees; back toward upright
    /// `reach_bend_back_share` times as far; in full once the head is 30 cm below standing,
    /// none standing): reaching for the floor brings the shoulder over the hand. 0: the body
    /// follows the head alone.
    pub reach_bend_max_deg: f32,
    /// How much further than `reach_bend_max_deg` the turn may go where it leans the torso back
    /// toward upright (it undoes a lean; the hips stop under the head). 1: as far as forward.
    pub reach_bend_back_share: f32,
    /// How far the head must be below its standing height (metres) before the turn also leans
    /// the torso to the side of the hand, in full at 30 cm (a pitch barely moves a shoulder that
    /// sits beside the head). 0.3 or more: never, the turn only pitches.
    pub reach_bend_side_from_m: f32,
    /// How much of the twist about up that points the shoulder straight at the hand the side
    /// lean keeps (0: a pitch and a lean only; 1: all of it): bent far forward the shoulder sits
    /// below the head, and only turning the torso round brings it toward a hand on the floor
    /// beside the foot.
    pub reach_bend_twist_share: f32,
    /// Share of the torso's lean taken by the hips bone (the pelvis tilts); the spine bones
    /// bend the rest of the way to the head.
    pub hips_lean_share: f32,
    /// Lowest the hips go, as a share of their standing height (a deep squat).
    pub min_hips_height_share: f32,
    /// How far a planted foot that is leaving its place (it steps next) may rise off the
    /// ground, its heel lifting, before the hips sink below where the head puts them for the
    /// leg to reach it (metres): walking, the trailing foot no longer pulls the head off the
    /// headset. 0: the hips sink for it. A foot at its place (a step down) the hips sink to
    /// however far.
    pub max_heel_lift_m: f32,
    /// A planted foot the hips would have to sink further than this below what its heel lift
    /// allows to reach (metres: a body starting off fast, a lunge) steps at once, even while
    /// the other foot is in the air, rather than the head leaving the headset. Large: the hips
    /// sink for it until the other foot lands.
    pub strand_below_m: f32,
    /// Bending over the planted feet (the head low and looking down: a bow, a pick-up): the
    /// share of the way from the hips to the head that stands over the feet, so the hips go
    /// back as the head goes ahead and the torso leans, rather than the feet stepping after
    /// the head and the knees bending. 0: the hips stay under the head.
    pub bend_balance_share: f32,
    /// How far the hips stay over the planted feet sideways rather than under the head (0:
    /// under the head, 1: over the feet): above 0, a lean to the side curves the spine
    /// instead of carrying the body along. 0 by default: on the motion capture, performers
    /// carry their hips with their head (0.3 puts the hips 1.5 cm further off).
    pub hips_over_feet: f32,
    /// How far apart the feet stand (metres between the ankles); each foot's place is half
    /// of it to its side of the hips, as far forward as the rest pose has it.
    pub stance_width_m: f32,
    /// A planted foot steps when its place under the body is this far away (metres).
    pub step_distance_m: f32,
    /// ... or when the body has turned this far from it (degrees).
    pub step_angle_deg: f32,
    /// How long a step takes standing, and the quickest a walking foot swings (seconds); a
    /// walking foot swings for most of the gait's step time, up to 1.5 times this.
    pub step_time_s: f32,
    /// How far ahead a moving body's feet land, as a share of the gait's step (0.5: half a
    /// step ahead, the body passing midway between the feet, as a walker's do; 0: where the
    /// body is).
    pub step_lead: f32,
    /// A walking body's stride (two steps) over its legs' length at a Froude number
    /// (`speed^2 / (g * leg)`) of 1: its steps grow with speed as a walker's (Alexander's
    /// relation, stride over leg `stride_scale * froude^0.3`). 0: steps only when the body has
    /// moved `step_distance_m`, however fast it walks.
    pub stride_scale: f32,
    /// How high a stepping foot lifts (metres).
    pub step_height_m: f32,
    /// Kneel on one knee when the hips stay lower than a kneeling thigh holds them for
    /// `kneel_after_s` (else the body squats).
    pub kneel: bool,
    /// How long the hips must stay that low before the body kneels (seconds): a quick duck
    /// squats.
    pub kneel_after_s: f32,
    /// Stand each foot on what a physics ray finds under its place (steps, ramps, crates)
    /// instead of the flat floor; the node graph's `LowerBodyRig` casts the rays.
    pub floor_ray: bool,
    /// The physics layers the feet stand on with `floor_ray`.
    pub floor_collision_mask: u32,
    /// The player sits (the game says so: on a chair, in a vehicle, seated play): the hips
    /// rest on a seat under the upright torso, the thighs reach forward and the feet stand
    /// ahead under the knees; no kneeling. The game's state, not a profile's: not saved.
    #[serde(skip)]
    pub seated: bool,
    /// Also sit when the headset has come down to a seat's height and stays there, still
    /// ([`super::sit_detect`]), and stand when it is back near standing height or walks: for
    /// seated play without a chair in the scene. The headset cannot tell a chair from the
    /// floor, so with this on a low still head sits rather than kneels. Off by default. The
    /// game's choice, as `seated` is: not saved in profiles.
    #[serde(skip)]
    pub sit_from_headset: bool,
    /// How long sitting down and standing up take (seconds).
    pub seat_blend_s: f32,
    /// The largest share of the legs the user's walk animation takes while the game moves the
    /// XR origin (thumbstick walking): 0 keeps the procedural feet (the default), 1 gives the
    /// legs to the animation (an `AnimationTree` blend by speed) at `walk_animation_speed_m_s`.
    /// Only the node graph's `LowerBodyRig` has an animation to blend with.
    pub walk_animation_share: f32,
    /// The XR origin's horizontal speed at which the animation takes its whole share (metres
    /// per second); below a fifth of it, none.
    pub walk_animation_speed_m_s: f32,
}

impl Default for LowerBodySettings {
    fn default() -> Self {
        Self {
            lean_deg_per_m: 30.0,
            lean_head_pitch_share: 0.3,
            max_lean_deg: 70.0,
            reach_bend_max_deg: 30.0,
            reach_bend_back_share: super::reach_bend::BACK_SHARE,
            reach_bend_side_from_m: super::reach_bend::SIDE_FROM_DROP_M,
            reach_bend_twist_share: super::reach_bend::TWIST_SHARE,
            hips_lean_share: 0.4,
            min_hips_height_share: 0.3,
            max_heel_lift_m: 0.08,
            strand_below_m: 0.0,
            bend_balance_share: 0.45,
            hips_over_feet: 0.0,
            stance_width_m: 0.4,
            step_distance_m: 0.25,
            step_angle_deg: 50.0,
            step_time_s: 0.3,
            step_lead: 0.5,
            stride_scale: 0.0,
            step_height_m: 0.07,
            kneel: true,
            kneel_after_s: 0.5,
            floor_ray: false,
            floor_collision_mask: 1,
            seated: false,
            sit_from_headset: false,
            seat_blend_s: 0.5,
            walk_animation_share: 0.0,
            walk_animation_speed_m_s: 0.5,
        }
    }
}

impl LowerBodySettings {
    /// Every value finite and in its range (else its default).
    pub fn validate(&mut self) {
        let d = Self::default();
        self.lean_deg_per_m = finite_clamp(self.lean_deg_per_m, 0.0, 200.0, d.lean_deg_per_m);
        self.lean_head_pitch_share = finite_clamp(
            self.lean_head_pitch_share,
            0.0,
            1.0,
            d.lean_head_pitch_share,
        );
        self.max_lean_deg = finite_clamp(self.max_lean_deg, 0.0, 90.0, d.max_lean_deg);
        self.reach_bend_max_deg =
            finite_clamp(self.reach_bend_max_deg, 0.0, 90.0, d.reach_bend_max_deg);
        self.reach_bend_back_share = finite_clamp(
            self.reach_bend_back_share,
            1.0,
            4.0,
            d.reach_bend_back_share,
        );
        self.reach_bend_side_from_m = finite_clamp(
            self.reach_bend_side_from_m,
            0.0,
            super::reach_bend::FULL_AT_DROP_M,
            d.reach_bend_side_from_m,
        );
        self.reach_bend_twist_share = finite_clamp(
            self.reach_bend_twist_share,
            0.0,
            1.0,
            d.reach_bend_twist_share,
        );
        self.hips_lean_share = finite_clamp(self.hips_lean_share, 0.0, 1.0, d.hips_lean_share);
        self.min_hips_height_share = finite_clamp(
            self.min_hips_height_share,
            0.0,
            1.0,
            d.min_hips_height_share,
        );
        self.max_heel_lift_m = finite_clamp(self.max_heel_lift_m, 0.0, 0.5, d.max_heel_lift_m);
        self.strand_below_m = finite_clamp(self.strand_below_m, 0.0, 10.0, d.strand_below_m);
        self.bend_balance_share =
            finite_clamp(self.bend_balance_share, 0.0, 0.9, d.bend_balance_share);
        self.hips_over_feet = finite_clamp(self.hips_over_feet, 0.0, 1.0, d.hips_over_feet);
        self.stance_width_m = finite_clamp(self.stance_width_m, 0.0, 1.5, d.stance_width_m);
        self.step_distance_m = finite_clamp(self.step_distance_m, 0.01, 2.0, d.step_distance_m);
        self.step_angle_deg = finite_clamp(self.step_angle_deg, 1.0, 180.0, d.step_angle_deg);
        self.step_time_s = finite_clamp(self.step_time_s, 0.05, 2.0, d.step_time_s);
        self.step_lead = finite_clamp(self.step_lead, 0.0, 2.0, d.step_lead);
        self.stride_scale = finite_clamp(self.stride_scale, 0.0, 6.0, d.stride_scale);
        self.step_height_m = finite_clamp(self.step_height_m, 0.0, 0.5, d.step_height_m);
        self.kneel_after_s = finite_clamp(self.kneel_after_s, 0.0, 10.0, d.kneel_after_s);
        self.seat_blend_s = finite_clamp(self.seat_blend_s, 0.0, 5.0, d.seat_blend_s);
        self.walk_animation_share =
            finite_clamp(self.walk_animation_share, 0.0, 1.0, d.walk_animation_share);
        self.walk_animation_speed_m_s = finite_clamp(
            self.walk_animation_speed_m_s,
            0.05,
            10.0,
            d.walk_animation_speed_m_s,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validation_keeps_good_values_and_repairs_bad_ones() {
        let mut s = LowerBodySettings {
            lean_deg_per_m: f32::NAN,
            max_lean_deg: 400.0,
            step_time_s: 0.0,
            hips_lean_share: 0.6,
            ..Default::default()
        };
        s.validate();
        let d = LowerBodySettings::default();
        assert_eq!(s.lean_deg_per_m, d.lean_deg_per_m);
        assert_eq!(s.max_lean_deg, 90.0);
        assert_eq!(s.step_time_s, 0.05);
        assert_eq!(s.hips_lean_share, 0.6);
    }
}
