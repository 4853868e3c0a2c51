## Fixtures for the runner's own rules, run by `cargo xtask engine-test` with
## `--dir=res://tests/runner_selftest`: exactly the `test_good_*` pass and the `test_bad_*`
## fail.
extends EngineTest


func test_bad_makes_no_check() -> void:
	await frames(1)


func test_bad_expects_an_error_that_never_comes() -> void:
	expect_errors(1)
	check(true, "a passing check")


func test_good_checks() -> void:
	check(true, "a passing check")


func test_good_gets_the_error_it_expects() -> void:
	expect_errors(1)
	push_error("the one expected error")
	check(true, "a passing check")


func test_bad_expects_a_warning_that_never_comes() -> void:
	expect_warnings(1)
	check(true, "a passing check")


func test_good_gets_the_warning_it_expects() -> void:
	expect_warnings(1)
	push_warning("the one expected warning")
	check(true, "a passing check")
