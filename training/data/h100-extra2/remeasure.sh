#!/bin/sh
# Second pass of training/data/h100-extra2: idle_spin (this session's
# power floor), then the five entries whose times are not monotonic in the
# SM count (the four l2part ones and gsync_n2m_g8: a repeat, to see whether
# the steps come back) and ridge_f64_k40 (held by the power cap at 128 and
# 132 SMs in the first pass), all 13 levels with a 1 s power window.  Run
# from the folder that holds training/.
cd "$(dirname "$0")" || exit 1
PATH=$PATH:/usr/local/cuda/bin:/usr/local/cuda-13.0/bin
export PATH
D=$OUT/remeasure
mkdir -p "$D"
t0=$(date +%s)
log() { echo "remeasure: $* at $(($(date +%s) - t0)) s ($(date -u +%H:%M:%S))" >>"$D/sweep.log"; }
log start
nvidia-smi --query-gpu=name,pci.bus_id,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,power.draw,power.limit,temperature.gpu \
  --format=csv >"$D/env.txt" 2>&1
SP_TIME_LIMIT=200 SP_RUNNER_ARGS="--power-window-ms 1000" \
  SP_KERNELS=idle_spin,l2part_rd_20mb,l2part_rd_36mb,l2part_rd_48mb,l2part_rmw_36mb,gsync_n2m_g8,ridge_f64_k40 \
  sh training/data/h100-sm/collect.sh sweep-each "$D" >>"$D/sweep.log" 2>&1
nvidia-smi --query-gpu=name,pci.bus_id,clocks.sm,clocks.mem,power.draw,temperature.gpu \
  --format=csv >>"$D/env.txt" 2>&1
log end
