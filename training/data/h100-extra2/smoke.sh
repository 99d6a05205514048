#!/bin/sh
# First call of training/data/h100-extra2: every new entry once checked and
# briefly timed at 132, 64 and 8 SMs (no power, short windows), to find a
# failing check or a launch of the wrong length before the measurement.
# The rows are not data.  Run from the folder that holds training/.
cd "$(dirname "$0")" || exit 1
D=$OUT/smoke
mkdir -p "$D"
nvidia-smi --query-gpu=name,pci.bus_id,driver_version,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,power.draw,power.limit,temperature.gpu \
  --format=csv >"$D/env.txt" 2>&1
timeout -s TERM 240 training/runner/sp-runner --backend cuda --kernel-dir training/kernels \
  --validation-dir training/validation --validation2-dir training/validation2 \
  --kernels "$(cat kernels.txt)" --cu 132,64,8 --engine-mhz auto --memory-mhz auto \
  --runs "$D/runs.csv" --detail "$D/details.csv" --min-time-ms 20 --power-window-ms 0 \
  --warmup-ms 5 --power none >"$D/log.txt" 2>&1
echo "sp-runner exit status $?" >>"$D/log.txt"
