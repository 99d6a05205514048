#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The AMD backend against the stand-in rocm-smi: DPM levels looked up in
# --showclkfrq, --setsclk/--setmclk, read-back from --showclocks, the CU
# count as HSA_CU_MASK, --resetclocks and the original performance level
# restored; a clock that is no level's frequency gets the nearest level and
# is marked as a mismatch; the overdrive-range method.
. "$(dirname "$0")/lib.sh"

cat >"$work/amd.plan" <<PLAN
backend=amd
cu=1,4
engine_mhz=1000
memory_mhz=475,1375
runs=$work/out/runs.csv
PLAN

export SP_FAKE_PERF=high
run_sweep "$work/amd.plan"
unset SP_FAKE_PERF
expect_status 0 "levels"
runs="--runs $work/out/runs.csv --device 0"
expect_log "levels: the command sequence" <<LOG
rocm-smi -d 0 --showclkfrq
rocm-smi -d 0 --showperflevel
rocm-smi -d 0 --setsclk 3
rocm-smi -d 0 --setmclk 0
rocm-smi -d 0 --showclocks
sp-runner --backend opencl --kernels all --cu 1 --engine-mhz 1000 --memory-mhz 475 $runs [env: HSA_CU_MASK=0:0]
rocm-smi -d 0 --showclocks
sp-runner --backend opencl --kernels all --cu 4 --engine-mhz 1000 --memory-mhz 475 $runs [env: HSA_CU_MASK=0:0-3]
rocm-smi -d 0 --setsclk 3
rocm-smi -d 0 --setmclk 2
rocm-smi -d 0 --showclocks
sp-runner --backend opencl --kernels all --cu 1 --engine-mhz 1000 --memory-mhz 1375 $runs [env: HSA_CU_MASK=0:0]
rocm-smi -d 0 --showclocks
sp-runner --backend opencl --kernels all --cu 4 --engine-mhz 1000 --memory-mhz 1375 $runs [env: HSA_CU_MASK=0:0-3]
rocm-smi -d 0 --resetclocks
rocm-smi -d 0 --setperflevel high
LOG
[ "$(device_state amd)" = "500 1375 high" ] || fail "levels: settings not restored: $(device_state amd)"
expect_rows_once "$work/out/runs.csv" 8 "levels"

run_sweep --list-supported "$work/amd.plan"
expect_file "$work/stdout" "--list-supported" <<OUT
engine_mhz=300,500,700,1000
memory_mhz=475,925,1375
OUT

# 800 MHz is no level: the nearest (700 MHz, level 2) is set, the read-back
# shows 700 and the configurations are marked and skipped.
reset_device
run_sweep --set engine_mhz=800 --set memory_mhz=925 "$work/amd.plan"
expect_status 3 "nearest level"
expect_grep 'no sclk level runs at 800 MHz; using the nearest, level 2' "$work/stderr" "nearest level"
expect_grep '^rocm-smi -d 0 --setsclk 2$' "$SP_FAKE_LOG" "nearest level"
cut -d, -f1-6 "$work/out/sweep-mismatches.csv" >"$work/mismatches"
expect_file "$work/mismatches" "nearest level" <<CSV
cu,engine_requested,memory_requested,engine_read,memory_read,action
1,800,925,700,925,skipped
4,800,925,700,925,skipped
CSV
[ ! -e "$work/out/runs.csv" ] || fail "nearest level: rows recorded for skipped configurations"
expect_grep '^rocm-smi -d 0 --resetclocks$' "$SP_FAKE_LOG" "nearest level"

# Overdrive ranges pin any clock.
reset_device
run_sweep --set amd_clock_method=range --set engine_mhz=850 --set memory_mhz=1000 --set cu=2 "$work/amd.plan"
expect_status 0 "range"
expect_log "range: the command sequence" <<LOG
rocm-smi -d 0 --showclkfrq
rocm-smi -d 0 --showperflevel
rocm-smi -d 0 --autorespond y --setsrange 850 850
rocm-smi -d 0 --autorespond y --setmrange 1000 1000
rocm-smi -d 0 --showclocks
sp-runner --backend opencl --kernels all --cu 2 --engine-mhz 850 --memory-mhz 1000 $runs [env: HSA_CU_MASK=0:0-1]
rocm-smi -d 0 --resetclocks
LOG
[ "$(device_state amd)" = "500 1375 auto" ] || fail "range: settings not restored: $(device_state amd)"
exit 0
