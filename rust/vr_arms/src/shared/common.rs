//! What every pipeline node shares: reading and writing target nodes, settings <-> inspector
//! properties, profile files, and debug markers.

use godot::classes::{
    BaseMaterial3D, MeshInstance3D, Node3D, SphereMesh, StandardMaterial3D,
    base_material_3d::ShadingMode,
};
use godot::prelude::*;
use vr_arms_core::Pose;

pub use crate::engine::{
    alive, descendants, in_editor, own_by, parent_skeleton, rotation_of, skinned_to,
    skip_in_editor, uniform_scale,
};

/// A node's global pose, if the node is set, alive and in the tree.
/// A pose a vr_arms stage published for the node this frame comes from the relay
/// ([crate::relay]), without an engine call.
pub fn read_pose(node: &Option<Gd<Node3D>>) -> Option<Pose> {
    crate::relay::read(node)
}

/// Whether a tracked node has a pose this frame: an [XRNode3D] (controller) reports its tracking
/// data; an [XRCamera3D] is tracked while the XR server's `head` tracker has a valid pose; any
/// other node (a plain marker driven by a script) always is.
pub fn is_tracked(node: &Gd<Node3D>) -> bool {
    use godot::classes::{XrCamera3D, XrNode3D};
    #[derive(Clone)]
    enum Kind {
        Xr(Gd<XrNode3D>),
        Camera,
        Other,
    }
    // A node's class never changes: ask the engine once per node, not every frame.
    thread_local! {
        static KINDS: std::cell::RefCell<std::collections::HashMap<InstanceId, Kind, crate::relay::Ids>> =
            std::cell::RefCell::new(std::collections::HashMap::default());
    }
    let kind = KINDS.with_borrow_mut(|k| {
        k.entry(node.instance_id())
            .or_insert_with(|| match node.clone().try_cast::<XrNode3D>() {
                Ok(xr) => Kind::Xr(xr),
                Err(n) if n.clone().try_cast::<XrCamera3D>().is_ok() => Kind::Camera,
                Err(_) => Kind::Other,
            })
            .clone()
    });
    match kind {
        Kind::Xr(xr) => xr.get_has_tracking_data(),
        Kind::Camera => head_tracked(),
        Kind::Other => true,
    }
}

/// Whether the XR server's `head` tracker has a valid pose, asked once per process frame: every
/// stage that reads the camera shares the answer (asking takes six engine calls).
fn head_tracked() -> bool {
    use godot::classes::{Engine, XrPositionalTracker, XrServer};
    use std::cell::Cell;
    thread_local! {
        static ASKED: Cell<Option<(u64, bool)>> = const { Cell::new(None) };
    }
    let frame = Engine::singleton().get_process_frames();
    if let Some((at, tracked)) = ASKED.get()
        && at == frame
    {
        return tracked;
    }
    let head = XrServer::singleton()
        .get_tracker("head")
        .and_then(|t| t.try_cast::<XrPositionalTracker>().ok());
    let tracked = match head.and_then(|t| t.get_pose("default")) {
        Some(p) => p.get_has_tracking_data(),
        // No head tracker at all: a plain camera moved by a script.
        None => true,
    };
    ASKED.set(Some((frame, tracked)));
    tracked
}

/// A tracked node's pose when it is usable this frame: the node is tracked ([fn is_tracked]) and
/// `guard` accepts the pose as it came (finite, within range; rotation repaired; rejections
/// counted). None otherwise: the caller holds its last good input instead of a repaired pose.
/// A tracked node's world pose as it is (unchecked: the core's guards check it), or `None`
/// while it is not tracked (see [`is_tracked`]) or gone.
pub fn read_raw(node: &Option<Gd<Node3D>>) -> Option<Pose> {
    let node = alive(node)?;
    if !is_tracked(&node) {
        return None;
    }
    Some(crate::convert::pose_unrepaired(
        &node.get_global_transform(),
    ))
}

pub fn read_tracked(
    node: &Gd<Node3D>,
    guard: &mut vr_arms_core::body::input_guard::InputGuard,
) -> Option<Pose> {
    if !is_tracked(node) {
        return None;
    }
    guard.check(&crate::convert::pose_unrepaired(
        &node.get_global_transform(),
    ))
}

/// One problem line per non-empty bone name the skeleton lacks: `{what} "{name}" is not in the
/// skeleton.` (`what` is "Bone", "Twist bone", ...).
pub fn missing_bones<'a>(
    skeleton: &Gd<godot::classes::Skeleton3D>,
    what: &str,
    names: impl IntoIterator<Item = &'a GString>,
) -> Vec<String> {
    names
        .into_iter()
        .filter(|n| !n.is_empty() && skeleton.find_bone(*n) < 0)
        .map(|n| format!("{what} \"{n}\" is not in the skeleton."))
        .collect()
}

