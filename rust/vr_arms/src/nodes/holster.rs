//! `HolsterBelt` and `HolsterZone`: where the holster is and whether a hand is at it.

use godot::classes::{Area3D, IArea3D, INode3D, Node3D, PhysicsRayQueryParameters3D};
use godot::prelude::*;

use crate::problems::ProblemReport;
use crate::shared::common::{
    alive, read_pose, read_tracked, refresh_warnings_on_set, skip_in_editor, unset_problem,
};
use crate::shared::profile_file::{apply_revolver_profile, store_revolver_profile};
use vr_arms_core::revolver::{HolsterBeltSettings, HolsterSettings};

/// Places the belt (this node) each frame at a height from the headset: a ray straight down from
/// the camera finds the floor (1.8 m of head height when it hits nothing), and the belt sits at
/// `head height x (1 - belt_height_offset)` above it (0 = at the head, 1 = on the floor). It
/// follows the body's position and yaw (`body_root`, the avatar `BodyFollow` turns), not the
/// hands, so holsters do not swing when the hands move. Runs in `_process` at priority -1050.
#[derive(GodotClass)]
#[class(base = Node3D, tool)]
pub struct HolsterBelt {
    /// The headset (an [XRCamera3D]).
    #[export]
    head: Option<Gd<Node3D>>,
    /// The avatar root whose position and yaw the belt follows.
    #[export]
    body_root: Option<Gd<Node3D>>,
    /// 0 = belt at head height, 1 = on the floor (0.3-0.5 is a belt).
    #[export(range = (0.0, 1.0))]
    belt_height_offset: f32,
    /// Physics layers the floor ray hits.
    #[export(flags_3d_physics)]
    floor_mask: u32,
    /// Head height used when the ray finds no floor (metres).
    #[export(range = (0.5, 3.0, suffix = "m"))]
    default_head_height_m: f32,

    head_guard: vr_arms_core::body::input_guard::InputGuard,
    report: ProblemReport,
    base: Base<Node3D>,
}

#[godot_api]
impl INode3D for HolsterBelt {
    fn init(base: Base<Node3D>) -> Self {
        base.to_init_gd()
            .set_process_priority(crate::shared::priorities::HOLSTER_BELT);
        Self {
            head: None,
            body_root: None,
            belt_height_offset: HolsterBeltSettings::default().belt_height_offset,
            floor_mask: HolsterBeltSettings::default().floor_mask,
            default_head_height_m: HolsterBeltSettings::default().default_head_height_m,
            head_guard: Default::default(),
            report: ProblemReport::new("HolsterBelt"),
            base,
        }
    }

    fn ready(&mut self) {
        let problems = self.problems();
        self.report.runtime(&problems);
    }

    fn process(&mut self, _delta: f64) {
        if skip_in_editor(false) {
            return;
        }
        // No usable headset pose this frame: the belt stays where it is.
        let Some(head) = alive(&self.head)
            .filter(|n| n.is_inside_tree())
            .and_then(|n| read_tracked(&n, &mut self.head_guard))
        else {
            return;
        };
        let head_pos = crate::convert::to_vector3(head.position);
        let mut height = self.default_head_height_m;
        if let Some(mut space) = self
            .base()
            .get_world_3d()
            .and_then(|w| w.get_direct_space_state())
            && let Some(mut query) = PhysicsRayQueryParameters3D::create(
                head_pos,
                head_pos + Vector3::new(0.0, -10.0, 0.0),
            )
        {
            query.set_collision_mask(self.floor_mask);
            let hit = space.intersect_ray(&query);
            if let Some(p) = hit.get("position").and_then(|v| v.try_to::<Vector3>().ok()) {
                height = head_pos.y - p.y;
            }
        }
        let floor_y = head_pos.y - height;
        let belt_y = floor_y + height * (1.0 - self.belt_height_offset.clamp(0.0, 1.0));
        let (origin, basis) = match alive(&self.body_root) {
            Some(root) => {
                let t = root.get_global_transform();
                let yaw =
                    vr_arms_core::maths::angles::yaw_of(crate::convert::vec3(t.basis.col_c()));
                (
                    Vector3::new(t.origin.x, belt_y, t.origin.z),
                    Basis::from_axis_angle(Vector3::UP, yaw),
                )
            }
            None => (
                Vector3::new(head_pos.x, belt_y, head_pos.z),
                Basis::IDENTITY,
            ),
        };
        self.base_mut()
            .set_global_transform(Transform3D::new(basis, origin));
    }

    fn get_configuration_warnings(&self) -> PackedStringArray {
        self.problems().iter().map(GString::from).collect()
    }

    fn on_set(&mut self, _property: StringName, _value: Variant) -> bool {
        refresh_warnings_on_set(&self.to_gd().upcast())
    }
}

#[godot_api]
impl HolsterBelt {
    /// Loads the `[holster_belt]` section of a revolver profile (the file `Revolver` loads);
    /// on error (one line naming it) the settings stay.
    #[func]
    fn load_profile(&mut self, path: GString) -> bool {
        apply_revolver_profile("HolsterBelt", &path, |p| {
            let mut s = p.holster_belt;
            s.validate();
            self.belt_height_offset = s.belt_height_offset;
            self.floor_mask = s.floor_mask;
            self.default_head_height_m = s.default_head_height_m;
        })
    }

