## Engine test runner: runs every `test_*` method of every `res://tests/engine/test_*.gd`, each on
## a fresh instance added to the tree, then prints `N passed, N failed` and quits with status 1
## on any failure. Errors logged by the engine during a test fail that test unless the test
## declared exactly that many with `expect_errors()`; a test that declared its warnings with
## `expect_warnings()` fails on any other number of them; a test that made no check fails too.
extends Node

## Where the tests are; `--dir=` changes it (the runner's self-test uses its own fixtures).
const TEST_DIR := "res://tests/engine"
## A test that takes longer than this (seconds of wall time) fails the whole run.
const TEST_TIMEOUT_S := 120.0

var _logger := TestLogger.new()
var _current := ""
var _started_ms := 0


func _ready() -> void:
	_started_ms = Time.get_ticks_msec()
	OS.add_logger(_logger)
	TestLogger.current = _logger
	_run.call_deferred()


func _process(_delta: float) -> void:
	# Also catches a runner that stopped between tests (a script error ends a coroutine).
	if Time.get_ticks_msec() - _started_ms > TEST_TIMEOUT_S * 1000.0:
		printerr("FAIL %s: timed out after %d s" % [_current if _current != "" else "runner", TEST_TIMEOUT_S])
		print("0 passed, 1 failed")
		get_tree().quit(1)


func _run() -> void:
	var filter := ""
	var dir := TEST_DIR
	for arg in OS.get_cmdline_user_args():
		if arg.begins_with("--filter="):
			filter = arg.trim_prefix("--filter=")
		elif arg.begins_with("--dir="):
			dir = arg.trim_prefix("--dir=")
	var files: Array = []
	for f in DirAccess.get_files_at(dir):
		if f.begins_with("test_") and f.ends_with(".gd"):
			files.append(f)
	files.sort()
	var passed := 0
	var failed := 0
	var failed_names: Array[String] = []
	for f in files:
		var script: GDScript = load(dir + "/" + f)
		if script == null:
			printerr("FAIL %s: cannot load" % f)
			failed += 1
			continue
		var methods: Array[String] = []
		for m in script.get_script_method_list():
			if String(m.name).begins_with("test_") and not methods.has(m.name):
				methods.append(m.name)
		methods.sort()
		for m in methods:
			var test_name := "%s:%s" % [f.trim_suffix(".gd"), m]
			if filter != "" and not test_name.contains(filter):
				continue
			var suite: Node = script.new()
			suite.name = m
			add_child(suite)
			_logger.clear()
			_current = test_name
			_started_ms = Time.get_ticks_msec()
			await suite.call(m)
			# Let a signal emission the test resumed in finish before anything is freed.
			await get_tree().process_frame
			_current = ""
			var problems: Array = suite.failures.duplicate()
			var expected: int = suite.expected_errors
			var expected_warnings: int = suite.expected_warnings
			var checks: int = suite.checks_made
			remove_child(suite)
			suite.free()
			await get_tree().process_frame
			var errors := _logger.take_errors()
			var warnings := _logger.take_warnings()
			_started_ms = Time.get_ticks_msec()
			if errors.size() != expected:
				problems.append("%d engine error(s) logged (expected %d): %s" % [errors.size(), expected, errors])
			if expected_warnings >= 0 and warnings.size() != expected_warnings:
				problems.append("%d warning(s) logged (expected %d): %s" % [warnings.size(), expected_warnings, warnings])
			if checks == 0:
				problems.append("the test made no check")
			if problems.is_empty():
				passed += 1
				print("PASS %s" % test_name)
			else:
				failed += 1
				failed_names.append(test_name)
				for p in problems:
					printerr("FAIL %s: %s" % [test_name, p])
	OS.remove_logger(_logger)
	if not failed_names.is_empty():
		print("failed: %s" % ", ".join(failed_names))
	print("%d passed, %d failed" % [passed, failed])
	get_tree().quit(1 if failed > 0 else 0)