/// Publishes a stage's output target (keeping scale out of it: targets are markers): the next
/// vr_arms stage reads it from the relay, and the node moves unless only vr_arms stages read it
/// (see [crate::relay]); `show` (the stage draws its targets) always moves it.
pub fn write_pose(node: &Option<Gd<Node3D>>, p: &Pose, show: bool) {
    crate::relay::publish(node, p, show);
}

/// Conversion between an inspector property type and a settings field type.
pub trait Bridge<T> {
    fn to_core(&self) -> T;
    fn from_core(value: &T) -> Self;
}

impl Bridge<f32> for f32 {
    fn to_core(&self) -> f32 {
        *self
    }
    fn from_core(v: &f32) -> Self {
        *v
    }
}

impl Bridge<u32> for u32 {
    fn to_core(&self) -> u32 {
        *self
    }
    fn from_core(v: &u32) -> Self {
        *v
    }
}

impl Bridge<bool> for bool {
    fn to_core(&self) -> bool {
        *self
    }
    fn from_core(v: &bool) -> Self {
        *v
    }
}

impl Bridge<[f32; 3]> for Vector3 {
    fn to_core(&self) -> [f32; 3] {
        [self.x, self.y, self.z]
    }
    fn from_core(v: &[f32; 3]) -> Self {
        Vector3::new(v[0], v[1], v[2])
    }
}

/// Generates `core_settings()` (inspector properties -> settings struct) and
/// `set_core_settings()` (the reverse) from one list of `property => settings.path` pairs, so
/// the two directions cannot drift apart.
#[macro_export]
macro_rules! settings_bridge {
    ($settings:ty { $($field:ident => $($path:ident).+),* $(,)? }) => {
        /// The inspector's values as the core stage's settings (validated).
        pub fn core_settings(&self) -> $settings {
            use $crate::shared::common::Bridge;
            let mut s = <$settings>::default();
            $( s.$($path).+ = Bridge::to_core(&self.$field); )*
            s.validate();
            s
        }

        /// Puts the core stage's settings into the inspector's properties.
        pub fn set_core_settings(&mut self, s: &$settings) {
            use $crate::shared::common::Bridge;
            $( self.$field = Bridge::from_core(&s.$($path).+); )*
        }

        /// Sets one bridged property through the core's validation, as a profile would: the
        /// stored value is the validated one (`node.response_time_s = -5` keeps the clamped
        /// value). Returns false for any other property (Godot then sets it as usual).
        pub fn set_validated(&mut self, property: &StringName, value: &Variant) -> bool {
            use $crate::shared::common::Bridge;
            $(
                if *property == stringify!($field) {
                    let Ok(v) = value.try_to() else {
                        return false;
                    };
                    self.$field = v;
                    let s = self.core_settings();
                    self.$field = Bridge::from_core(&s.$($path).+);
                    return true;
                }
            )*
            false
        }
    };
}

/// The functions every stage node has, in a secondary `#[godot_api]` block: `load_profile(path)`
/// and `save_profile(path)` for the node's `$section` of a TOML profile (`$class` names the node
/// in errors), and `get_setup_problems()`. Each function's documentation (the editor's help) is
/// given with it.
#[macro_export]
macro_rules! stage_node_api {
    ($node:ident, $class:tt, $section:ident,
     load: $load_doc:tt, save: $save_doc:tt, problems: $problems_doc:tt) => {
        #[godot_api(secondary)]
        impl $node {
            #[doc = $load_doc]
            #[func]
            fn load_profile(&mut self, path: GString) -> bool {
                $crate::shared::profile_file::apply_profile($class, &path, |p| {
                    self.set_core_settings(&p.$section)
                })
            }

            #[doc = $save_doc]
            #[func]
            fn save_profile(&self, path: GString) -> bool {
                let s = self.core_settings();
                $crate::shared::profile_file::store_profile($class, &path, |p| p.$section = s)
            }

            #[doc = $problems_doc]
            #[func]
            fn get_setup_problems(&self) -> PackedStringArray {
                self.problems().iter().map(GString::from).collect()
            }
        }
    };
}

pub use crate::shared::profile_file::{apply_profile, load_profile, store_profile};

/// The (input, output) pair of one side.
pub fn side_slots<'a>(
    side: vr_arms_core::Side,
    left: (&'a Option<Gd<Node3D>>, &'a Option<Gd<Node3D>>),
    right: (&'a Option<Gd<Node3D>>, &'a Option<Gd<Node3D>>),
) -> (Option<Gd<Node3D>>, Option<Gd<Node3D>>) {
    let (i, o) = match side {
        vr_arms_core::Side::Left => left,
        vr_arms_core::Side::Right => right,
    };
    // Never clone a freed object (gdext panics): only live ones come out.
    (alive(i), alive(o))
}

/// A small unshaded sphere that shows where a target is (the original design's debug colours).
pub struct DebugMarker {
    node: Gd<MeshInstance3D>,
}

