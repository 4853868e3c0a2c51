//! The views a crowd is seen from this frame: the viewport's active camera (each eye of an
//! [XRCamera3D] while an XR interface runs) and every camera in a group (a mirror's). Gathered
//! once per frame and group, however many bodies ask.

use std::cell::RefCell;

use godot::classes::{Camera3D, Engine, Node, XrCamera3D, XrServer};
use godot::prelude::*;
use vr_arms_core::crowd::crowd_detail::ViewVolume;

use crate::convert::vec3;

/// The last frame's views: (process frame, viewport, group) and what they were.
type Cached = (u64, InstanceId, StringName, Vec<ViewVolume>);

thread_local! {
    static CACHE: RefCell<Option<Cached>> = const { RefCell::new(None) };
}

/// Calls `f` with this frame's views as `node` sees them (its viewport's camera and the cameras
/// in `group`), gathered on the first call of the frame.
pub fn with_views<T>(node: &Gd<Node>, group: &StringName, f: impl FnOnce(&[ViewVolume]) -> T) -> T {
    let frame = Engine::singleton().get_process_frames();
    let viewport = node.get_viewport().map(|v| v.instance_id());
    CACHE.with_borrow_mut(|cache| {
        let fresh = matches!(cache, Some((at, vp, g, _))
            if *at == frame && Some(*vp) == viewport && g == group);
        if !fresh {
            let views = gather(node, group);
            *cache = viewport.map(|vp| (frame, vp, group.clone(), views));
        }
        match cache {
            Some((.., views)) => f(views),
            None => f(&[]),
        }
    })
}

/// Every view's volume: the viewport's camera and the group's, each camera once.
fn gather(node: &Gd<Node>, group: &StringName) -> Vec<ViewVolume> {
    let mut cameras: Vec<Gd<Camera3D>> = Vec::new();
    if let Some(c) = node.get_viewport().and_then(|v| v.get_camera_3d()) {
        cameras.push(c);
    }
    if node.is_inside_tree() {
        for n in node.get_tree().get_nodes_in_group(group).iter_shared() {
            if let Ok(c) = n.try_cast::<Camera3D>()
                && renders(&c)
                && !cameras.iter().any(|k| k.instance_id() == c.instance_id())
            {
                cameras.push(c);
            }
        }
    }
    let mut views = Vec::new();
    for camera in &cameras {
        add_camera(camera, &mut views);
    }
    views
}

/// Whether a group's camera renders now: in the tree, its viewport's current camera, and that
/// viewport not a `SubViewport` whose updates are switched off (a mirror turned off).
fn renders(camera: &Gd<Camera3D>) -> bool {
    use godot::classes::SubViewport;
    use godot::classes::sub_viewport::UpdateMode;
    if !camera.is_inside_tree() || !camera.is_current() {
        return false;
    }
    camera
        .get_viewport()
        .and_then(|v| v.try_cast::<SubViewport>().ok())
        .is_none_or(|v| v.get_update_mode() != UpdateMode::DISABLED)
}

/// A camera's volumes: one per eye for the XR camera while an interface runs, else its own.
fn add_camera(camera: &Gd<Camera3D>, views: &mut Vec<ViewVolume>) {
    if camera.clone().try_cast::<XrCamera3D>().is_ok() && camera.is_inside_tree() {
        let xr = XrServer::singleton();
        if let Some(iface) = xr.get_primary_interface()
            && iface.is_initialized()
        {
            let aspect = camera
                .get_viewport()
                .map(|v| v.get_visible_rect().size)
                .map_or(1.0, |s| if s.y > 0.0 { s.x / s.y } else { 1.0 });
            let origin = xr.get_world_origin();
            let (near, far) = (camera.get_near() as f64, camera.get_far() as f64);
            for view in 0..iface.get_view_count() {
                let projection = iface.get_projection_for_view(view, aspect as f64, near, far);
                let eye = iface.get_transform_for_view(view, origin);
                views.extend(volume(&projection, &eye));
            }
            return;
        }
    }
    views.extend(volume(
        &camera.get_camera_projection(),
        &camera.get_camera_transform(),
    ));
}

/// The volume of a camera with `projection` placed at `eye` (world).
fn volume(projection: &Projection, eye: &Transform3D) -> Option<ViewVolume> {
    let p = glam::Mat4::from_cols_array_2d(&projection.cols.map(|c| [c.x, c.y, c.z, c.w]));
    let t = eye.affine_inverse();
    let b = crate::convert::mat3(&t.basis);
    let view = glam::Mat4::from_mat3_translation(b, vec3(t.origin));
    ViewVolume::from_view_projection(p * view, vec3(eye.origin))
}
