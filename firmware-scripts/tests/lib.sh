# SPDX-License-Identifier: GPL-3.0-or-later
# Shared set-up for the sweep tests (sourced).  Each test gets a scratch
# directory, the stand-in nvidia-smi, rocm-smi and sp-runner first on PATH,
# a log of every call they receive, and a few assertions.
# shellcheck shell=sh

set -u
test_name=$(basename "$0" .sh)
tests_dir=$(cd "$(dirname "$0")" && pwd)
: "${SP_SWEEP:=$tests_dir/../sp-sweep}"
: "${SP_SWEEP_BACKENDS:=$tests_dir/../backends}"
: "${SP_PLANS:=$tests_dir/../plans}"
: "${SP_MERGE:=$tests_dir/../sp-merge}"
[ -x "$SP_SWEEP" ] || {
	echo "$test_name: no sp-sweep at $SP_SWEEP; run 'make' first" >&2
	exit 99
}

work=$(mktemp -d "${TMPDIR:-/tmp}/sp-sweep-$test_name.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
PATH=$tests_dir/bin:$PATH
SP_FAKE_LOG=$work/calls.log
SP_FAKE_STATE=$work/device
export PATH SP_SWEEP_BACKENDS SP_FAKE_LOG SP_FAKE_STATE
unset SP_RUNNER SP_FAKE_MAX_SM SP_FAKE_REFUSE_LOCK SP_FAKE_PERF \
	SP_FAKE_RUNNER_SLEEP SP_FAKE_RUNNER_FAIL_CU SP_FAKE_RUNNER_PIDFILE \
	SP_FAKE_RUNNER_HOLD SP_FAKE_JOB_ID SLURM_JOB_ID SLURM_ARRAY_TASK_ID SLURM_RESTART_COUNT
mkdir "$SP_FAKE_STATE"
: >"$SP_FAKE_LOG"

fail() {
	printf '%s: FAIL: %s\n' "$test_name" "$*" >&2
	if [ -s "$work/stderr" ]; then
		echo "--- the last sweep's stderr:" >&2
		cat "$work/stderr" >&2
	fi
	exit 1
}

# Start afresh: no device state, no calls logged, no outputs.
reset_device() {
	rm -rf "$SP_FAKE_STATE" "$work/out"
	mkdir "$SP_FAKE_STATE"
	: >"$SP_FAKE_LOG"
}

# run_sweep ARG...: run sp-sweep, keeping stdout and stderr in $work; sets
# $status.
run_sweep() {
	"$SP_SWEEP" "$@" >"$work/stdout" 2>"$work/stderr"
	status=$?
}

# run_merge ARG...: run sp-merge the same way.
run_merge() {
	"$SP_MERGE" "$@" >"$work/stdout" 2>"$work/stderr"
	status=$?
}

expect_status() { # EXPECTED WHAT
	[ "$status" -eq "$1" ] || fail "$2: exit status $status, expected $1"
}

# expect_file FILE WHAT: FILE must equal the standard input.
expect_file() {
	cat >"$work/expected"
	[ -f "$1" ] || fail "$2: $1 does not exist"
	diff -u "$work/expected" "$1" >&2 || fail "$2: $1 differs from the expectation (diff above)"
}

expect_log() { # WHAT
	expect_file "$SP_FAKE_LOG" "$1"
}

expect_grep() { # PATTERN FILE WHAT
	grep -q -- "$1" "$2" || fail "$3: no '$1' in $2"
}

expect_no_grep() { # PATTERN FILE WHAT
	grep -q -- "$1" "$2"
	case $? in
	0) fail "$3: unexpected '$1' in $2" ;;
	1) ;;
	*) fail "$3: cannot search $2" ;;
	esac
}

# The device's fake clocks: "SM MEMORY" for nvidia, "SCLK MCLK PERF" for amd.
device_state() { # nvidia|amd
	cat "$SP_FAKE_STATE/$1" 2>/dev/null
}

# Every data row of a runs file must be there exactly once: no duplicate
# (kernel, cu, engine, memory) and the expected number of rows.
expect_rows_once() { # RUNS COUNT WHAT
	[ "$(head -n 1 "$1")" = kernel,cu,engine_mhz,memory_mhz,time_ms,power_w ] ||
		fail "$3: bad header in $1"
	[ "$(grep -c '^kernel,' "$1")" -eq 1 ] || fail "$3: more than one header in $1"
	dups=$(tail -n +2 "$1" | cut -d, -f1-4 | sort | uniq -d)
	[ -z "$dups" ] || fail "$3: rows measured twice: $dups"
	rows=$(($(wc -l <"$1") - 1))
	[ "$rows" -eq "$2" ] || fail "$3: $rows rows in $1, expected $2"
}

# gone PID: the process ended (a zombie that nobody reaps has ended).
gone() {
	! kill -0 "$1" 2>/dev/null && return 0
	[ -r "/proc/$1/stat" ] && [ "$(sed 's/.*) //' "/proc/$1/stat" | cut -d' ' -f1)" = Z ]
}

# wait_for TEST...: poll until the test command succeeds (10 s at most).
wait_for() {
	tries=0
	until "$@"; do
		tries=$((tries + 1))
		[ "$tries" -lt 200 ] || fail "timed out waiting for: $*"
		sleep 0.05
	done
}

# A grid small enough to read: 2 CU levels x 2 engine clocks x 1 memory clock.
write_nvidia_plan() { # FILE [EXTRA LINE...]
	plan=$1
	shift
	cat >"$plan" <<PLAN
# test plan
backend=nvidia
cu=8,16
engine_mhz=1005,1410
memory_mhz=1593
kernels=all
runs=$work/out/runs.csv
PLAN
	for line; do
		printf '%s\n' "$line" >>"$plan"
	done
}
