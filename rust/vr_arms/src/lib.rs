//! **vr_arms** GDExtension: Godot nodes around the pure stages of `vr_arms_core`.
//!
//! Thin glue only: each node reads Godot state, converts it at the edge (`convert`), calls the
//! core, and writes the result back. No maths is re-implemented here.

use godot::prelude::*;

mod convert;
mod engine;
mod mesh_read;
mod nodes;
mod problems;
mod relay;
mod shared;
mod skeleton_bind;
mod skeleton_read;
mod skeleton_tree;
mod threads;

struct VrArmsExtension;

#[gdextension]
unsafe impl ExtensionLibrary for VrArmsExtension {
    fn on_stage_init(stage: InitStage) {
        if stage == InitStage::Scene {
            threads::mark_main_thread();
            relay::register_setting();
        }
    }
}
