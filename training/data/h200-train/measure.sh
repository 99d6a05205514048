#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# measure.sh: one device call of the H200 collection of the training set
# (issue 28).  Run on the device, from the repository root, with
# training/runner/sp-runner built (carried):
#
#   sh training/data/h200-train/measure.sh sweep SECONDS
#   sh training/data/h200-train/measure.sh counters SECONDS [BASES]
#
# sweep: the card's environment (name, UUID, clocks, driver), idle_spin at
#   the 13 SM levels (this call's power floor), then the entries of
#   order.txt that this folder's runs.csv lacks, one runner process each
#   (training/data/h100-sm/collect.sh sweep-each), until SECONDS have
#   passed since the call began.  Entries come in order.txt's order: one of
#   every family first, then a second of every family that has one, ...
# counters: Nsight Compute counters (--clock-control none) at BASES (default
#   "132") for the entries of runs.csv that counters.csv lacks at that base,
#   until SECONDS have passed.
#
# Resumable across calls and machines: the call starts from this folder's
# runs.csv, details.csv, metadata.txt and counters.csv (whatever the last
# call brought back and ingest.sh put here) and writes everything, old rows
# and new, into $OUT/call.tar.gz; ingest.sh unpacks it here on the
# development machine.  Several invocations in one call chain through
# $OUT/w (sweep, then counters: the last archive holds both):
#
#   sh training/data/h200-train/measure.sh sweep 400 &&
#     sh training/data/h200-train/measure.sh counters 150 "132 64"
#
# A call on a card that is not an H200 measures nothing (SP_CARD_OK=1 overrides, for a dry run): H100 rows must never be
# labelled H200 rows.  Nothing here changes a GPU setting.
set -u
phase=${1:?usage: measure.sh sweep|counters SECONDS [BASES]}
limit=${2:?usage: measure.sh sweep|counters SECONDS [BASES]}
here=training/data/h200-train
t0=$(date +%s)
stamp=$(date -u +%Y%m%dT%H%M%SZ)
PATH=$PATH:/usr/local/cuda/bin:/usr/local/cuda-13.0/bin
export PATH
out=${OUT:?measure.sh: OUT is not set}
w=$out/w
mkdir -p "$w/sessions"
log() { echo "measure.sh $phase: $* at $(($(date +%s) - t0)) s ($(date -u +%H:%M:%S))" | tee -a "$w/call-log.txt"; }

# A second invocation in the same call (sweep, then counters) goes on from
# what the first wrote under $OUT/w: a file is taken from this folder only
# when the call has none yet.
for f in runs.csv details.csv metadata.txt counters.csv call-log.txt sweep-log.txt counters-log.txt; do
  [ -f "$here/$f" ] && [ ! -f "$w/$f" ] && cp "$here/$f" "$w/$f"
done
log "start $stamp"

name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
uuid=$(nvidia-smi --query-gpu=uuid --format=csv,noheader | head -1)
{
  echo "[$stamp $phase]"
  nvidia-smi --query-gpu=name,uuid,pci.bus_id,driver_version,memory.total,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,power.draw,power.limit,temperature.gpu --format=csv
  ncu --version 2>&1 | tail -1
  uname -r
} >"$w/sessions/env-$stamp.txt" 2>&1
log "card: $name ($uuid)"
case $name in
*H200*) ;;
*)
  if [ "${SP_CARD_OK:-0}" != 1 ]; then
    log "not an H200: nothing measured"
    tar czf "$out/call.tar.gz" -C "$w" .
    exit 3
  fi
  ;;
esac

pack() {
  log "end"
  tar czf "$out/call.tar.gz" -C "$w" .
  n=$(($(wc -l <"$w/runs.csv") - 1))
  k=$(tail -n +2 "$w/runs.csv" | cut -d, -f1 | sort -u | wc -l)
  echo "runs.csv: $n rows, $k entries"
}

case $phase in
sweep)
  mkdir -p "$w/sessions/idle-$stamp"
  # SP_SUITE=all: with "train" collect.sh would start the folder from the
  # H100 suite's runs.csv, find idle_spin there and measure nothing.
  SP_SUITE=all SP_KERNELS=idle_spin sh training/data/h100-sm/collect.sh sweep-each \
    "$w/sessions/idle-$stamp" >"$w/sessions/idle-$stamp/log.txt" 2>&1
  log "idle floor done"
  left=$((limit - ($(date +%s) - t0)))
  # One sweep-each over the names still missing: collect.sh skips an entry
  # whose 13 rows are all in runs.csv and stops starting entries at SP_TIME_LIMIT.
  SP_SUITE=all SP_TIME_LIMIT=$left SP_KERNELS=$(paste -sd, "$here/order.txt") \
    timeout -s TERM $((left + 30)) sh training/data/h100-sm/collect.sh sweep-each "$w" \
    >>"$w/sweep-log.txt" 2>&1
  log "sweep done, status $?"
  ;;
counters)
  bases=${3:-132}
  c=$(nvidia-smi --query-gpu=clocks.max.sm,clocks.max.mem --format=csv,noheader,nounits | head -1 | tr -d ' ')
  cf=$w/counters.csv
  [ -f "$cf" ] || cf=/dev/null
  for cu in $bases; do
    # The entries measured whose counters at this base are missing, in
    # chunks of 20 (one ncu run each), so that a call cut short keeps every
    # chunk it finished.
    awk -F, -v cu="$cu" 'FILENAME == ARGV[1] { if (FNR > 1 && $2 == cu) have[$1] = 1; next }
      FNR > 1 && !($1 in have) && !($1 in seen) { seen[$1] = 1; print $1 }' \
      "$cf" "$w/runs.csv" | split -l 20 - "$w/todo-$cu-"
    for chunk in "$w"/todo-"$cu"-*; do
      [ -f "$chunk" ] || continue
      left=$((limit - ($(date +%s) - t0)))
      if [ "$left" -lt 60 ]; then log "time limit: $chunk left"; break; fi
      timeout -s TERM "$left" training/runner/sp-counters --cu "$cu" --engine-mhz "${c%,*}" \
        --memory-mhz "${c#*,}" --counters "$w/counters.csv" --suite all \
        --kernels "$(paste -sd, "$chunk")" --keep "$w/ncu-$stamp/${chunk##*/}" \
        >>"$w/counters-log.txt" 2>&1
      log "counters at $cu SMs, ${chunk##*/} ($(wc -l <"$chunk") entries): status $?"
      rm -f "$chunk"
    done
    rm -f "$w"/todo-"$cu"-*
  done
  ;;
*)
  echo "measure.sh: unknown phase '$phase'" >&2
  exit 2
  ;;
esac
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv \
  >>"$w/sessions/env-$stamp.txt" 2>&1
pack
