#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The pocl backend with the stand-in runner: the CU count reaches the runner
# as POCL_CPU_MAX_CU_COUNT, no vendor tool is called, the engine clock label
# is read from cpufreq (or /proc/cpuinfo) once, and a plan that asks pocl to
# set clocks, or to read a memory clock, is refused.
. "$(dirname "$0")/lib.sh"

root=$work/root
mkdir -p "$root/sys/devices/system/cpu/cpu0/cpufreq" "$root/proc"
echo 2394000 >"$root/sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq"
export SP_SYSFS_ROOT="$root"

run_sweep --set "runs=$work/out/runs.csv" "$SP_PLANS/pocl-ci.plan"
expect_status 0 "pocl-ci"
rest="--runs $work/out/runs.csv --min-time-ms 5 --device 0"
expect_log "pocl-ci: the calls" <<LOG
sp-runner --list
sp-runner --backend opencl --kernels stream_copy,stream_triad --cu 1 --engine-mhz 2394 --memory-mhz 3200 $rest [env: POCL_CPU_MAX_CU_COUNT=1]
sp-runner --backend opencl --kernels stream_copy,stream_triad --cu 2 --engine-mhz 2394 --memory-mhz 3200 $rest [env: POCL_CPU_MAX_CU_COUNT=2]
LOG
expect_rows_once "$work/out/runs.csv" 4 "pocl-ci"
expect_file "$work/out/sweep-fixed-clocks" "pocl-ci: the labels" <<EOF2
engine_mhz=2394
memory_mhz=3200
EOF2

# Without cpufreq the engine clock comes from /proc/cpuinfo.
reset_device
rm -r "$root/sys"
printf 'processor\t: 0\ncpu MHz\t\t: 2994.374\n' >"$root/proc/cpuinfo"
run_sweep --set "runs=$work/out/runs.csv" --set cu=3 "$SP_PLANS/pocl-ci.plan"
expect_status 0 "cpuinfo"
expect_grep '^sp-runner .* --cu 3 --engine-mhz 2994 --memory-mhz 3200 ' "$SP_FAKE_LOG" "cpuinfo"

# Neither: 'current' cannot be resolved.
reset_device
rm "$root/proc/cpuinfo"
run_sweep --set "runs=$work/out/runs.csv" "$SP_PLANS/pocl-ci.plan"
expect_status 1 "no clock source"
expect_grep "no cpufreq and no 'cpu MHz'" "$work/stderr" "no clock source"

# pocl cannot set clocks, nor read the memory clock.
reset_device
printf 'processor\t: 0\ncpu MHz\t\t: 2994.374\n' >"$root/proc/cpuinfo"
run_sweep --set "runs=$work/out/runs.csv" --set fixed_clocks=no --set engine_mhz=2000 --set memory_mhz=3200 "$SP_PLANS/pocl-ci.plan"
expect_status 1 "clock setting"
expect_grep 'the pocl backend cannot set clocks; use fixed_clocks=yes' "$work/stderr" "clock setting"
run_sweep --set "runs=$work/out/runs.csv" --set engine_mhz=2000 --set memory_mhz=current "$SP_PLANS/pocl-ci.plan"
expect_status 1 "memory clock"
expect_grep 'the pocl backend cannot read a clock back; give engine_mhz and memory_mhz in the plan' "$work/stderr" "memory clock"

# Kernel names are checked against the runner's list before anything runs.
reset_device
run_sweep --set "runs=$work/out/runs.csv" --set engine_mhz=2000 --set kernels=stream_copy,scale "$SP_PLANS/pocl-ci.plan"
expect_status 1 "unknown kernel"
expect_grep "kernel 'scale' is not in 'sp-runner --list'" "$work/stderr" "unknown kernel"
expect_log "unknown kernel" <<LOG
sp-runner --list
LOG
exit 0
