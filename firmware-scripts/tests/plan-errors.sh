#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Every way a sweep refuses to start says why, exits 1 and runs nothing:
# bad command lines, plan syntax (with file and line), missing or malformed
# keys, unknown backends, a missing runner or vendor tool, a lock held by a
# live sweep, and unreadable answers from the device.
. "$(dirname "$0")/lib.sh"

# refused MESSAGE ARG...: sp-sweep ARG... must exit 1 with MESSAGE on stderr
# and call nothing.
refused() {
	message=$1
	shift
	: >"$SP_FAKE_LOG"
	run_sweep "$@"
	expect_status 1 "$message"
	grep -qF -- "$message" "$work/stderr" || fail "no '$message' in: $(cat "$work/stderr")"
	[ ! -s "$SP_FAKE_LOG" ] || fail "$message: commands ran: $(cat "$SP_FAKE_LOG")"
}

# plan_with LINE...: a good plan with LINEs appended (or, for KEY=, removed).
plan_with() {
	good="backend=nvidia
cu=8,16
engine_mhz=1005
memory_mhz=1593
runs=$work/out/runs.csv"
	for line; do
		case $line in
		*=) good=$(printf '%s\n' "$good" | grep -v "^$line") ;;
		*) good="$good
$line" ;;
		esac
	done
	printf '%s\n' "$good" >"$work/p.plan"
}

refused "expected one plan file"
refused "unknown option '--bogus'" --bogus "$work/p.plan"
refused "--runner needs a path" --runner
refused "--set needs KEY=VALUE" --set
refused "cannot read plan '$work/none.plan'" "$work/none.plan"
plan_with
refused "--set wants KEY=VALUE, got 'cu'" --set cu "$work/p.plan"
refused "--set foo=1: unknown key 'foo'" --set foo=1 "$work/p.plan"
refused "--restore and --fixed-clocks contradict each other" --restore --fixed-clocks "$work/p.plan"

printf '# comment\nbackend=nvidia\ncu 8\n' >"$work/p.plan"
refused "$work/p.plan:3: expected KEY=VALUE, got 'cu 8'" "$work/p.plan"
printf 'backend=nvidia\nengine = 1000  # spaces and comments are fine\n' >"$work/p.plan"
refused "$work/p.plan:2: unknown key 'engine'" "$work/p.plan"
printf 'backend=nvidia\ncu=8\n\ncu=16\n' >"$work/p.plan"
refused "$work/p.plan:4: key 'cu' already set on line 2" "$work/p.plan"

plan_with backend=
refused "$work/p.plan: missing key 'backend'" "$work/p.plan"
plan_with runs=
refused "$work/p.plan: missing key 'runs'" "$work/p.plan"
plan_with cu=
refused "$work/p.plan: missing key 'cu'" "$work/p.plan"
plan_with
refused "bad backend name 'NVIDIA!'" --set 'backend=NVIDIA!' "$work/p.plan"
refused "unknown backend 'intel'" --set backend=intel "$work/p.plan"
refused "'cu' wants positive integers, got 'x'" --set cu=8,x "$work/p.plan"
refused "'cu' wants positive integers, got '08'" --set cu=08 "$work/p.plan"
refused "'cu' wants positive integers, got '0'" --set cu=0,8 "$work/p.plan"
refused "'cu' lists 8 twice" --set cu=8,16,8 "$work/p.plan"
refused "'engine_mhz' is empty" --set engine_mhz= "$work/p.plan"
refused "'fixed_clocks' must be one of: yes no; got 'maybe'" --set fixed_clocks=maybe "$work/p.plan"
refused "'on_mismatch' must be one of: skip readback; got 'ignore'" --set on_mismatch=ignore "$work/p.plan"
refused "'amd_clock_method' must be one of: levels range; got 'magic'" --set amd_clock_method=magic "$work/p.plan"
refused "'runner_backend' must be one of: cuda opencl; got 'hip'" --set runner_backend=hip "$work/p.plan"
refused "'kernels' must be 'all' or a comma-separated list of names, got 'copy,,triad'" --set kernels=copy,,triad "$work/p.plan"
refused "'min_time_ms' must be a number of milliseconds, got '1.5.2'" --set min_time_ms=1.5.2 "$work/p.plan"
refused "'device' must be an index (0, 1, ...), got '-1'" --set device=-1 "$work/p.plan"
refused "'tolerance_mhz' must be a whole number of MHz, got '1.5'" --set tolerance_mhz=1.5 "$work/p.plan"
refused "runner '$work/no-runner' not found" --runner "$work/no-runner" "$work/p.plan"
refused "cannot create '/proc/no/such'" --set runs=/proc/no/such/runs.csv "$work/p.plan"

