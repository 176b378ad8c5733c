# shellcheck shell=bash
# The TAP lines the shell unit tests share (sourced): check DESCRIPTION
# COMMAND... runs COMMAND and records it; tap_done prints the summary line
# and gives the exit status.
n=0 failed=0

check() {
	local what=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n - $what"
	else
		failed=$((failed + 1))
		echo "not ok $n - $what"
	fi
}

tap_done() {
	echo "$((n - failed)) passed, $failed failed"
	[ "$failed" -eq 0 ]
}
