#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# --dry-run prints every command a sweep would run, vendor tools and runner
# alike, in order and quoted for a shell, and runs none of them: the stand-ins'
# call log stays empty and no file is written.  The example plans are
# checked the same way.
. "$(dirname "$0")/lib.sh"
cd "$work" || fail "cannot enter $work"

nothing_ran() { # WHAT
	[ ! -s "$SP_FAKE_LOG" ] || fail "$1: commands ran in a dry run: $(cat "$SP_FAKE_LOG")"
	for path in out training pocl-ci "$SP_FAKE_STATE/nvidia" "$SP_FAKE_STATE/amd"; do
		[ ! -e "$path" ] || fail "$1: a dry run wrote $path"
	done
}

cat >nv.plan <<'PLAN'
backend=nvidia
cu=8,16
engine_mhz=1005,1410
memory_mhz=1593
runs=out/runs.csv
PLAN
run_sweep --dry-run --runner /opt/sp/sp-runner nv.plan
expect_status 0 "nvidia"
nothing_ran "nvidia"
runner="env CUDA_DEVICE_ORDER=PCI_BUS_ID /opt/sp/sp-runner --backend cuda --kernels all"
expect_file stdout "nvidia: the listing" <<OUT
nvidia-smi -i 0 --query-supported-clocks=memory,graphics --format=csv,noheader,nounits
nvidia-smi -i 0 --query-gpu=clocks.sm,clocks.mem,clocks.applications.graphics,clocks.applications.memory --format=csv,noheader,nounits
nvidia-smi -i 0 -lgc 1005,1005
nvidia-smi -i 0 -lmc 1593,1593
nvidia-smi -i 0 --query-gpu=clocks.sm,clocks.mem --format=csv,noheader,nounits
$runner --cu 8 --engine-mhz 1005 --memory-mhz 1593 --runs out/runs.csv --device 0
nvidia-smi -i 0 --query-gpu=clocks.sm,clocks.mem --format=csv,noheader,nounits
$runner --cu 16 --engine-mhz 1005 --memory-mhz 1593 --runs out/runs.csv --device 0
nvidia-smi -i 0 -lgc 1410,1410
nvidia-smi -i 0 -lmc 1593,1593
nvidia-smi -i 0 --query-gpu=clocks.sm,clocks.mem --format=csv,noheader,nounits
$runner --cu 8 --engine-mhz 1410 --memory-mhz 1593 --runs out/runs.csv --device 0
nvidia-smi -i 0 --query-gpu=clocks.sm,clocks.mem --format=csv,noheader,nounits
$runner --cu 16 --engine-mhz 1410 --memory-mhz 1593 --runs out/runs.csv --device 0
nvidia-smi -i 0 -rgc
nvidia-smi -i 0 -rmc
OUT

# Words that need it are quoted, so the listing can be pasted into a shell.
run_sweep -n --set cu=8 --set engine_mhz=1005 --set "runs=my runs/it's.csv" nv.plan
expect_status 0 "quoting"
expect_grep " --runs 'my runs/it'\\\\''s.csv' --device 0\$" stdout "quoting"
[ ! -e "my runs" ] || fail "quoting: a dry run wrote files"

# AMD: the DPM levels are unknown without the query, so placeholders show
# where they go.
cat >amd.plan <<'PLAN'
backend=amd
cu=4
engine_mhz=1000
memory_mhz=1375
runs=out/runs.csv
PLAN
run_sweep --dry-run amd.plan
expect_status 0 "amd"
nothing_ran "amd"
expect_file stdout "amd: the listing" <<'OUT'
rocm-smi -d 0 --showclkfrq
rocm-smi -d 0 --showperflevel
rocm-smi -d 0 --setsclk '<sclk-level-of-1000MHz>'
rocm-smi -d 0 --setmclk '<mclk-level-of-1375MHz>'
rocm-smi -d 0 --showclocks
env HSA_CU_MASK=0:0-3 sp-runner --backend opencl --kernels all --cu 4 --engine-mhz 1000 --memory-mhz 1375 --runs out/runs.csv --device 0
rocm-smi -d 0 --resetclocks
OUT

# The example plans.  hd7970-like: 8 x 8 x 7 configurations, 56 clock pairs.
run_sweep --dry-run "$SP_PLANS/hd7970-like.plan"
expect_status 0 "hd7970-like"
nothing_ran "hd7970-like"
[ "$(grep -c ' sp-runner ' stdout)" -eq 448 ] || fail "hd7970-like: $(grep -c ' sp-runner ' stdout) runner calls, expected 448"
[ "$(grep -c -- '--setsrange' stdout)" -eq 56 ] || fail "hd7970-like: expected 56 engine clock settings"
[ "$(tail -n 1 stdout)" = "rocm-smi -d 0 --resetclocks" ] || fail "hd7970-like: the listing does not end with the restore"

# h100-sm: 17 SM levels, clocks never touched: only read-backs and runs.
run_sweep --dry-run "$SP_PLANS/h100-sm.plan"
expect_status 0 "h100-sm"
nothing_ran "h100-sm"
runner='env CUDA_DEVICE_ORDER=PCI_BUS_ID sp-runner --backend cuda'
[ "$(grep -c "^$runner " stdout)" -eq 17 ] || fail "h100-sm: expected 17 runner calls"
expect_grep "^$runner --kernels all --cu 132 --engine-mhz 1980 --memory-mhz 2619 " stdout "h100-sm"
[ "$(grep -c '^nvidia-smi -i 0 --query-gpu=clocks.sm,clocks.mem --format=csv,noheader,nounits$' stdout)" -eq 17 ] ||
	fail "h100-sm: expected one read-back per configuration"
[ "$(grep -c -v -e "^$runner " -e '^nvidia-smi -i 0 --query-gpu=' stdout)" -eq 0 ] ||
	fail "h100-sm: the listing has commands other than read-backs and runs"

# pocl-ci: 2 CU levels through POCL_CPU_MAX_CU_COUNT.
run_sweep --dry-run "$SP_PLANS/pocl-ci.plan"
expect_status 0 "pocl-ci"
nothing_ran "pocl-ci"
expect_grep '^env POCL_CPU_MAX_CU_COUNT=1 sp-runner --backend opencl --kernels stream_copy,stream_triad --cu 1 ' stdout "pocl-ci"
expect_grep '^env POCL_CPU_MAX_CU_COUNT=2 sp-runner --backend opencl --kernels stream_copy,stream_triad --cu 2 ' stdout "pocl-ci"
exit 0
