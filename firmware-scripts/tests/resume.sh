#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# A sweep killed with SIGKILL and run again ends with every configuration
# measured exactly once: no duplicate row, no lost row.  Killing only the
# sweep leaves its runner running; a new sweep refuses to start until that
# runner is gone, then resumes and restores the settings the killed sweep
# saved.  Killing the sweep with its runner (a crash) and running
# sp-sweep --restore puts the clocks back before anything else.
. "$(dirname "$0")/lib.sh"

write_nvidia_plan "$work/nv.plan"
runs=$work/out/runs.csv
export SP_FAKE_RUNNER_PIDFILE="$work/runner.pid"

# shellcheck disable=SC2317 # called through wait_for
data_rows_at_least() { # N
	[ -f "$runs" ] && [ $(($(wc -l <"$runs") - 1)) -ge "$1" ]
}

# Kill the sweep alone while its runner is held before its first row.
export SP_FAKE_RUNNER_HOLD="$work/hold"
touch "$SP_FAKE_RUNNER_HOLD"
"$SP_SWEEP" "$work/nv.plan" >"$work/stdout" 2>"$work/stderr" &
sweep_pid=$!
wait_for test -s "$SP_FAKE_RUNNER_PIDFILE"
wait_for grep -q ' ' "$work/out/sweep.lock/pids" # the sweep noted its runner
kill -s KILL "$sweep_pid"
wait "$sweep_pid" 2>/dev/null
runner_pid=$(cat "$SP_FAKE_RUNNER_PIDFILE")
[ "$(device_state nvidia)" = "1005 1593" ] || fail "the killed sweep had not locked the clocks"

run_sweep "$work/nv.plan"
expect_status 1 "a sweep beside a running orphan runner"
expect_grep "its runner (pid $runner_pid) is still using" "$work/stderr" "a sweep beside a running orphan runner"

# The orphan finishes its configuration; then a new sweep may start.
rm "$SP_FAKE_RUNNER_HOLD"
wait_for gone "$runner_pid"
unset SP_FAKE_RUNNER_HOLD
expect_rows_once "$runs" 2 "the orphan runner's rows"
: >"$SP_FAKE_LOG"
run_sweep "$work/nv.plan"
expect_status 0 "resumed after SIGKILL"
expect_rows_once "$runs" 8 "resumed after SIGKILL"
expect_grep 'taking over the lock left by a sweep that was killed' "$work/stderr" "resumed after SIGKILL"
expect_grep 'a killed sweep left settings changed' "$work/stderr" "resumed after SIGKILL"
expect_no_grep 'clocks.applications' "$SP_FAKE_LOG" "resumed after SIGKILL: the original settings must come from the killed sweep"
[ "$(tail -n 1 "$SP_FAKE_LOG")" = "nvidia-smi -i 0 -rmc" ] || fail "resumed after SIGKILL: no reset at the end"
[ "$(device_state nvidia)" = "1410 1593" ] || fail "resumed after SIGKILL: clocks left at $(device_state nvidia)"
[ "$(grep -c '^sp-runner ' "$SP_FAKE_LOG")" -eq 4 ] ||
	fail "resumed after SIGKILL: expected the unfinished configuration and the 3 others measured"

# A crash: the sweep and its runner killed together, in the middle of the
# third configuration.
if ! command -v setsid >/dev/null 2>&1; then
	echo "$test_name: the crash case is not tested: setsid is missing" >&2
	exit 0
fi
reset_device
export SP_FAKE_RUNNER_SLEEP=0.2
setsid "$SP_SWEEP" "$work/nv.plan" >"$work/stdout" 2>"$work/stderr" &
sweep_pid=$!
wait_for data_rows_at_least 5
kill -s KILL -- "-$sweep_pid"
wait "$sweep_pid" 2>/dev/null
unset SP_FAKE_RUNNER_SLEEP
wait_for gone "$(cat "$SP_FAKE_RUNNER_PIDFILE")"
[ -f "$work/out/sweep-original" ] || fail "crash: no saved settings"

: >"$SP_FAKE_LOG"
run_sweep --restore "$work/nv.plan"
expect_status 0 "--restore"
expect_log "--restore" <<LOG
nvidia-smi -i 0 -rgc
nvidia-smi -i 0 -rmc
LOG
[ "$(device_state nvidia)" = "1410 1593" ] || fail "--restore: clocks left at $(device_state nvidia)"
[ ! -e "$work/out/sweep-original" ] || fail "--restore: saved settings left behind"
run_sweep --restore "$work/nv.plan"
expect_status 0 "--restore with nothing to restore"
expect_grep 'nothing to restore' "$work/stderr" "--restore with nothing to restore"

# The finished configurations (at least the first two) are not measured
# again, and the clocks of a finished pair are not applied again.
finished=$(($(wc -l <"$work/out/sweep-log.csv") - 1))
[ "$finished" -ge 2 ] || fail "crash: only $finished configurations finished before the kill"
: >"$SP_FAKE_LOG"
run_sweep "$work/nv.plan"
expect_status 0 "resumed after a crash"
expect_rows_once "$runs" 8 "resumed after a crash"
expect_grep "$finished of 4 configurations already measured; resuming" "$work/stderr" "resumed after a crash"
expect_no_grep '-lgc 1005,1005' "$SP_FAKE_LOG" "resumed after a crash"
[ "$(grep -c '^sp-runner ' "$SP_FAKE_LOG")" -eq $((4 - finished)) ] ||
	fail "resumed after a crash: expected $((4 - finished)) runner calls, got $(grep -c '^sp-runner ' "$SP_FAKE_LOG")"
[ "$(device_state nvidia)" = "1410 1593" ] || fail "resumed after a crash: clocks left at $(device_state nvidia)"
exit 0
