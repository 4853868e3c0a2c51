//! `FirstPersonHead`: the local avatar's head and neck hidden from the player's own camera only.

use godot::classes::{Camera3D, INode, MeshInstance3D, Node, Skeleton3D, Skin};
use godot::prelude::*;
use vr_arms_core::rig::first_person::{COLLAPSED_BIND_SCALE, FirstPersonSettings, bones_below};

use crate::engine::bind_bone;
use crate::shared::common::{
    alive, apply_profile, descendants, refresh_warnings_on_set, skinned_to, store_profile,
    unset_problem,
};

/// Hides the local avatar's head and neck from the player's own camera, so the view is not
/// filled by the inside of the head, while shadows, mirrors and spectator cameras still see the
/// whole avatar. (Other players never see this: their machines draw your body without it.)
///
/// How: when the game starts, every [MeshInstance3D] skinned to [member skeleton] whose skin
/// binds [member hidden_bone] or a bone below it gets a first-person copy. The copy shares the
/// mesh, materials and shadow setting; its [Skin] collapses those bones' vertices onto their
/// joints; it is on [member first_person_layer]. The original moves to
/// [member third_person_layer] and keeps casting its shadow (whole, head included, wherever
/// Godot draws shadows of layers the camera does not see; the copy's shadow lies inside it). [member camera] sees the first-person layer and not
/// the third-person one. Any other camera that should see the avatar (a mirror, a spectator) must
/// leave out the first-person layer: call [method exclude_from_camera] on it.
///
/// Turning [member enabled] off (or freeing the node) restores the meshes and the camera. Meshes
/// added later (a hat) are taken in by [method refresh].
#[derive(GodotClass)]
#[class(base = Node, tool)]
pub struct FirstPersonHead {
    /// The local avatar's skeleton.
    #[export]
    skeleton: Option<Gd<Skeleton3D>>,
    /// The player's own camera (the [XRCamera3D]).
    #[export]
    camera: Option<Gd<Camera3D>>,
    /// The bone hidden with every bone below it. `Neck` hides neck, head, eyes and jaw; `Head`
    /// keeps the neck.
    #[export]
    hidden_bone: StringName,
    /// Hide the head from [member camera] (on while the game runs; nothing happens in the editor).
    #[export]
    #[var(set = set_enabled)]
    enabled: bool,
    /// Render layer (1-20) of the first-person copies: only [member camera] should see it.
    #[export(range = (1.0, 20.0))]
    first_person_layer: i32,
    /// Render layer (1-20) the original meshes move to: every camera but [member camera] sees
    /// it.
    #[export(range = (1.0, 20.0))]
    third_person_layer: i32,

    applied: Vec<Hidden>,
    /// The camera this changed (see [CameraUse]).
    camera_mask: Option<Gd<Camera3D>>,
    report: crate::problems::ProblemReport,
    base: Base<Node>,
}

/// One mesh split in two: its original layers, to give back.
struct Hidden {
    original: Gd<MeshInstance3D>,
    layers: u32,
    copy: Gd<MeshInstance3D>,
}

#[godot_api]
impl INode for FirstPersonHead {
    fn on_validate_property(&self, property: &mut godot::register::info::PropertyInfo) {
        let bones = ["hidden_bone"];
        crate::shared::bone_list::suggest_bones(property, &bones, alive(&self.skeleton));
    }

    fn init(base: Base<Node>) -> Self {
        Self {
            skeleton: None,
            camera: None,
            hidden_bone: "Neck".into(),
            enabled: true,
            first_person_layer: FirstPersonSettings::default().first_person_layer as i32,
            third_person_layer: FirstPersonSettings::default().third_person_layer as i32,
            applied: Vec::new(),
            camera_mask: None,
            report: crate::problems::ProblemReport::new("FirstPersonHead"),
            base,
        }
    }

    fn ready(&mut self) {
        let problems = self.problems();
        self.report.runtime(&problems);
        if self.active() {
            self.apply();
        }
    }

    fn enter_tree(&mut self) {
        // Back in the tree after a move (ready runs only once).
        if self.base().is_node_ready() && self.active() {
            self.apply();
        }
    }

    fn exit_tree(&mut self) {
        self.restore();
    }

    fn get_configuration_warnings(&self) -> PackedStringArray {
        self.problems().iter().map(GString::from).collect()
    }

    fn on_set(&mut self, property: StringName, _value: Variant) -> bool {
        if property == "skeleton" && crate::shared::common::in_editor() {
            // The hidden bone's list of suggestions is the new skeleton's.
            self.to_gd()
                .call_deferred("notify_property_list_changed", &[]);
        }
        refresh_warnings_on_set(&self.to_gd().upcast())
    }
}

