//! What the node classes share: bone lists and names, the crowd budget, target and settings
//! helpers, floor rays, hands, enums, the bone writers' order and priorities, profiles, rest-pose
//! measures, views and VRM bone maps. No Godot class lives here; each class is in `nodes/`.

pub mod bone_list;
pub mod bone_map_apply;
pub mod budget;
pub mod character_root;
pub mod common;
pub mod core_frame;
pub mod floor_ray;
pub mod hand;
pub mod hand_tracking_source;
pub mod int_enum;
pub mod lower_body_bind;
pub mod modifier_order;
pub mod priorities;
pub mod profile_file;
pub mod rest_measure;
pub mod views;
pub mod vrm_bone_map;
