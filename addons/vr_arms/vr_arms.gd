## Names shared by the vr_arms classes: which hand, and the states their getters and signals
## report. `VRArms.Hand.LEFT` is what every `hand` argument, property and signal parameter takes.
class_name VRArms
extends Object

## A hand (the `hand` of ControllerTargets, TargetRouter, VRArmRig, HandPoseDriver, Revolver,
## XRTrackingSimulator, VRRemoteBody, VRBodySolver and their signals).
enum Hand { LEFT = 0, RIGHT = 1 }

## `Revolver.get_state()`: how the gun is held.
enum RevolverState { HOLSTERED = 0, LATCHED = 1, HELD = 2, COCKING = 3, DROPPED = 4 }

## `Revolver.get_hammer_position()` and `hammer_moved`: the notch the hammer rests in.
enum HammerPosition { DOWN = 0, SAFETY = 1, HALF_COCK = 2, FULL_COCK = 3 }

## `VRRemoteBody.detail`, `get_detail_level()` and `detail_changed`: how much of a remote body's work runs.
enum BodyDetail { AUTO = 0, FULL = 1, REDUCED = 2, LOW = 3, OFF = 4 }

## `HandPoseDriver.get_pose_state()` and `pose_state_changed`: the finger pose.
enum HandPoseState { DEFAULT = 0, PRE_GRIP = 1, GRIP_READY = 2, HAMMER_COCK = 3, SHOOT = 4, GATE_LOADING = 5, FANNING = 6, TWIRL = 7, PINCH = 8 }
