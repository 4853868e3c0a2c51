## Synthesises the demo's few sounds (no recorded audio is shipped): a gunshot is a burst of
## noise with a fast decay and a low thump; clicks are short decaying tones with a noise edge.
class_name SoundMaker
extends RefCounted

const RATE := 22050


## A gunshot: 0.45 s of noise and a 90 Hz thump, decaying.
static func shot() -> AudioStreamWAV:
	var rng := RandomNumberGenerator.new()
	rng.seed = 7
	var n := int(RATE * 0.45)
	var samples := PackedFloat32Array()
	samples.resize(n)
	for i in n:
		var t := float(i) / RATE
		var noise := rng.randf_range(-1.0, 1.0) * exp(-t * 14.0)
		var thump := sin(TAU * 90.0 * t) * exp(-t * 9.0)
		samples[i] = 0.75 * noise + 0.5 * thump
	return _wav(samples)


## A mechanical click of `length` seconds around `pitch` Hz.
static func click(length: float, pitch: float) -> AudioStreamWAV:
	var rng := RandomNumberGenerator.new()
	rng.seed = int(pitch)
	var n := int(RATE * length)
	var samples := PackedFloat32Array()
	samples.resize(n)
	for i in n:
		var t := float(i) / RATE
		var decay := exp(-t * 60.0)
		samples[i] = (0.6 * sin(TAU * pitch * t) + 0.4 * rng.randf_range(-1.0, 1.0)) * decay
	return _wav(samples)


static func _wav(samples: PackedFloat32Array) -> AudioStreamWAV:
	var data := PackedByteArray()
	data.resize(samples.size() * 2)
	for i in samples.size():
		data.encode_s16(i * 2, int(clampf(samples[i], -1.0, 1.0) * 32000.0))
	var wav := AudioStreamWAV.new()
	wav.format = AudioStreamWAV.FORMAT_16_BITS
	wav.mix_rate = RATE
	wav.stereo = false
	wav.data = data
	return wav
