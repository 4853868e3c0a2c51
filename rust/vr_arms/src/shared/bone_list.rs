//! The skeleton's bone list as inspector suggestions for bone-name properties, the way Godot's
//! own IK modifiers offer it.

use godot::classes::Skeleton3D;
use godot::prelude::*;
use godot::register::info::PropertyHint;
use godot::register::info::PropertyInfo;

/// For `on_validate_property`: when `property` is one of `names` (bone-name properties, a
/// String or StringName) and there is a skeleton, the inspector offers its bones in a list
/// (`PROPERTY_HINT_ENUM_SUGGESTION`: another name can still be typed, for a skeleton loaded
/// later). A PackedStringArray of bone names gets the same list for each element.
pub fn suggest_bones(
    property: &mut PropertyInfo,
    names: &[&str],
    skeleton: Option<Gd<Skeleton3D>>,
) {
    let Some(skeleton) = skeleton.filter(|s| s.is_instance_valid()) else {
        return;
    };
    if !names.iter().any(|n| property.property_name == *n) {
        return;
    }
    let bones = skeleton.get_concatenated_bone_names();
    if property.variant_type == VariantType::PACKED_STRING_ARRAY {
        property.hint_info.hint = PropertyHint::TYPE_STRING;
        property.hint_info.hint_string = format!(
            "{}/{}:{bones}",
            VariantType::STRING.ord(),
            PropertyHint::ENUM_SUGGESTION.ord()
        )
        .as_str()
        .into();
    } else {
        property.hint_info.hint = PropertyHint::ENUM_SUGGESTION;
        property.hint_info.hint_string = GString::from(&bones);
    }
}
