//! `AvatarCalibrator`: measures the player and fits the avatar, saved per player.

use godot::classes::{
    DirAccess, FileAccess, INode, Node, Node3D, Skeleton3D, file_access::ModeFlags,
};
use godot::prelude::*;
use vr_arms_core::rig::calibration::{
    AvatarMeasures, CalibrationSettings, Calibrator, PlayerCalibration, RestJoints,
};
use vr_arms_core::rig::start_height::{StartHeight, StartHeightSettings};

use crate::convert::vec3;
use crate::shared::common::{alive, read_pose, refresh_warnings_on_set, unset_problem};

/// Measures the player's height (headset height, standing) and arm span (controllers held out
/// to the sides), scales the avatar to fit, and saves the result per player as TOML under
/// `user://vr_arms/`. On start it loads the player's saved calibration; a file that fails to load
/// is reported once, defaults are used, and it is not overwritten until a new calibration
/// succeeds.
///
/// Call [method start_calibration] while the player stands straight with arms out;
/// [signal calibration_completed] or [signal calibration_failed] follows after
/// `sample_seconds`.
///
/// Before any calibration (none saved for this player, none run yet), the avatar is fitted to
/// the headset's height as soon as the player stands tracked for half a second
/// ([member scale_at_tracking_start], [signal scaled_to_headset]); a calibration then refines it.
/// That first estimate is not saved.
#[derive(GodotClass)]
#[class(base = Node, tool)]
pub struct AvatarCalibrator {
    /// The headset (an [XRCamera3D]).
    #[export]
    head: Option<Gd<Node3D>>,
    /// The left controller.
    #[export]
    left_controller: Option<Gd<Node3D>>,
    /// The right controller.
    #[export]
    right_controller: Option<Gd<Node3D>>,
    /// The XR origin (the floor is at its height).
    #[export]
    origin: Option<Gd<Node3D>>,
    /// The avatar root to scale.
    #[export]
    avatar_root: Option<Gd<Node3D>>,
    /// The avatar's skeleton, measured from its rest pose.
    #[export]
    skeleton: Option<Gd<Skeleton3D>>,
    /// Whose calibration this is (file name under user://vr_arms/).
    #[export]
    player_name: GString,
    /// Load the saved calibration when the node is ready.
    #[export]
    auto_load: bool,
    /// How long to sample (seconds).
    #[export(range = (0.1, 10.0, suffix = "s"))]
    sample_seconds: f32,
    /// Share of the arm span in the avatar scale (0 = height only).
    #[export(range = (0.0, 1.0))]
    arm_span_share: f32,
    /// Lengthen (or shorten) the avatar's arms so that its fingertip span is the player's, once
    /// a calibration measured it (arms out): a stylised avatar with short arms then reaches the
    /// controllers. Sets the rig's `arm_length_scale` (0.7 to 1.6); off keeps the avatar's own
    /// proportions (its hands stop short of far controllers: the reach clamp holds them at
    /// the arm's reach).
    #[export]
    fit_arm_length: bool,
    /// Fit the avatar to the headset's height when tracking starts, until a calibration (saved
    /// or new) replaces it. Off: the avatar keeps its own size until calibrated.
    #[export]
    scale_at_tracking_start: bool,

    calibrator: Calibrator,
    start_height: StartHeight,
    current: PlayerCalibration,
    report: crate::problems::ProblemReport,
    base: Base<Node>,
}

#[godot_api]
impl INode for AvatarCalibrator {
    fn init(base: Base<Node>) -> Self {
        Self {
            head: None,
            left_controller: None,
            right_controller: None,
            origin: None,
            avatar_root: None,
            skeleton: None,
            player_name: "default".into(),
            auto_load: true,
            sample_seconds: 1.0,
            arm_span_share: 0.0,
            fit_arm_length: true,
            scale_at_tracking_start: true,
            calibrator: Calibrator::default(),
            start_height: StartHeight::new(StartHeightSettings::default()),
            current: PlayerCalibration::default(),
            report: crate::problems::ProblemReport::new("AvatarCalibrator"),
            base,
        }
    }

    fn ready(&mut self) {
        let problems = self.problems();
        self.report.runtime(&problems);
        if self.auto_load && !crate::shared::common::in_editor() {
            self.load_calibration();
        }
    }

    fn get_configuration_warnings(&self) -> PackedStringArray {
        self.problems().iter().map(GString::from).collect()
    }

    fn on_set(&mut self, _property: StringName, _value: Variant) -> bool {
        refresh_warnings_on_set(&self.to_gd().upcast())
    }

