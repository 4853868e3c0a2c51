#!/usr/bin/env python3
"""Makes mixamo_style.glb, a Mixamo-style test character, from VRMConstraintTest_vrm1.vrm.

Mixamo characters exported through Blender come with bones named `mixamorig:Hips`,
`mixamorig:LeftArm`, ... under an `Armature` node turned about X and scaled 0.01, with the
skeleton in centimetres. No Mixamo character may be redistributed, so this one is made from an
openly licensed VRM (VRM Public License 1.0, modification and redistribution allowed, credit
required: see README.md): its humanoid bones take Mixamo's names, its `Armature` node a 0.01
scale, every translation under it and the skin's inverse bind matrices are scaled up 100 times
(the character looks the same), and the VRM extensions are dropped (a plain glTF).

    python3 make_mixamo_style.py   # in this folder; writes mixamo_style.glb
"""
import json
import struct

SOURCE = "VRMConstraintTest_vrm1.vrm"
OUT = "mixamo_style.glb"

# VRM 1.0 humanoid bone -> Mixamo bone (without the "mixamorig:" prefix).
MIXAMO = {
    "hips": "Hips", "spine": "Spine", "chest": "Spine1", "upperChest": "Spine2",
    "neck": "Neck", "head": "Head",
}
for side, s in (("left", "Left"), ("right", "Right")):
    MIXAMO.update({
        f"{side}Shoulder": f"{s}Shoulder", f"{side}UpperArm": f"{s}Arm",
        f"{side}LowerArm": f"{s}ForeArm", f"{side}Hand": f"{s}Hand",
        f"{side}UpperLeg": f"{s}UpLeg", f"{side}LowerLeg": f"{s}Leg",
        f"{side}Foot": f"{s}Foot", f"{side}Toes": f"{s}ToeBase",
    })
    for i, joint in enumerate(("Metacarpal", "Proximal", "Distal")):
        MIXAMO[f"{side}Thumb{joint}"] = f"{s}HandThumb{i + 1}"
    for finger, m in (("Index", "Index"), ("Middle", "Middle"), ("Ring", "Ring"), ("Little", "Pinky")):
        for i, joint in enumerate(("Proximal", "Intermediate", "Distal")):
            MIXAMO[f"{side}{finger}{joint}"] = f"{s}Hand{m}{i + 1}"


def write_plain_glb(doc, blob, path, generator):
    """Drops any VRM extensions (a plain glTF), names the generator and writes `path`."""
    doc.pop("extensions", None)
    for n in doc["nodes"]:
        n.pop("extensions", None)
    for key in ("extensionsUsed", "extensionsRequired"):
        if key in doc:
            doc[key] = [e for e in doc[key] if not e.startswith("VRMC_")]
            if not doc[key]:
                del doc[key]
    doc.setdefault("asset", {})["generator"] = generator

    text = json.dumps(doc, separators=(",", ":")).encode()
    text += b" " * ((4 - len(text) % 4) % 4)
    blob += b"\0" * ((4 - len(blob) % 4) % 4)
    out = bytearray(b"glTF" + struct.pack("<II", 2, 12 + 8 + len(text) + 8 + len(blob)))
    out += struct.pack("<I", len(text)) + b"JSON" + text
    out += struct.pack("<I", len(blob)) + b"BIN\0" + blob
    open(path, "wb").write(out)


def main():
    data = open(SOURCE, "rb").read()
    assert data[:4] == b"glTF"
    json_len, = struct.unpack_from("<I", data, 12)
    doc = json.loads(data[20:20 + json_len])
    bin_start = 20 + json_len
    bin_len, = struct.unpack_from("<I", data, bin_start)
    blob = bytearray(data[bin_start + 8:bin_start + 8 + bin_len])

    nodes = doc["nodes"]
    for bone, entry in doc["extensions"]["VRMC_vrm"]["humanoid"]["humanBones"].items():
        if bone in MIXAMO:
            nodes[entry["node"]]["name"] = "mixamorig:" + MIXAMO[bone]

    armature = next(i for i, n in enumerate(nodes) if n.get("name") == "Armature")
    nodes[armature]["scale"] = [0.01, 0.01, 0.01]

    def scale_under(i):
        for c in nodes[i].get("children", []):
            if "translation" in nodes[c]:
                nodes[c]["translation"] = [v * 100.0 for v in nodes[c]["translation"]]
            scale_under(c)
    scale_under(armature)

    # Joint world matrices gained the 0.01 scale: the inverse bind matrices lose it.
    for skin in doc["skins"]:
        acc = doc["accessors"][skin["inverseBindMatrices"]]
        view = doc["bufferViews"][acc["bufferView"]]
        base = view.get("byteOffset", 0) + acc.get("byteOffset", 0)
        for k in range(acc["count"]):
            off = base + 64 * k
            m = list(struct.unpack_from("<16f", blob, off))
            # Column-major: rows 0..2 of every column scale by 100.
            for col in range(4):
                for row in range(3):
                    m[col * 4 + row] *= 100.0
            struct.pack_into("<16f", blob, off, *m)

    write_plain_glb(doc, blob, OUT, "vr_arms make_mixamo_style.py (from " + SOURCE + ")")


if __name__ == "__main__":
    main()
