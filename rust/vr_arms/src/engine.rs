//! Engine helpers every node uses, depending on nothing else of this crate: whether a node is
//! alive, whether we run in the editor or off the main thread, a skeleton above a node, a
//! transform's scale and rotation, a node's descendants, ownership for saved scenes. A leaf
//! module: `common`, `relay`, `problems`, `budget` and the rig build on it without depending on
//! each other through it.

use godot::classes::{MeshInstance3D, Skeleton3D, Skin};
use godot::prelude::*;

/// The object if it is set and still alive (a freed one is treated as unset). Never clone an
/// exported `Option<Gd<..>>` directly: gdext panics on cloning a freed object.
pub fn alive<T: GodotClass>(node: &Option<Gd<T>>) -> Option<Gd<T>> {
    node.as_ref().filter(|n| n.is_instance_valid()).cloned()
}

/// The skeleton a modifier works on, for setup checks: `get_skeleton()`, or the parent when it
/// is a [Skeleton3D] (Godot binds the modifier to its skeleton only later, so right after
/// `add_child` `get_skeleton()` is still null).
pub fn parent_skeleton(
    modifier: &Gd<godot::classes::SkeletonModifier3D>,
) -> Option<Gd<godot::classes::Skeleton3D>> {
    modifier.get_skeleton().or_else(|| {
        modifier
            .get_parent()
            .and_then(|p| p.try_cast::<godot::classes::Skeleton3D>().ok())
    })
}

/// Whether a bone writer should do nothing this frame: in the editor, unless its
/// `editor_preview` is on.
/// Also off the main thread (see [crate::threads]): every per-frame callback starts here.
pub fn skip_in_editor(editor_preview: bool) -> bool {
    crate::threads::off_main_thread() || (!editor_preview && in_editor())
}

/// Whether the editor is running (`Engine.is_editor_hint()`, read once by gdext at start-up
/// instead of through the engine on every call: stages ask every frame).
pub fn in_editor() -> bool {
    godot::init::is_editor_hint()
}

/// A basis without its scale: its columns made unit (a rotation for a uniformly scaled one),
/// whatever the scale (Godot's `orthonormalized` refuses a basis scaled 0.01, whose
/// determinant it takes for zero).
pub fn rotation_of(b: &Basis) -> Basis {
    let unit = |v: Vector3| {
        let l = v.length();
        if l > 0.0 && l.is_finite() { v / l } else { v }
    };
    Basis::from_cols(unit(b.col_a()), unit(b.col_b()), unit(b.col_c()))
}

/// The mean of a transform's axis scales (its uniform scale when it is uniform).
pub fn uniform_scale(t: &Transform3D) -> f32 {
    let s = t.basis.get_scale();
    (s.x.abs() + s.y.abs() + s.z.abs()) / 3.0
}

/// `root` and every node below it, breadth first.
pub fn descendants(root: &Gd<godot::classes::Node>) -> Vec<Gd<godot::classes::Node>> {
    let mut out = vec![root.clone()];
    let mut i = 0;
    while i < out.len() {
        let children = out[i].get_children();
        out.extend(children.iter_shared());
        i += 1;
    }
    out
}

/// Whether `mesh` is skinned to `skeleton`: its skeleton path leads there.
pub fn skinned_to(mesh: &Gd<MeshInstance3D>, skeleton: &Gd<godot::classes::Node>) -> bool {
    let path = mesh.get_skeleton_path();
    !path.is_empty() && mesh.get_node_or_null(&path).as_ref() == Some(skeleton)
}

/// The skeleton bone `skin`'s bind `bind` moves: the bone its name names, or for an unnamed
/// bind its number (-1 for a name the skeleton lacks).
pub fn bind_bone(skin: &Gd<Skin>, skeleton: &Gd<Skeleton3D>, bind: i32) -> i32 {
    let name = skin.get_bind_name(bind);
    if name.is_empty() {
        skin.get_bind_bone(bind)
    } else {
        skeleton.find_bone(&name.to_string())
    }
}

/// Makes `owner` own `node`, so it is saved with the owner's scene, where it can: the owner must
/// be an ancestor of the node. A character instanced at run time owns only its own nodes, and
/// the setup's nodes beside it then stay unowned (Godot would refuse with an error each).
pub fn own_by(node: &Gd<godot::classes::Node>, owner: Option<&Gd<godot::classes::Node>>) {
    if let Some(o) = owner.filter(|o| o.is_ancestor_of(node)) {
        node.clone().set_owner(o);
    }
}

/// Godot runs a skeleton's modifiers once when they are set up, before any `_process` of that
/// frame: a modifier fed by `_process` stages would start its smoothing from stale inputs there.
/// This tells that pass apart: it skips only modification passes in the frame the node entered
/// the tree, before its own `_process` ran (a node whose processing is off still poses from the
/// next frame on).
#[derive(Clone, Copy, Debug, Default)]
pub struct SetupPass {
    entered_frame: Option<u64>,
    processed: bool,
}

impl SetupPass {
    /// The node entered the tree (again): its next pass may be the setup pass.
    pub fn entered_tree(&mut self) {
        self.processed = false;
        self.entered_frame = Some(godot::classes::Engine::singleton().get_process_frames());
    }

    /// The node's `_process` ran.
    pub fn processed(&mut self) {
        self.processed = true;
    }

    /// Whether this modification pass is the setup pass, to be skipped.
    pub fn is_setup_pass(&self) -> bool {
        !self.processed
            && self
                .entered_frame
                .is_some_and(|f| f == godot::classes::Engine::singleton().get_process_frames())
    }
}
