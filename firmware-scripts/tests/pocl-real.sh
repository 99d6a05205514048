#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The pocl-ci plan with the real training/runner/sp-runner on pocl's CPU
# device: every (kernel, CU level) row written once, and a second sweep
# measures nothing.  Skipped (77) without the runner or a pocl device.
. "$(dirname "$0")/lib.sh"

: "${SP_REAL_RUNNER:=$tests_dir/../../training/runner/sp-runner}"
if [ ! -x "$SP_REAL_RUNNER" ]; then
	echo "$test_name: skipped: no runner at $SP_REAL_RUNNER" >&2
	exit 77
fi
if ! command -v clinfo >/dev/null 2>&1 || ! clinfo -l 2>/dev/null | grep -qi 'portable computing language'; then
	echo "$test_name: skipped: clinfo shows no pocl platform" >&2
	exit 77
fi
kernels=$("$SP_REAL_RUNNER" --list | awk '{ print $1 }' | head -n 2 | paste -sd, -)
[ -n "$kernels" ] || fail "'$SP_REAL_RUNNER --list' lists no kernels"

# Use the real tools only: the stand-ins stay off PATH.
PATH=$(printf '%s' "$PATH" | sed "s|^$tests_dir/bin:||")
run_sweep --runner "$SP_REAL_RUNNER" --set "runs=$work/out/runs.csv" --set "kernels=$kernels" \
	--set engine_mhz=1000 --set min_time_ms=1 "$SP_PLANS/pocl-ci.plan"
expect_status 0 "pocl-ci with the real runner"
expect_rows_once "$work/out/runs.csv" 4 "pocl-ci with the real runner"
run_sweep --runner "$SP_REAL_RUNNER" --set "runs=$work/out/runs.csv" --set "kernels=$kernels" \
	--set engine_mhz=1000 --set min_time_ms=1 "$SP_PLANS/pocl-ci.plan"
expect_status 0 "pocl-ci with the real runner, again"
expect_grep '2 of 2 configurations already measured' "$work/stderr" "pocl-ci with the real runner, again"
expect_rows_once "$work/out/runs.csv" 4 "pocl-ci with the real runner, again"
exit 0