#[godot_api]
impl FirstPersonHead {
    #[func]
    fn set_enabled(&mut self, enabled: bool) {
        self.enabled = enabled;
        if !self.base().is_node_ready() || crate::shared::common::in_editor() {
            return;
        }
        if enabled {
            self.apply();
        } else {
            self.restore();
        }
    }

    /// Hides the first-person copies from `camera` (a mirror's or a spectator's), which then sees
    /// the whole avatar.
    #[func]
    fn exclude_from_camera(&self, camera: Option<Gd<Camera3D>>) {
        if let Some(mut c) = alive(&camera) {
            let mask = c.get_cull_mask() & !layer_bit(self.first_person_layer);
            c.set_cull_mask(mask);
        }
    }

    /// Takes in meshes added to the avatar since (restores, then hides again).
    #[func]
    fn refresh(&mut self) {
        self.restore();
        if self.active() {
            self.apply();
        }
    }

    /// Loads `enabled` and the two layers from the `[first_person]` section of a TOML profile
    /// (a head already hidden is hidden again with them); on error (one line naming it) the
    /// settings stay. The hidden bone is the rig's, not a profile's.
    #[func]
    fn load_profile(&mut self, path: GString) -> bool {
        let mut loaded = None;
        let ok = apply_profile("FirstPersonHead", &path, |p| loaded = Some(p.first_person));
        if let Some(mut s) = loaded {
            s.validate();
            self.restore();
            self.enabled = s.enabled;
            self.first_person_layer = s.first_person_layer as i32;
            self.third_person_layer = s.third_person_layer as i32;
            if self.base().is_node_ready() && self.base().is_inside_tree() && self.active() {
                self.apply();
            }
        }
        ok
    }

    /// Saves `enabled` and the two layers into the `[first_person]` section of a TOML profile
    /// (the rest of the file is kept).
    #[func]
    fn save_profile(&self, path: GString) -> bool {
        let s = FirstPersonSettings {
            enabled: self.enabled,
            first_person_layer: self.first_person_layer.clamp(1, 20) as u32,
            third_person_layer: self.third_person_layer.clamp(1, 20) as u32,
        };
        store_profile("FirstPersonHead", &path, |p| p.first_person = s)
    }

    /// The first-person copies made, one per mesh whose skin binds a hidden bone.
    #[func]
    fn get_first_person_meshes(&self) -> Array<Gd<MeshInstance3D>> {
        self.applied.iter().map(|h| h.copy.clone()).collect()
    }

    /// What is wrong with the setup (the editor's configuration warnings).
    #[func]
    fn get_setup_problems(&self) -> PackedStringArray {
        self.problems().iter().map(GString::from).collect()
    }

    /// Whether the head is to be hidden now: enabled, in a game (nothing happens in the editor).
    fn active(&self) -> bool {
        self.enabled && !crate::shared::common::in_editor()
    }

    fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        out.extend(unset_problem(
            &self.skeleton,
            "skeleton",
            "the local avatar's Skeleton3D",
        ));
        out.extend(unset_problem(
            &self.camera,
            "camera",
            "the player's XRCamera3D (the camera that must not see the head)",
        ));
        if let Some(s) = alive(&self.skeleton)
            && s.find_bone(&self.hidden_bone.to_string()) < 0
        {
            let hint = if s.find_bone("Neck") < 0 && s.find_bone("Head") >= 0 {
                " (a rig without a neck: \"Head\")"
            } else {
                ""
            };
            out.push(format!(
                "\"hidden_bone\" \"{}\" is not a bone of \"{}\": nothing would be hidden{hint}.",
                self.hidden_bone,
                s.get_name()
            ));
        }
        if self.first_person_layer == self.third_person_layer {
            out.push("\"first_person_layer\" and \"third_person_layer\" are the same layer: the camera would see both copies.".into());
        }
        out
    }

    fn apply(&mut self) {
        if !self.applied.is_empty() || !self.problems().is_empty() {
            return;
        }
        let (Some(skeleton), Some(mut camera)) = (alive(&self.skeleton), alive(&self.camera))
        else {
            return;
        };
        let parents: Vec<i32> = (0..skeleton.get_bone_count())
            .map(|i| skeleton.get_bone_parent(i))
            .collect();
        let root = skeleton.find_bone(&self.hidden_bone.to_string());
        let hidden = bones_below(&parents, root as usize);
        let (fp, tp) = (
            layer_bit(self.first_person_layer),
            layer_bit(self.third_person_layer),
        );
        let character = skeleton
            .get_parent()
            .unwrap_or_else(|| skeleton.clone().upcast());
        for mut mesh in skinned_meshes(&character, &skeleton) {
            let Some(skin) = first_person_skin(&mesh, &skeleton, &hidden) else {
                continue;
            };
            let mut copy = mesh.duplicate_node();
            copy.set_name(&format!("{}FirstPerson", mesh.get_name()));
            copy.set_skin(&skin);
            copy.set_meta(COPY_META, &true.to_variant());
            copy.set_layer_mask(fp);
            if let Some(mut parent) = mesh.get_parent() {
                parent.add_child(&copy);
                let path = copy.get_path_to(&skeleton);
                copy.set_skeleton_path(&path);
            }
            let layers = mesh.get_layer_mask();
            mesh.set_layer_mask(tp);
            self.applied.push(Hidden {
                original: mesh,
                layers,
                copy,
            });
        }
        CameraUse::take(&mut camera, fp, tp);
        self.camera_mask = Some(camera);
    }

    fn restore(&mut self) {
        for mut h in self.applied.drain(..) {
            if h.original.is_instance_valid() {
                h.original.set_layer_mask(h.layers);
            }
            if h.copy.is_instance_valid() {
                // Out of the tree at once, so a refresh in the same frame does not see it.
                if let Some(mut parent) = h.copy.get_parent() {
                    parent.remove_child(&h.copy);
                }
                h.copy.queue_free();
            }
        }
        if let Some(mut camera) = self.camera_mask.take()
            && camera.is_instance_valid()
        {
            CameraUse::give_back(&mut camera);
        }
    }
}

