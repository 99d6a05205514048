#!/bin/sh
# The measurement of training/data/h100-extra: environment and SM probe,
# idle_spin (this session's power floor) then the new kernels at the 13 SM
# levels with power (collect.sh sweep-each), then their counters at 132 and
# 64 SMs (collect.sh counters).  Run from the folder that holds training/.
cd "$(dirname "$0")" || exit 1
PATH=$PATH:/usr/local/cuda/bin:/usr/local/cuda-13.0/bin
export PATH
D=$OUT/h100-extra
mkdir -p "$D"
t0=$(date +%s)
log() { echo "measure: $* at $(($(date +%s) - t0)) s ($(date -u +%H:%M:%S))" >>"$D/sweep.log"; }
log start
sh training/data/h100-sm/collect.sh probe "$D"
log "probe done"
SP_KERNELS=idle_spin sh training/data/h100-sm/collect.sh sweep-each "$D" >>"$D/sweep.log" 2>&1
log "idle_spin done"
SP_TIME_LIMIT=${SWEEP_LIMIT:-330} SP_KERNELS=$(cat kernels.txt) \
  sh training/data/h100-sm/collect.sh sweep-each "$D" >>"$D/sweep.log" 2>&1
log "sweep done"
SP_KERNELS=$(cat kernels.txt) timeout -s TERM "${COUNTERS_LIMIT:-180}" \
  sh training/data/h100-sm/collect.sh counters "$D" >>"$D/sweep.log" 2>&1
log counters done, status $?
nvidia-smi --query-gpu=name,pci.bus_id,clocks.sm,clocks.mem,power.draw,temperature.gpu \
  --format=csv >>"$D/env.txt" 2>&1
tar czf "$OUT/ncu.tar.gz" -C "$D" ncu && rm -rf "$D/ncu"
log end
