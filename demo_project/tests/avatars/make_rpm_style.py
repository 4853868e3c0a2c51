#!/usr/bin/env python3
"""Makes rpm_style.glb, a Ready Player Me-style test character, from Quaternius's CC0
"Superhero_Male_FullBody" (Universal Base Characters, glTF with a separate .bin).

Ready Player Me avatars name their bones as Mixamo does without the `mixamorig:` prefix (`Hips`,
`Spine`, `Spine1`, `Spine2`, `Neck`, `Head`, `LeftShoulder`, `LeftArm`, `LeftForeArm`,
`LeftHand`, `LeftHandIndex1`..`LeftHandIndex4`, `LeftUpLeg`, `LeftLeg`, `LeftFoot`,
`LeftToeBase`, `LeftToe_End`), in metres, under an `Armature` node. Ready Player Me's terms do
not allow redistributing an avatar, so this one is made from a CC0 character of realistic
proportions with every finger: its Unreal-style bone names (`pelvis`, `spine_01`, `upperarm_l`,
`index_01_l`, `ball_l`, ...) become Ready Player Me's, and its textures are dropped (the
materials keep a plain colour) to keep the file small. The skeleton, mesh and skin are the
original's.

    python3 make_rpm_style.py SOURCE_DIR   # in this folder; SOURCE_DIR holds the .gltf and .bin
"""
import json
import sys

from make_mixamo_style import write_plain_glb

SOURCE = "Superhero_Male_FullBody"
OUT = "rpm_style.glb"

RPM = {
    "pelvis": "Hips", "spine_01": "Spine", "spine_02": "Spine1", "spine_03": "Spine2",
    "neck_01": "Neck", "Head": "Head",
}
for s, side in (("l", "Left"), ("r", "Right")):
    RPM.update({
        f"clavicle_{s}": f"{side}Shoulder", f"upperarm_{s}": f"{side}Arm",
        f"lowerarm_{s}": f"{side}ForeArm", f"hand_{s}": f"{side}Hand",
        f"thigh_{s}": f"{side}UpLeg", f"calf_{s}": f"{side}Leg", f"foot_{s}": f"{side}Foot",
        f"ball_{s}": f"{side}ToeBase", f"ball_leaf_{s}": f"{side}Toe_End",
    })
    for finger, rpm in (("thumb", "Thumb"), ("index", "Index"), ("middle", "Middle"),
                        ("ring", "Ring"), ("pinky", "Pinky")):
        for i in (1, 2, 3):
            RPM[f"{finger}_0{i}_{s}"] = f"{side}Hand{rpm}{i}"
        RPM[f"{finger}_04_leaf_{s}"] = f"{side}Hand{rpm}4"

# A plain colour per material in place of its textures.
COLOURS = {"MI_Hair_1": [0.12, 0.08, 0.05, 1.0], "MI_Eyes": [0.9, 0.9, 0.9, 1.0],
           "MI_Superhero_Male": [0.55, 0.42, 0.35, 1.0]}


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else "."
    doc = json.load(open(f"{folder}/{SOURCE}.gltf"))
    blob = bytearray(open(f"{folder}/{SOURCE}.bin", "rb").read())
    renamed = 0
    for node in doc["nodes"]:
        if node.get("name") in RPM:
            node["name"] = RPM[node["name"]]
            renamed += 1
    assert renamed == len(RPM), f"renamed {renamed} of {len(RPM)} bones"
    for material in doc["materials"]:
        material.pop("normalTexture", None)
        pbr = material.setdefault("pbrMetallicRoughness", {})
        pbr.pop("baseColorTexture", None)
        pbr.pop("metallicRoughnessTexture", None)
        pbr["baseColorFactor"] = COLOURS[material["name"]]
    for key in ("images", "textures", "samplers"):
        doc.pop(key, None)
    doc["buffers"] = [{"byteLength": len(blob)}]
    write_plain_glb(doc, blob, OUT, "vr_arms make_rpm_style.py (from Quaternius " + SOURCE + ")")


if __name__ == "__main__":
    main()