/// A camera's cull mask is shared by every FirstPersonHead on it (two local avatars, or one
/// replacing another): the first to take it keeps the mask it had, in the camera's metadata with
/// a count of users, and the last to give it back restores that mask.
struct CameraUse;

impl CameraUse {
    const USERS: &'static str = "vr_arms_first_person_users";
    const MASK: &'static str = "vr_arms_first_person_mask";

    fn take(camera: &mut Gd<Camera3D>, fp: u32, tp: u32) {
        let users = camera
            .get_meta_ex(Self::USERS)
            .default(&0.to_variant())
            .done();
        let users = users.try_to::<i64>().unwrap_or(0);
        let mask = camera.get_cull_mask();
        if users == 0 {
            camera.set_meta(Self::MASK, &(mask as i64).to_variant());
        }
        camera.set_meta(Self::USERS, &(users + 1).to_variant());
        camera.set_cull_mask((mask | fp) & !tp);
    }

    fn give_back(camera: &mut Gd<Camera3D>) {
        let users = camera
            .get_meta_ex(Self::USERS)
            .default(&0.to_variant())
            .done();
        let users = users.try_to::<i64>().unwrap_or(0);
        if users > 1 {
            camera.set_meta(Self::USERS, &(users - 1).to_variant());
            return;
        }
        let mask = camera
            .get_meta_ex(Self::MASK)
            .default(&0.to_variant())
            .done();
        if let Ok(mask) = mask.try_to::<i64>() {
            camera.set_cull_mask(mask as u32);
        }
        camera.remove_meta(Self::USERS);
        camera.remove_meta(Self::MASK);
    }
}

/// Metadata marking a first-person copy (never copied again).
const COPY_META: &str = "vr_arms_first_person_copy";

/// The render-layer bit of a 1-based layer number (clamped to 1-20, Godot's named layers).
fn layer_bit(layer: i32) -> u32 {
    1 << (layer.clamp(1, 20) - 1)
}

/// Every [MeshInstance3D] under `root` skinned to `skeleton`.
fn skinned_meshes(root: &Gd<Node>, skeleton: &Gd<Skeleton3D>) -> Vec<Gd<MeshInstance3D>> {
    let target = skeleton.clone().upcast::<Node>();
    descendants(root)
        .into_iter()
        .filter_map(|node| node.try_cast::<MeshInstance3D>().ok())
        .filter(|mesh| {
            mesh.get_mesh().is_some() && !mesh.has_meta(COPY_META) && skinned_to(mesh, &target)
        })
        .collect()
}

/// `mesh`'s skin with the binds of hidden bones collapsed onto their joints, or `None` when the
/// skin binds no hidden bone. A mesh without a skin is skinned by bone index from the
/// rest pose, as Godot does.
fn first_person_skin(
    mesh: &Gd<MeshInstance3D>,
    skeleton: &Gd<Skeleton3D>,
    hidden: &[bool],
) -> Option<Gd<Skin>> {
    let source = mesh
        .get_skin()
        .or_else(|| skeleton.clone().create_skin_from_rest_transforms())?;
    let mut skin = source.duplicate_resource();
    let mut any = false;
    for bind in 0..skin.get_bind_count() {
        let bone = bind_bone(&skin, skeleton, bind);
        if usize::try_from(bone)
            .ok()
            .and_then(|b| hidden.get(b))
            .copied()
            .unwrap_or(false)
        {
            let pose = skin.get_bind_pose(bind);
            let collapse = Transform3D::IDENTITY.scaled(Vector3::splat(COLLAPSED_BIND_SCALE));
            skin.set_bind_pose(bind, collapse * pose);
            any = true;
        }
    }
    any.then_some(skin)
}
