#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The sweep scripts, backends, stand-ins and tests pass shellcheck.  Skipped
# (77) where shellcheck is not installed: the build does not need it.
. "$(dirname "$0")/lib.sh"

if ! command -v shellcheck >/dev/null 2>&1; then
	echo "$test_name: skipped: shellcheck is not installed" >&2
	exit 77
fi
top=$tests_dir/..
shellcheck -s sh "$top/sp-sweep.in" || fail "sp-sweep.in"
shellcheck -s sh "$top/sp-merge" || fail "sp-merge"
shellcheck -s sh "$top"/backends/*.sh || fail "backends"
shellcheck -s sh "$top/sp-replay-runner" || fail "sp-replay-runner"
shellcheck -s sh -x -P "$tests_dir" "$tests_dir"/*.sh "$tests_dir"/bin/* || fail "tests"
exit 0
