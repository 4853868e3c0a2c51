//! `CartridgeHand`: a hand that takes cartridges from their loops and brings them to the
//! revolver's open loading gate.

use godot::classes::{INode, Node, RigidBody3D, XrController3D};
use godot::prelude::*;
use vr_arms_core::revolver::{GripEdge, GripEdges, nearest_within};

use crate::convert::vec3;
use crate::nodes::hand_pose_driver::HandPoseDriver;
use crate::problems::ProblemReport;
use crate::shared::common::{alive, refresh_warnings_on_set, skip_in_editor, unset_problem};

/// The group of cartridges a hand can take (the [Revolver] loads them at its open gate).
const ROUNDS: &str = "vr_arms_rounds";
/// The group of holders (a belt's loops) that a cartridge taken from one goes back to.
const HOLDERS: &str = "vr_arms_cartridge_holders";

/// One hand that takes cartridges: pressing the grip within `reach_m` of a cartridge (a node in
/// the group `vr_arms_rounds`: the belt's, or a round ejected live) holds it in the hand at
/// `hold_offset`. Brought to a [Revolver]'s open loading gate, the gun loads it (and frees it).
/// Let go elsewhere, a cartridge taken from a holder (its parent in the group
/// `vr_arms_cartridge_holders`, as a belt's loops) goes back into it; any other falls where it
/// is (a [RigidBody3D] is unfrozen). With `hand_pose` set, the hand shows its `Pinch` pose while
/// it holds one. Runs in `_process` at priority -740, after the gun.
#[derive(GodotClass)]
#[class(base = Node, tool)]
pub struct CartridgeHand {
    /// The hand's controller: its grip takes and lets go.
    #[export]
    controller: Option<Gd<XrController3D>>,
    /// Where a taken cartridge is held (optional; default the controller): the hand bone's
    /// attachment, say.
    #[export]
    hand_node: Option<Gd<Node3D>>,
    /// The controller's grip action.
    #[export]
    grip_action: StringName,
    /// How near the hand must be to a cartridge to take it (metres).
    #[export(range = (0.01, 0.3, suffix = "m"))]
    reach_m: f32,
    /// Where the cartridge sits in the hand (in `hand_node`'s frame): between thumb and
    /// fingers, nose forward.
    #[export]
    hold_offset: Transform3D,
    /// The hand's pose driver (optional): its `Pinch` pose while it holds a cartridge.
    #[export]
    hand_pose: Option<Gd<HandPoseDriver>>,

    grip: GripEdges,
    held: Option<Gd<Node3D>>,
    /// Where the held cartridge came from: its holder and its place in it.
    home: Option<(Gd<Node3D>, Transform3D)>,
    report: ProblemReport,
    base: Base<Node>,
}

#[godot_api]
impl INode for CartridgeHand {
    fn init(base: Base<Node>) -> Self {
        base.to_init_gd()
            .set_process_priority(crate::shared::priorities::CARTRIDGE_HAND);
        Self {
            controller: None,
            hand_node: None,
            grip_action: StringName::from("grip"),
            reach_m: 0.07,
            hold_offset: Transform3D::new(Basis::IDENTITY, Vector3::new(0.0, -0.01, -0.05)),
            hand_pose: None,
            grip: GripEdges::default(),
            held: None,
            home: None,
            report: ProblemReport::new("CartridgeHand"),
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
        // The gun loaded it (and freed it), or something else took it.
        if self.held.as_ref().is_some_and(|h| !h.is_instance_valid()) {
            self.held = None;
            self.home = None;
        }
        let pinching = self.held.is_some();
        if let Some(mut hp) = alive(&self.hand_pose) {
            hp.bind_mut().set_pinching(pinching);
        }
        let Some(controller) = alive(&self.controller) else {
            return;
        };
        match self.grip.update(controller.get_float(&self.grip_action)) {
            Some(GripEdge::Pressed) => self.take(),
            Some(GripEdge::Released) => self.let_go(),
            None => {}
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
impl CartridgeHand {
    /// The hand took `cartridge`.
    #[signal]
    fn cartridge_taken(cartridge: Gd<Node3D>);
    /// The hand let `cartridge` go without loading it: back into its holder (`returned`), or
    /// dropped.
    #[signal]
    fn cartridge_let_go(cartridge: Gd<Node3D>, returned: bool);

    /// The cartridge in the hand, or null.
    #[func]
    fn get_held(&self) -> Option<Gd<Node3D>> {
        self.held.clone().filter(|h| h.is_instance_valid())
    }

    /// What is wrong with the setup (the editor's configuration warnings).
    #[func]
    fn get_setup_problems(&self) -> PackedStringArray {
        self.problems().iter().map(GString::from).collect()
    }
}

impl CartridgeHand {
    fn problems(&self) -> Vec<String> {
        unset_problem(
            &self.controller,
            "controller",
            "the XRController3D of the hand that takes cartridges",
        )
        .into_iter()
        .collect()
    }

    /// Where the hand holds a cartridge.
    fn hand(&self) -> Option<Gd<Node3D>> {
        alive(&self.hand_node).or_else(|| alive(&self.controller).map(|c| c.upcast()))
    }

    /// Takes the nearest cartridge within reach, if any.
    fn take(&mut self) {
        let Some(hand) = self.hand() else {
            return;
        };
        let rounds: Vec<Gd<Node3D>> = self
            .base()
            .get_tree()
            .get_nodes_in_group(ROUNDS)
            .iter_shared()
            .filter_map(|n| n.try_cast::<Node3D>().ok())
            .filter(|n| n.is_inside_tree() && !n.is_queued_for_deletion())
            .collect();
        let at = vec3(hand.get_global_position());
        let points = rounds.iter().map(|r| vec3(r.get_global_position()));
        let Some(i) = nearest_within(at, points, self.reach_m) else {
            return;
        };
        let mut round = rounds[i].clone();
        self.home = round
            .get_parent()
            .and_then(|p| p.try_cast::<Node3D>().ok())
            .filter(|p| p.is_in_group(HOLDERS))
            .map(|p| (p, round.get_transform()));
        if let Ok(mut body) = round.clone().try_cast::<RigidBody3D>() {
            body.set_freeze_enabled(true);
        }
        round.reparent(&hand);
        round.set_transform(self.hold_offset);
        self.held = Some(round.clone());
        self.signals().cartridge_taken().emit(&round);
    }

    /// Lets the held cartridge go: back into its holder, or dropped into the scene.
    fn let_go(&mut self) {
        let Some(mut round) = self.held.take().filter(|r| r.is_instance_valid()) else {
            return;
        };
        let home = self.home.take().filter(|(h, _)| h.is_instance_valid());
        let returned = home.is_some();
        match home {
            Some((holder, place)) => {
                round.reparent(&holder);
                round.set_transform(place);
            }
            None => {
                let scene = self
                    .base()
                    .get_tree()
                    .get_current_scene()
                    .or_else(|| self.base().get_parent());
                if let Some(scene) = scene {
                    round.reparent(&scene);
                }
                if let Ok(mut body) = round.clone().try_cast::<RigidBody3D>() {
                    body.set_freeze_enabled(false);
                }
            }
        }
        self.signals().cartridge_let_go().emit(&round, returned);
    }
}
