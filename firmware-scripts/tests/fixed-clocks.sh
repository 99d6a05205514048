#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Fixed-clocks mode (--fixed-clocks or fixed_clocks=yes) sweeps CU counts and
# never runs a command that changes a clock: no lock, no reset, not even at
# exit.  The plan's clocks label the rows; 'current' labels are read once and
# kept for resumed sweeps; a faulty backend that tries to set a clock is
# stopped.
. "$(dirname "$0")/lib.sh"

only_reads() { # WHAT: nvidia-smi and rocm-smi were only asked to show things
	if grep -v -e '^sp-runner ' -e '^nvidia-smi -i 0 --query-gpu=' -e '^rocm-smi -d 0 --show' "$SP_FAKE_LOG" >"$work/other"; then
		fail "$1: commands other than queries and runs: $(cat "$work/other")"
	fi
}

write_nvidia_plan "$work/nv.plan"
run_sweep --fixed-clocks --set engine_mhz=1980 --set memory_mhz=2619 "$work/nv.plan"
expect_status 0 "--fixed-clocks"
runner="sp-runner --backend cuda --kernels all"
rest="--runs $work/out/runs.csv --device 0 [env: CUDA_DEVICE_ORDER=PCI_BUS_ID]"
expect_log "--fixed-clocks: the command sequence" <<LOG
nvidia-smi -i 0 --query-gpu=clocks.sm,clocks.mem --format=csv,noheader,nounits
$runner --cu 8 --engine-mhz 1980 --memory-mhz 2619 $rest
nvidia-smi -i 0 --query-gpu=clocks.sm,clocks.mem --format=csv,noheader,nounits
$runner --cu 16 --engine-mhz 1980 --memory-mhz 2619 $rest
LOG
[ ! -e "$SP_FAKE_STATE/nvidia" ] || [ "$(device_state nvidia)" = "1410 1593" ] || fail "--fixed-clocks: clocks changed"
[ ! -e "$work/out/sweep-mismatches.csv" ] || fail "--fixed-clocks: labels are not requests, nothing to mark"
[ ! -e "$work/out/sweep-original" ] || fail "--fixed-clocks: saved settings though it changed none"
expect_grep '^16,1980,2619,1410,1593,ok,' "$work/out/sweep-log.csv" "--fixed-clocks: the read-back is logged"

# Fixed clocks take one value per clock.
reset_device
run_sweep --fixed-clocks "$work/nv.plan"
expect_status 1 "--fixed-clocks with clock lists"
expect_grep "with fixed clocks 'engine_mhz' must be one integer or 'current', got '1005,1410'" "$work/stderr" "--fixed-clocks with clock lists"
[ ! -s "$SP_FAKE_LOG" ] || fail "--fixed-clocks with clock lists: commands ran"

# The H100 plan as it stands, with its 17 SM levels.
reset_device
run_sweep --set "runs=$work/out/runs.csv" --set meta= "$SP_PLANS/h100-sm.plan"
expect_status 0 "h100-sm"
only_reads "h100-sm"
expect_rows_once "$work/out/runs.csv" 34 "h100-sm"
[ "$(grep -c ',1980,2619,' "$work/out/runs.csv")" -eq 34 ] || fail "h100-sm: rows not labelled 1980/2619 MHz"

# 'current' labels are read back once and kept, so that a resumed sweep
# labels its rows the same way even after the clocks moved.
reset_device
echo "1200 1593" >"$SP_FAKE_STATE/nvidia"
run_sweep --fixed-clocks --set engine_mhz=current --set memory_mhz=current --set cu=8 "$work/nv.plan"
expect_status 0 "current labels"
expect_file "$work/out/sweep-fixed-clocks" "current labels" <<EOF2
engine_mhz=1200
memory_mhz=1593
EOF2
echo "1005 1593" >"$SP_FAKE_STATE/nvidia"
run_sweep --fixed-clocks --set engine_mhz=current --set memory_mhz=current --set cu=8,16 "$work/nv.plan"
expect_status 0 "current labels, resumed"
only_reads "current labels"
expect_rows_once "$work/out/runs.csv" 4 "current labels"
[ "$(grep -c ',1200,1593,' "$work/out/runs.csv")" -eq 4 ] || fail "current labels: rows not all labelled 1200/1593"

# AMD in fixed-clocks mode: read-backs and HSA_CU_MASK only.
reset_device
cat >"$work/amd.plan" <<PLAN
backend=amd
fixed_clocks=yes
cu=2,6
engine_mhz=925
memory_mhz=1375
runs=$work/out/runs.csv
PLAN
run_sweep "$work/amd.plan"
expect_status 0 "amd"
only_reads "amd"
expect_grep 'HSA_CU_MASK=0:0-5\]$' "$SP_FAKE_LOG" "amd"
[ ! -e "$SP_FAKE_STATE/amd" ] || [ "$(device_state amd)" = "500 1375 auto" ] || fail "amd: settings changed"

# A faulty backend that sets a clock while reading back is stopped before
# the command runs.
reset_device
mkdir "$work/backends"
cat >"$work/backends/faulty.sh" <<'EOF2'
# shellcheck shell=sh
. "$SP_SWEEP_BACKENDS_REAL/nvidia.sh"
backend_read_back() {
	nvidia_set -lgc 810,810
}
EOF2
env SP_SWEEP_BACKENDS_REAL="$SP_SWEEP_BACKENDS" SP_SWEEP_BACKENDS="$work/backends" "$SP_SWEEP" \
	--fixed-clocks --set backend=faulty --set engine_mhz=1980 --set memory_mhz=2619 "$work/nv.plan" \
	>"$work/stdout" 2>"$work/stderr"
status=$?
expect_status 1 "faulty backend"
expect_grep 'refusing to run a setting command in fixed-clocks mode: nvidia-smi -i 0 -lgc 810,810' "$work/stderr" "faulty backend"
only_reads "faulty backend"

# Settings left changed by a killed clock-setting sweep are not silently
# kept: fixed-clocks mode stops and points to --restore.
reset_device
mkdir -p "$work/out"
echo "sm_mhz=1410" >"$work/out/sweep-original"
run_sweep --fixed-clocks --set engine_mhz=1980 --set memory_mhz=2619 "$work/nv.plan"
expect_status 1 "leftover settings"
expect_grep "run 'sp-sweep --restore' with the plan that changed them first" "$work/stderr" "leftover settings"
[ ! -s "$SP_FAKE_LOG" ] || fail "leftover settings: commands ran"
exit 0
