#!/bin/sh
# Second pass of training/data/h100-extra: idle_spin (this session's power
# floor), then star3d_25pt (one power reading 24% below both neighbours'),
# lbm_d3q19_f64 and lbm_d3q19 (readings 5-9% above both neighbours') and
# bigblock_norm_b133 (a repeat, for the spread of times between sessions),
# all 13 levels with a 1 s power window.  Run from the folder of training/.
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
  SP_KERNELS=idle_spin,star3d_25pt,lbm_d3q19_f64,lbm_d3q19,bigblock_norm_b133 \
  sh training/data/h100-sm/collect.sh sweep-each "$D" >>"$D/sweep.log" 2>&1
nvidia-smi --query-gpu=name,pci.bus_id,clocks.sm,clocks.mem,power.draw,temperature.gpu \
  --format=csv >>"$D/env.txt" 2>&1
log end