    fn process(&mut self, delta: f64) {
        // A tool class (the one-click setup creates it in the editor): it acts in games only.
        if crate::shared::common::skip_in_editor(false) {
            return;
        }
        if self.scale_at_tracking_start && !self.start_height.is_done() {
            self.watch_start_height(delta as f32);
        }
        if !self.calibrator.is_running() {
            return;
        }
        let (Some(head), Some(l), Some(r)) = (
            read_pose(&self.head),
            read_pose(&self.left_controller),
            read_pose(&self.right_controller),
        ) else {
            return;
        };
        let floor = read_pose(&self.origin).map(|p| p.position.y).unwrap_or(0.0);
        let avatar = self.avatar_measures();
        if let Some(result) = self.calibrator.sample(
            head.position,
            l.position,
            r.position,
            floor,
            delta as f32,
            &avatar,
        ) {
            match result {
                Ok(c) => {
                    self.current = c;
                    self.apply();
                    if let Err(e) = self.save() {
                        godot_error!("AvatarCalibrator: {e}");
                    }
                    self.signals().calibration_completed().emit(
                        c.player_height_m,
                        c.arm_span_m,
                        c.avatar_scale,
                    );
                }
                Err(e) => self
                    .signals()
                    .calibration_failed()
                    .emit(&GString::from(e.as_str())),
            }
        }
    }
}

#[godot_api]
impl AvatarCalibrator {
    /// A calibration finished: metres, metres, uniform avatar scale.
    #[signal]
    fn calibration_completed(player_height_m: f32, arm_span_m: f32, avatar_scale: f32);
    /// A calibration could not be used (implausible measures, no tracking).
    #[signal]
    fn calibration_failed(reason: GString);
    /// The avatar was fitted to the headset's height when tracking started (metres, uniform
    /// avatar scale), before any calibration.
    #[signal]
    fn scaled_to_headset(player_height_m: f32, avatar_scale: f32);

    /// What is wrong with the setup (the editor's configuration warnings).
    #[func]
    fn get_setup_problems(&self) -> PackedStringArray {
        self.problems().iter().map(GString::from).collect()
    }

    fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (node, name, what) in [
            (&self.head, "head", "the XRCamera3D (the player's height)"),
            (
                &self.left_controller,
                "left_controller",
                "the left XRController3D (the arm span)",
            ),
            (
                &self.right_controller,
                "right_controller",
                "the right XRController3D (the arm span)",
            ),
            (
                &self.avatar_root,
                "avatar_root",
                "the avatar root it scales to the player",
            ),
        ] {
            out.extend(unset_problem(node, name, what));
        }
        out.extend(unset_problem(
            &self.skeleton,
            "skeleton",
            "the avatar's Skeleton3D (its height and arm span are measured from the bones)",
        ));
        if self.origin.is_none() {
            out.push("Set \"origin\" to the XROrigin3D: the floor is taken at its height (y = 0 without it).".into());
        }
        if self.player_name.to_string().trim().is_empty() {
            out.push("\"player_name\" is empty: calibrations are saved per player name.".into());
        }
        out
    }

    /// Starts sampling; the player stands straight, arms held out to the sides.
    #[func]
    fn start_calibration(&mut self) {
        self.start_height.finish();
        self.calibrator = Calibrator::new(self.calibration_settings());
        self.calibrator.start();
    }

    /// Stops a running calibration without a result.
    #[func]
    fn cancel_calibration(&mut self) {
        self.calibrator.cancel();
    }

    /// Loads the player's saved calibration and applies it. False (with one error, defaults
    /// applied) when the file is missing or bad; the file is left as it is.
    #[func]
    fn load_calibration(&mut self) -> bool {
        let path = self.file_path();
        if !FileAccess::file_exists(&path) {
            return false;
        }
        let text = FileAccess::get_file_as_string(&path).to_string();
        match PlayerCalibration::from_toml_str(&text) {
            Ok(saved) => {
                // The player's measures are the player's; the scales are fitted again to this
                // avatar (the file may come from another character).
                let c = PlayerCalibration::fitted(
                    saved.player_height_m,
                    saved.arm_span_m,
                    &self.avatar_measures(),
                    &self.calibration_settings(),
                );
                if let Err(why) = c.check() {
                    godot_error!(
                        "AvatarCalibrator: calibration \"{path}\" does not fit this avatar: {why}; using defaults"
                    );
                    self.current = PlayerCalibration::default();
                    self.apply();
                    return false;
                }
                self.current = c;
                self.apply();
                // The player's own calibration: no estimate from the headset replaces it.
                self.start_height.finish();
                true
            }
            Err(e) => {
                godot_error!("AvatarCalibrator: calibration \"{path}\": {e}; using defaults");
                self.current = PlayerCalibration::default();
                self.apply();
                false
            }
        }
    }

    /// The player's height (metres) of the current calibration.
    #[func]
    fn get_player_height(&self) -> f32 {
        self.current.player_height_m
    }

    /// The player's arm span (metres) of the current calibration.
    #[func]
    fn get_arm_span(&self) -> f32 {
        self.current.arm_span_m
    }

    /// The avatar scale of the current calibration.
    #[func]
    fn get_avatar_scale(&self) -> f32 {
        self.current.avatar_scale
    }

    /// How much the current calibration lengthened the avatar's arms (1: as made).
    #[func]
    fn get_arm_length_scale(&self) -> f32 {
        self.current.arm_length_scale
    }

    /// Where this player's calibration is saved.
    #[func]
    fn get_calibration_path(&self) -> GString {
        self.file_path()
    }

    fn file_path(&self) -> GString {
        let name: String = self
            .player_name
            .to_string()
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        GString::from(format!("user://vr_arms/calibration_{name}.toml").as_str())
    }

    fn save(&self) -> Result<(), String> {
        DirAccess::make_dir_recursive_absolute("user://vr_arms");
        let path = self.file_path();
        let mut f =
            FileAccess::open(&path, ModeFlags::WRITE).ok_or(format!("cannot write \"{path}\""))?;
        f.store_string(&self.current.to_toml_string());
        f.close();
        Ok(())
    }

    /// One frame of the start-of-tracking height estimate.
    fn watch_start_height(&mut self, dt: f32) {
        let floor = read_pose(&self.origin).map(|p| p.position.y).unwrap_or(0.0);
        let eye = read_pose(&self.head).map(|p| p.position.y - floor);
        let (skeleton, root) = (&self.skeleton, alive(&self.avatar_root));
        match self
            .start_height
            .sample(eye, dt, || measure_avatar(skeleton, root.as_ref()))
        {
            Some(Ok(c)) => {
                self.current = c;
                self.apply();
                self.signals()
                    .scaled_to_headset()
                    .emit(c.player_height_m, c.avatar_scale);
            }
            Some(Err(e)) => {
                godot_warn!("AvatarCalibrator: not fitted to the headset's height: {e}")
            }
            None => {}
        }
    }

    fn apply(&mut self) {
        if let Some(mut root) = alive(&self.avatar_root) {
            let s = self.current.avatar_scale;
            root.set_scale(Vector3::new(s, s, s));
        }
        // The arms' own scale goes to the skeleton's arm rig(s) (left alone when not fitted:
        // a scale set on the rig by hand stays).
        if let Some(skeleton) = alive(&self.skeleton).filter(|_| self.fit_arm_length) {
            for child in skeleton.get_children().iter_shared() {
                if let Ok(mut rig) = child.try_cast::<crate::nodes::vr_arm_rig::VRArmRig>() {
                    rig.set(
                        "arm_length_scale",
                        &self.current.arm_length_scale.to_variant(),
                    );
                }
            }
        }
    }

    /// How this node measures and fits (its inspector settings).
    fn calibration_settings(&self) -> CalibrationSettings {
        let mut s = CalibrationSettings {
            sample_seconds: self.sample_seconds,
            arm_span_share: self.arm_span_share,
            fit_arm_length: self.fit_arm_length,
            ..Default::default()
        };
        s.validate();
        s
    }

    /// The avatar's own height and arm span from its rest pose, in the avatar root's units.
    fn avatar_measures(&self) -> AvatarMeasures {
        measure_avatar(&self.skeleton, alive(&self.avatar_root).as_ref())
    }
}

/// The avatar's own height and arm span from `skeleton`'s rest pose, in the avatar root's units
/// and axes (the skeleton may lie in a Z-up, centimetre space under an imported node), a
/// 1.75 m default without a skeleton.
fn measure_avatar(skeleton: &Option<Gd<Skeleton3D>>, root: Option<&Gd<Node3D>>) -> AvatarMeasures {
    let Some(s) = skeleton.as_ref().filter(|s| s.is_instance_valid()) else {
        return AvatarMeasures::TYPICAL;
    };
    let to_root = root.map_or(Transform3D::IDENTITY, |r| {
        crate::shared::character_root::skeleton_in(r, s)
    });
    let at = |name: &str| {
        let i = s.find_bone(name);
        (i >= 0).then(|| vec3(to_root * s.get_bone_global_rest(i).origin))
    };
    let both = |a: Option<glam::Vec3>, b: Option<glam::Vec3>| a.zip(b);
    let leg = |side: &str| {
        let [u, l, f] = ["UpperLeg", "LowerLeg", "Foot"].map(|b| at(&format!("{side}{b}")));
        Some([u?, l?, f?])
    };
    AvatarMeasures::from_rest(&RestJoints {
        eyes: both(at("LeftEye"), at("RightEye")),
        head: at("Head"),
        hands: both(at("LeftHand"), at("RightHand")),
        middle_distal: at("LeftMiddleDistal"),
        left_arm: match (at("LeftUpperArm"), at("LeftLowerArm"), at("LeftHand")) {
            (Some(u), Some(l), Some(h)) => Some([u, l, h]),
            _ => None,
        },
        legs: leg("Left").zip(leg("Right")).map(|(l, r)| [l, r]),
    })
}