    /// Saves these settings into the `[holster_belt]` section of a revolver profile (the rest
    /// of the file is kept).
    #[func]
    fn save_profile(&self, path: GString) -> bool {
        let mut s = HolsterBeltSettings {
            belt_height_offset: self.belt_height_offset,
            floor_mask: self.floor_mask,
            default_head_height_m: self.default_head_height_m,
        };
        s.validate();
        store_revolver_profile("HolsterBelt", &path, |p| p.holster_belt = s)
    }

    /// What is wrong with the setup (the editor's configuration warnings).
    #[func]
    fn get_setup_problems(&self) -> PackedStringArray {
        self.problems().iter().map(GString::from).collect()
    }

    fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        out.extend(unset_problem(
            &self.head,
            "head",
            "the XRCamera3D (the belt's height comes from the headset)",
        ));
        out.extend(unset_problem(
            &self.body_root,
            "body_root",
            "the avatar root that BodyFollow moves (without it the belt follows the head and never turns)",
        ));
        out
    }
}

/// A holster: an [Area3D] whose origin is the holster anchor (where the gun rests) and a
/// `draw_clear_point` child position where a drawn gun leaves it. It reports whether a hand is
/// inside (`hand_entered` / `hand_exited`): a hand is inside when its node is within
/// `zone_radius_m` of the anchor, so no physics body is needed on the hand.
#[derive(GodotClass)]
#[class(base = Area3D, tool)]
pub struct HolsterZone {
    /// The hand that draws (its controller or hand attach point).
    #[export]
    hand_node: Option<Gd<Node3D>>,
    /// Where the gun is clear of the holster (the draw goes from here to there).
    #[export]
    draw_clear_point: Option<Gd<Node3D>>,
    /// Radius of the zone around the anchor (metres).
    #[export(range = (0.02, 0.5, suffix = "m"))]
    zone_radius_m: f32,
    inside: bool,
    report: ProblemReport,
    base: Base<Area3D>,
}

#[godot_api]
impl IArea3D for HolsterZone {
    fn init(base: Base<Area3D>) -> Self {
        base.to_init_gd()
            .set_process_priority(crate::shared::priorities::HOLSTER_ZONE);
        Self {
            hand_node: None,
            draw_clear_point: None,
            zone_radius_m: HolsterSettings::default().zone_radius_m,
            inside: false,
            report: ProblemReport::new("HolsterZone"),
            base,
        }
    }

    fn ready(&mut self) {
        let problems = self.problems();
        self.report.runtime(&problems);
    }

    fn process(&mut self, _delta: f64) {
        if skip_in_editor(false) {
            return;
        }
        let now = self.hand_inside();
        if now != self.inside {
            self.inside = now;
            if now {
                self.signals().hand_entered().emit();
            } else {
                self.signals().hand_exited().emit();
            }
        }
    }

    fn get_configuration_warnings(&self) -> PackedStringArray {
        self.problems().iter().map(GString::from).collect()
    }

    fn on_set(&mut self, _property: StringName, _value: Variant) -> bool {
        refresh_warnings_on_set(&self.to_gd().upcast())
    }
}

#[godot_api]
impl HolsterZone {
    /// Loads the `[holster]` section of a revolver profile (the file `Revolver` loads); on
    /// error (one line naming it) the settings stay.
    #[func]
    fn load_profile(&mut self, path: GString) -> bool {
        apply_revolver_profile("HolsterZone", &path, |p| {
            let mut s = p.holster;
            s.validate();
            self.zone_radius_m = s.zone_radius_m;
        })
    }

    /// Saves `zone_radius_m` into the `[holster]` section of a revolver profile (the rest of
    /// the file is kept).
    #[func]
    fn save_profile(&self, path: GString) -> bool {
        let mut s = HolsterSettings {
            zone_radius_m: self.zone_radius_m,
        };
        s.validate();
        store_revolver_profile("HolsterZone", &path, |p| p.holster = s)
    }

    /// The hand came into the zone.
    #[signal]
    fn hand_entered();

    /// What is wrong with the setup (the editor's configuration warnings).
    #[func]
    fn get_setup_problems(&self) -> PackedStringArray {
        self.problems().iter().map(GString::from).collect()
    }

    fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        out.extend(unset_problem(
            &self.hand_node,
            "hand_node",
            "the drawing hand's controller or attach point (no hand is ever in the zone without it)",
        ));
        if let Some(p) = alive(&self.draw_clear_point)
            && p.is_inside_tree()
            && self.base().is_inside_tree()
            && p.get_global_position()
                .distance_to(self.base().get_global_position())
                < 0.02
        {
            out.push("\"draw_clear_point\" is at the holster anchor: put it where a drawn gun is clear of the holster (about 25 cm along the draw).".into());
        }
        out
    }
    /// The hand left the zone.
    #[signal]
    fn hand_exited();

    /// Whether the hand is in the zone now.
    #[func]
    pub fn hand_inside(&self) -> bool {
        match read_pose(&self.hand_node) {
            Some(h) => {
                crate::convert::to_vector3(h.position)
                    .distance_to(self.base().get_global_position())
                    <= self.zone_radius_m
            }
            None => false,
        }
    }

    /// The holster anchor (this node's global transform).
    pub fn anchor(&self) -> Transform3D {
        self.base().get_global_transform()
    }

    /// Where a drawn gun is clear: the `draw_clear_point`, else 25 cm up from the anchor.
    pub fn clear_point(&self) -> Vector3 {
        match alive(&self.draw_clear_point) {
            Some(p) => p.get_global_position(),
            None => self.base().get_global_position() + Vector3::new(0.0, 0.25, 0.0),
        }
    }
}
