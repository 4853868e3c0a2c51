## Collects errors logged by the engine while a test runs.
class_name TestLogger
extends Logger

## The logger of the running test suite (tests that check warnings read it).
static var current: TestLogger

var _mutex := Mutex.new()
var _errors: Array[String] = []
var _warnings: Array[String] = []
var _messages: Array[String] = []


func _log_message(message: String, _error: bool) -> void:
	_mutex.lock()
	_messages.append(message)
	_mutex.unlock()


func _log_error(function: String, file: String, line: int, code: String, rationale: String,
		_editor_notify: bool, error_type: int, _script_backtraces: Array[ScriptBacktrace]) -> void:
	_mutex.lock()
	if error_type == ERROR_TYPE_WARNING:
		_warnings.append("%s (%s:%d %s)" % [rationale if rationale != "" else code, file, line, function])
		_mutex.unlock()
		return
	_errors.append("%s (%s:%d %s) %s" % [rationale if rationale != "" else code, file, line, function, code])
	_mutex.unlock()


func clear() -> void:
	_mutex.lock()
	_errors.clear()
	_warnings.clear()
	_messages.clear()
	_mutex.unlock()


## Lines printed since the last clear (`print`, `godot_print!`).
func take_messages() -> Array[String]:
	return _take(_messages)


## Warnings logged since the last clear (the runner does not fail on warnings by itself).
func take_warnings() -> Array[String]:
	return _take(_warnings)


func take_errors() -> Array[String]:
	return _take(_errors)


## What `list` holds, emptying it.
func _take(list: Array[String]) -> Array[String]:
	_mutex.lock()
	var out := list.duplicate()
	list.clear()
	_mutex.unlock()
	return out