impl DebugMarker {
    /// Creates the marker as an internal, top-level child of `parent`.
    pub fn new(parent: &mut Gd<Node3D>, color: Color, radius: f32) -> Self {
        let mut mesh = SphereMesh::new_gd();
        mesh.set_radius(radius);
        mesh.set_height(radius * 2.0);
        mesh.set_radial_segments(12);
        mesh.set_rings(6);
        let mut material = StandardMaterial3D::new_gd();
        material.set_shading_mode(ShadingMode::UNSHADED);
        material.set_albedo(color);
        material.set_flag(
            godot::classes::base_material_3d::Flags::DISABLE_DEPTH_TEST,
            true,
        );
        mesh.set_material(&material.upcast::<BaseMaterial3D>());
        let mut node = MeshInstance3D::new_alloc();
        node.set_mesh(&mesh);
        node.set_as_top_level(true);
        parent
            .add_child_ex(&node)
            .internal(godot::classes::node::InternalMode::BACK)
            .done();
        Self { node }
    }

    pub fn show_at(&mut self, p: Option<glam::Vec3>) {
        if !self.node.is_instance_valid() {
            return;
        }
        match p {
            Some(p) if p.is_finite() => {
                self.node.set_visible(true);
                self.node.set_global_position(crate::convert::to_vector3(p));
            }
            _ => self.node.set_visible(false),
        }
    }

    pub fn free(self) {
        if self.node.is_instance_valid() {
            self.node.clone().queue_free();
        }
    }
}

/// A node's set of debug markers: created on first use, hidden when there is no position,
/// freed when debug drawing is switched off.
#[derive(Default)]
pub struct DebugMarkers {
    markers: Vec<DebugMarker>,
}

impl DebugMarkers {
    /// Shows marker `i` (colour and radius `styles[i]`) at `positions[i]` when `enabled`.
    pub fn sync(
        &mut self,
        enabled: bool,
        owner: Gd<Node3D>,
        styles: &[(Color, f32)],
        positions: &[Option<glam::Vec3>],
    ) {
        if !enabled {
            self.markers.drain(..).for_each(DebugMarker::free);
            return;
        }
        if self.markers.is_empty() {
            let mut owner = owner;
            self.markers = styles
                .iter()
                .map(|(c, r)| DebugMarker::new(&mut owner, *c, *r))
                .collect();
        }
        for (i, m) in self.markers.iter_mut().enumerate() {
            m.show_at(positions.get(i).copied().flatten());
        }
    }
}

/// The original design's marker colours.
pub mod colors {
    use godot::builtin::Color;
    pub const CONTROLLER: Color = Color::from_rgb(0.2, 0.4, 1.0);
    pub const RAW: Color = Color::from_rgb(1.0, 0.9, 0.1);
    pub const CLAMPED: Color = Color::from_rgb(1.0, 0.15, 0.15);
    pub const WRIST: Color = Color::from_rgb(0.1, 0.9, 0.2);
    pub const HINT: Color = Color::from_rgb(0.9, 0.2, 0.9);
}

/// Godot's humanoid spine bones the remote body turns: chest, neck, head.
pub const HUMANOID_SPINE: [&str; 3] = ["Chest", "Neck", "Head"];

/// Godot's humanoid arm bones, left then right: clavicle, upper arm, lower arm, hand.
pub const HUMANOID_ARMS: [[&str; 4]; 2] = [
    ["LeftShoulder", "LeftUpperArm", "LeftLowerArm", "LeftHand"],
    [
        "RightShoulder",
        "RightUpperArm",
        "RightLowerArm",
        "RightHand",
    ],
];

/// For `on_set` (Godot's `_set`) of a node with configuration warnings: in the editor, the
/// warnings are worked out again once the property has its new value (deferred: Godot sets it
/// after this returns), and a 3D node's gizmos redrawn. Returns `false`, so Godot sets the
/// property as usual.
pub fn refresh_warnings_on_set(node: &Gd<Node>) -> bool {
    if in_editor() && node.is_inside_tree() {
        let mut node = node.clone();
        node.call_deferred("update_configuration_warnings", &[]);
        // Gizmos drawn from the settings (HolsterZone, ElbowHintSolver) follow them.
        if node.is_class("Node3D") {
            node.call_deferred("update_gizmos", &[]);
        }
    }
    false
}

/// "Set `name` to ...: why." when the node reference is unset, or freed.
pub fn unset_problem<T: GodotClass>(
    node: &Option<Gd<T>>,
    name: &str,
    what: &str,
) -> Option<String> {
    match node {
        None => Some(format!("Set \"{name}\" to {what}.")),
        Some(n) if !n.is_instance_valid() => Some(format!(
            "The node in \"{name}\" has been freed: set it to {what}."
        )),
        Some(_) => None,
    }
}
