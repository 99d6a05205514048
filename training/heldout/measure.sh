#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# measure.sh: the device call that measures a validation suite on one
# card (a held-out suite's README, "How to measure"): the card's
# environment and SM partitions, every kernel at the 13 SM levels with
# power (one runner process each, every level checked against the host
# reference before it is timed), the idle floor of this call (idle_spin at
# the 13 levels, right after the sweep), then Nsight Compute counters at
# 132 and 64 SMs.
#
#   sh training/heldout/measure.sh SUITE h100|h200
#
# SUITE is a name of training/suites.txt (its folder from there).  Run on
# the device from the repository root, with training/runner/sp-runner
# built (carried).  Everything lands in $OUT/CARD/ and is packed into
# $OUT/SUITE-CARD.tar.gz: env.txt, probe-cu.csv, runs.csv, details.csv,
# metadata.txt, sweep.log, idle/ (the floor's runs.csv and the rest),
# counters.csv, ncu/ and call-log.txt.  A card whose name does not match
# CARD measures nothing (exit 3; SP_CARD_OK=1 overrides for a dry run), so
# H100 rows are never filed as H200 rows.  SWEEP_LIMIT (default 330 s) and
# COUNTERS_LIMIT (150 s) keep the call inside 10 minutes; a call cut short
# is continued by running measure.sh again once its runs.csv, details.csv
# and metadata.txt are in the suite's data/CARD/.  Nothing here changes a
# GPU setting: clocks are only read, SM counts come from green contexts,
# ncu runs with --clock-control none.
set -u
suite=${1:?usage: measure.sh SUITE h100|h200}
card=${2:?usage: measure.sh SUITE h100|h200}
folder=$(sh training/suites.sh folder "$suite") || exit 2
out=${OUT:?measure.sh: OUT is not set}
d=$out/$card
collect=training/data/h100-sm/collect.sh
PATH=$PATH:/usr/local/cuda/bin:/usr/local/cuda-13.0/bin
export PATH
mkdir -p "$d"
t0=$(date +%s)
log() { echo "measure.sh $card: $* at $(($(date +%s) - t0)) s ($(date -u +%H:%M:%S))" | tee -a "$d/call-log.txt"; }
pack() {
  nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv \
    >>"$d/call-log.txt" 2>&1
  log end
  tar czf "$out/$suite-$card.tar.gz" -C "$out" "$card"
}

name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
log "start on $name"
case $card:$name in
h100:*H100* | h200:*H200*) ;;
*)
  if [ "${SP_CARD_OK:-0}" != 1 ]; then
    log "the card is not an $card: nothing measured"
    pack
    exit 3
  fi
  ;;
esac

# A call cut short is continued by the next one: with its files unpacked
# into data/CARD/ here, the sweep starts from them and skips every kernel
# whose 13 rows are there (collect.sh sweep-each).
for f in runs.csv details.csv metadata.txt; do
  [ -f "$folder/data/$card/$f" ] &&
    cp "$folder/data/$card/$f" "$d/$f"
done
sh "$collect" probe "$d"
log "probe done"
SP_SUITE=$suite SP_TIME_LIMIT=${SWEEP_LIMIT:-330} sh "$collect" sweep-each "$d" \
  >>"$d/call-log.txt" 2>&1
log "sweep done"
# SP_SUITE=all: with core (or train) collect.sh would start the folder from
# h100-sm's runs.csv, find idle_spin's 13 rows there and measure nothing.
SP_SUITE=all SP_KERNELS=idle_spin sh "$collect" sweep-each "$d/idle" >>"$d/call-log.txt" 2>&1
log "idle floor done"
rows=0
[ -f "$d/runs.csv" ] && rows=$(($(wc -l <"$d/runs.csv") - 1))
want=$((13 * $("${SP_RUNNER:-training/runner/sp-runner}" --list --suite "$suite" | wc -l)))
if [ "$rows" -lt "$want" ]; then
  log "sweep incomplete ($rows of $want rows): counters left for the call that completes it"
else
  SP_SUITE=$suite timeout -s TERM "${COUNTERS_LIMIT:-150}" sh "$collect" counters "$d" \
    >>"$d/call-log.txt" 2>&1
  log "counters done, status $?"
fi
pack
