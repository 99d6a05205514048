#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Settings are restored whatever ends the sweep: a runner error, and SIGINT,
# SIGTERM or SIGHUP sent to the sweep while its runner measures.  The
# runner is stopped first, nothing is left behind (saved settings, lock),
# and a second sweep completes the grid with every row exactly once.
. "$(dirname "$0")/lib.sh"

write_nvidia_plan "$work/nv.plan"
reads='nvidia-smi -i 0 --query-gpu=clocks.sm,clocks.mem --format=csv,noheader,nounits'
runner="sp-runner --backend cuda --kernels all"
rest="--runs $work/out/runs.csv --device 0 [env: CUDA_DEVICE_ORDER=PCI_BUS_ID]"

restored() { # WHAT
	[ "$(tail -n 2 "$SP_FAKE_LOG" | tr '\n' ' ')" = "nvidia-smi -i 0 -rgc nvidia-smi -i 0 -rmc " ] ||
		fail "$1: the calls do not end with the reset: $(tail -n 3 "$SP_FAKE_LOG")"
	[ "$(device_state nvidia)" = "1410 1593" ] || fail "$1: clocks left at $(device_state nvidia)"
	[ ! -e "$work/out/sweep-original" ] || fail "$1: saved settings left behind"
	[ ! -e "$work/out/sweep.lock" ] || fail "$1: lock left behind"
}

completes() { # WHAT
	: >"$SP_FAKE_LOG"
	run_sweep "$work/nv.plan"
	expect_status 0 "$1, run again"
	expect_rows_once "$work/out/runs.csv" 8 "$1, run again"
	restored "$1, run again"
}

# An error in the runner at the second configuration.
export SP_FAKE_RUNNER_FAIL_CU=16
run_sweep "$work/nv.plan"
unset SP_FAKE_RUNNER_FAIL_CU
expect_status 1 "runner error"
expect_grep 'the runner failed at cu=16 engine=1005 memory=1593' "$work/stderr" "runner error"
expect_log "runner error: the command sequence" <<LOG
nvidia-smi -i 0 --query-supported-clocks=memory,graphics --format=csv,noheader,nounits
nvidia-smi -i 0 --query-gpu=clocks.sm,clocks.mem,clocks.applications.graphics,clocks.applications.memory --format=csv,noheader,nounits
nvidia-smi -i 0 -lgc 1005,1005
nvidia-smi -i 0 -lmc 1593,1593
$reads
$runner --cu 8 --engine-mhz 1005 --memory-mhz 1593 $rest
$reads
$runner --cu 16 --engine-mhz 1005 --memory-mhz 1593 $rest
nvidia-smi -i 0 -rgc
nvidia-smi -i 0 -rmc
LOG
restored "runner error"
completes "runner error"
expect_no_grep '--cu 8 --engine-mhz 1005' "$SP_FAKE_LOG" "runner error: a finished configuration measured again"

# Signals while the runner measures (held before its first row).  A shell
# without job control starts background commands with SIGINT ignored, and an
# ignored signal cannot be trapped, so the sweep is started through
# 'env --default-signal' (GNU coreutils 8.31).
export SP_FAKE_RUNNER_PIDFILE="$work/runner.pid"
for sig in TERM HUP INT; do
	reset_device
	rm -f "$SP_FAKE_RUNNER_PIDFILE"
	export SP_FAKE_RUNNER_HOLD="$work/hold"
	touch "$SP_FAKE_RUNNER_HOLD"
	# A signal ignored when the shell starts cannot be trapped either: a
	# test run under nohup (SIGHUP ignored) would otherwise wait forever.
	# 'env --default-signal' (GNU coreutils 8.31) resets it for the sweep.
	if ! env --default-signal="$sig" true 2>/dev/null; then
		echo "$test_name: SIG$sig not tested: env --default-signal is missing" >&2
		continue
	fi
	env --default-signal="$sig" "$SP_SWEEP" "$work/nv.plan" >"$work/stdout" 2>"$work/stderr" &
	case $sig in
	INT) expected=130 ;;
	TERM) expected=143 ;;
	HUP) expected=129 ;;
	esac
	sweep_pid=$!
	wait_for test -s "$SP_FAKE_RUNNER_PIDFILE"
	runner_pid=$(cat "$SP_FAKE_RUNNER_PIDFILE")
	kill -s "$sig" "$sweep_pid"
	wait "$sweep_pid"
	status=$?
	expect_status "$expected" "SIG$sig"
	expect_grep "caught SIG$sig" "$work/stderr" "SIG$sig"
	gone "$runner_pid" || fail "SIG$sig: the runner (pid $runner_pid) still runs"
	restored "SIG$sig"
	unset SP_FAKE_RUNNER_HOLD
	completes "SIG$sig"
done
exit 0
