//! The order of the bone writers under one skeleton (modifiers run in the skeleton's child
//! order): which must run before the arms' `VRArmRig` and which after, and the warning when one
//! is on the wrong side. The rig is found by its class name, so a bone writer needs no link to
//! the rig's own type.

use godot::prelude::*;

/// Where a bone writer must run relative to the skeleton's `VRArmRig`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RigOrder {
    /// Before the rig: it moves bones the arm solve starts from (spine, clavicles).
    Before,
    /// After the rig: it works on the solved arms (twist, fingers, a held object).
    After,
}

/// A problem when `me`, a modifier named `class`, runs on the wrong side of a `VRArmRig` under
/// the same skeleton (modifiers run in the skeleton's child order); `why` says what the order is
/// for. `None` when there is no rig beside it.
pub fn rig_order_problem(me: &Gd<Node>, class: &str, order: RigOrder, why: &str) -> Option<String> {
    let parent = me.get_parent()?;
    let rig = parent
        .get_children()
        .iter_shared()
        .find(|c| c.is_class("VRArmRig"))?;
    let before = me.get_index() < rig.get_index();
    let (wrong, side) = match order {
        RigOrder::Before => (!before, "above"),
        RigOrder::After => (before, "below"),
    };
    wrong.then(|| {
        format!(
            "{class} must run {} the VRArmRig \"{}\" ({why}): move it {side} the rig among the skeleton's children (modifiers run in child order).",
            if order == RigOrder::Before { "before" } else { "after" },
            rig.get_name()
        )
    })
}
