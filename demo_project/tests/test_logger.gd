## Collects errors logged by the engine while a test runs.
class_name TestLogger
extends Logger

var _mutex := Mutex.new()
var _errors: Array[String] = []


func _log_error(function: String, file: String, line: int, code: String, rationale: String,
		_editor_notify: bool, error_type: int, _script_backtraces: Array[ScriptBacktrace]) -> void:
	if error_type == ERROR_TYPE_WARNING:
		return
	_mutex.lock()
	_errors.append("%s (%s:%d %s) %s" % [rationale if rationale != "" else code, file, line, function, code])
	_mutex.unlock()


func clear() -> void:
	_mutex.lock()
	_errors.clear()
	_mutex.unlock()


func take_errors() -> Array[String]:
	_mutex.lock()
	var out := _errors.duplicate()
	_errors.clear()
	_mutex.unlock()
	return out