# A live sweep holds the lock.
mkdir -p "$work/out/sweep.lock"
echo "$$" >"$work/out/sweep.lock/pids"
refused "another sweep or its runner (pid $$) is still using $work/out" "$work/p.plan"
rm -r "$work/out/sweep.lock"

# The vendor tools are missing.
mkdir "$work/bare"
ln -s "$tests_dir/bin/sp-runner" "$work/bare/sp-runner"
saved_path=$PATH
PATH=$work/bare:/usr/bin:/bin
command -v nvidia-smi >/dev/null || refused "nvidia-smi not found" "$work/p.plan"
command -v rocm-smi >/dev/null || refused "rocm-smi not found" --set backend=amd "$work/p.plan"
PATH=$saved_path

# The device answers what the sweep cannot read.  These fail after the
# first queries, so only the status and the message are checked.
unreadable() { # MESSAGE ARG...
	message=$1
	shift
	run_sweep "$@"
	expect_status 1 "$message"
	grep -qF -- "$message" "$work/stderr" || fail "no '$message' in: $(cat "$work/stderr")"
}
mkdir "$work/backends"
cat >"$work/backends/garbled.sh" <<'EOF2'
# shellcheck shell=sh
. "$SP_SWEEP_BACKENDS_REAL/nvidia.sh"
backend_read_back() { echo 'fast slow'; }
EOF2
env SP_SWEEP_BACKENDS_REAL="$SP_SWEEP_BACKENDS" SP_SWEEP_BACKENDS="$work/backends" \
	"$SP_SWEEP" --set backend=garbled "$work/p.plan" >"$work/stdout" 2>"$work/stderr"
status=$?
expect_status 1 "garbled read-back"
expect_grep "the backend read back 'fast slow', expected 'ENGINE MEMORY' in MHz" "$work/stderr" "garbled read-back"
[ "$(device_state nvidia)" = "1410 1593" ] || fail "garbled read-back: clocks not restored"

mkdir "$work/odd-bin"
cat >"$work/odd-bin/rocm-smi" <<'EOF2'
#!/bin/sh
# rocm-smi that lists levels but prints clocks in a format nobody knows.
case " $* " in
*" --showclocks "*) echo "GPU[0] : sclk 1000"; exit 0 ;;
*" --showclkfrq "*) [ -n "${ODD_NO_LEVELS:-}" ] && exit 0 ;;
esac
PATH=$SP_TEST_BIN exec rocm-smi "$@"
EOF2
chmod +x "$work/odd-bin/rocm-smi"
export SP_TEST_BIN="$tests_dir/bin"
PATH=$work/odd-bin:$PATH
unreadable "no sclk or mclk clock level in the rocm-smi --showclocks output" --set backend=amd --set engine_mhz=1000 --set memory_mhz=1375 "$work/p.plan"
export ODD_NO_LEVELS=1
unreadable "rocm-smi --showclkfrq listed no sclk or mclk levels" --set backend=amd --set engine_mhz=1000 --set memory_mhz=1375 "$work/p.plan"
exit 0
