//! `VRArmsProfileExport`: puts the project's TOML profiles into exported games.

use godot::classes::{DirAccess, EditorExportPlugin, FileAccess, IEditorExportPlugin};
use godot::prelude::*;

/// Godot exports only resources it knows, so `.toml` profiles (`load_profile("res://...toml")`)
/// would be missing from an exported game and `load_profile` would fail there. This export
/// plugin (added by the vr_arms editor plugin) adds every `*.toml` file under `res://` (hidden
/// folders such as `.godot` skipped) to each export, as it is.
#[derive(GodotClass)]
#[class(base = EditorExportPlugin, tool, init)]
pub struct VRArmsProfileExport {
    base: Base<EditorExportPlugin>,
}

#[godot_api]
impl IEditorExportPlugin for VRArmsProfileExport {
    fn get_name(&self) -> GString {
        "vr_arms profiles".into()
    }

    // Required by the binding; this plugin customises no resource or scene.
    fn customize_resource(
        &mut self,
        _resource: Gd<Resource>,
        _path: GString,
    ) -> Option<Gd<Resource>> {
        None
    }

    fn customize_scene(&mut self, _scene: Gd<Node>, _path: GString) -> Option<Gd<Node>> {
        None
    }

    fn get_customization_configuration_hash(&self) -> u64 {
        0
    }

    fn export_begin(
        &mut self,
        _features: PackedStringArray,
        _is_debug: bool,
        _path: GString,
        _flags: u32,
    ) {
        let mut found = Vec::new();
        collect_toml("res://", &mut found, 0);
        for path in found {
            let bytes = FileAccess::get_file_as_bytes(&path);
            self.base_mut().add_file(&path, &bytes, false);
        }
    }
}

/// Every `*.toml` under `dir`, depth-limited, hidden folders skipped.
fn collect_toml(dir: &str, out: &mut Vec<GString>, depth: u32) {
    if depth > 32 {
        return;
    }
    let join = |name: &GString| {
        if dir.ends_with('/') {
            format!("{dir}{name}")
        } else {
            format!("{dir}/{name}")
        }
    };
    for file in DirAccess::get_files_at(dir).as_slice() {
        if file.to_string().ends_with(".toml") {
            out.push(join(file).as_str().into());
        }
    }
    for sub in DirAccess::get_directories_at(dir).as_slice() {
        if !sub.to_string().starts_with('.') {
            collect_toml(&join(sub), out, depth + 1);
        }
    }
}
