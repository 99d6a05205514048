#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The NVIDIA backend against the stand-in nvidia-smi: the exact sequence of
# queries, locks, read-backs, runner calls and the final reset; the rows and
# the sweep log; a finished sweep run again measures nothing and changes
# nothing; --list-supported prints plan syntax.
. "$(dirname "$0")/lib.sh"

# The runner is found through --runner, then SP_RUNNER, then PATH.
ln -s "$tests_dir/bin/sp-runner" "$work/option-runner"
ln -s "$tests_dir/bin/sp-runner" "$work/env-runner"
export SP_RUNNER="$work/env-runner"
write_nvidia_plan "$work/nv.plan" meta="$work/out/meta.txt" min_time_ms=2.5
run_sweep --runner "$work/option-runner" "$work/nv.plan"
expect_status 0 "sweep"
runner_args="--runs $work/out/runs.csv --meta $work/out/meta.txt --min-time-ms 2.5 --device 0 [env: CUDA_DEVICE_ORDER=PCI_BUS_ID]"
expect_log "the command sequence" <<LOG
nvidia-smi -i 0 --query-supported-clocks=memory,graphics --format=csv,noheader,nounits
nvidia-smi -i 0 --query-gpu=clocks.sm,clocks.mem,clocks.applications.graphics,clocks.applications.memory --format=csv,noheader,nounits
nvidia-smi -i 0 -lgc 1005,1005
nvidia-smi -i 0 -lmc 1593,1593
nvidia-smi -i 0 --query-gpu=clocks.sm,clocks.mem --format=csv,noheader,nounits
option-runner --backend cuda --kernels all --cu 8 --engine-mhz 1005 --memory-mhz 1593 $runner_args
nvidia-smi -i 0 --query-gpu=clocks.sm,clocks.mem --format=csv,noheader,nounits
option-runner --backend cuda --kernels all --cu 16 --engine-mhz 1005 --memory-mhz 1593 $runner_args
nvidia-smi -i 0 -lgc 1410,1410
nvidia-smi -i 0 -lmc 1593,1593
nvidia-smi -i 0 --query-gpu=clocks.sm,clocks.mem --format=csv,noheader,nounits
option-runner --backend cuda --kernels all --cu 8 --engine-mhz 1410 --memory-mhz 1593 $runner_args
nvidia-smi -i 0 --query-gpu=clocks.sm,clocks.mem --format=csv,noheader,nounits
option-runner --backend cuda --kernels all --cu 16 --engine-mhz 1410 --memory-mhz 1593 $runner_args
nvidia-smi -i 0 -rgc
nvidia-smi -i 0 -rmc
LOG
expect_file "$work/out/runs.csv" "the runs" <<CSV
kernel,cu,engine_mhz,memory_mhz,time_ms,power_w
stream_copy,8,1005,1593,2.385,71.25
stream_triad,8,1005,1593,2.385,71.25
stream_copy,16,1005,1593,2.385,71.25
stream_triad,16,1005,1593,2.385,71.25
stream_copy,8,1410,1593,2.385,71.25
stream_triad,8,1410,1593,2.385,71.25
stream_copy,16,1410,1593,2.385,71.25
stream_triad,16,1410,1593,2.385,71.25
CSV
cut -d, -f1-6 "$work/out/sweep-log.csv" >"$work/log-head"
expect_file "$work/log-head" "the sweep log" <<CSV
cu,engine_mhz,memory_mhz,engine_read,memory_read,status
8,1005,1593,1005,1593,ok
16,1005,1593,1005,1593,ok
8,1410,1593,1410,1593,ok
16,1410,1593,1410,1593,ok
CSV
[ "$(device_state nvidia)" = "1410 1593" ] || fail "clocks not back to their defaults: $(device_state nvidia)"
[ ! -e "$work/out/sweep-mismatches.csv" ] || fail "a mismatch file without mismatches"
[ ! -e "$work/out/sweep-original" ] || fail "the saved original settings outlived the restore"
[ ! -e "$work/out/sweep.lock" ] || fail "the lock outlived the sweep"
expect_grep '\[4/4\] cu=16 engine=1410 MHz memory=1593 MHz' "$work/stderr" "progress"
expect_grep 'ETA' "$work/stderr" "progress"

# Everything is measured: a second run queries, then neither locks nor resets.
: >"$SP_FAKE_LOG"
run_sweep "$work/nv.plan"
expect_status 0 "the second sweep"
expect_log "the second sweep" <<LOG
nvidia-smi -i 0 --query-supported-clocks=memory,graphics --format=csv,noheader,nounits
nvidia-smi -i 0 --query-gpu=clocks.sm,clocks.mem,clocks.applications.graphics,clocks.applications.memory --format=csv,noheader,nounits
LOG
expect_grep '4 of 4 configurations already measured' "$work/stderr" "the second sweep"
expect_rows_once "$work/out/runs.csv" 8 "the second sweep"

# A device index reaches nvidia-smi -i and the runner's --device.
reset_device
run_sweep --set device=2 --set cu=8 --set engine_mhz=1005 "$work/nv.plan"
expect_status 0 "device 2"
expect_grep '^nvidia-smi -i 2 -lgc 1005,1005$' "$SP_FAKE_LOG" "device 2"
expect_grep '^env-runner .* --device 2 ' "$SP_FAKE_LOG" "device 2: SP_RUNNER"
unset SP_RUNNER

# --list-supported prints what the device offers, in plan syntax.
: >"$SP_FAKE_LOG"
run_sweep --list-supported "$work/nv.plan"
expect_status 0 "--list-supported"
expect_file "$work/stdout" "--list-supported" <<OUT
engine_mhz=1410,1200,1005,810
memory_mhz=1593
OUT

# A request that is not in the supported list is warned about up front.
reset_device
run_sweep --set engine_mhz=1111 --set cu=8 "$work/nv.plan"
expect_grep 'engine=1111 MHz memory=1593 MHz is not in the supported list' "$work/stderr" "unsupported clock"
exit 0
