#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# measure-h100.sh: the measurements behind docs/accuracy.md, "Your own
# application": the example profiled with `scalepredict profile` at the
# base (132 SMs), an `ncu --set full` profile of one iteration (the wide
# fixture of tests/cli/profile.sh), and the example timed at the 13 SM
# counts of models/h100-sm through green contexts (SP_GREEN_SMS, the helper
# in greenctx/).  Run from the source tree on the GPU machine:
#
#   OUT=results SP=scalepredict docs/examples/profile/measure-h100.sh
#
# With TWO=1 it shows the two-point profile (docs/profile.md, "Two
# points") instead: the example built a second time unaware of green
# contexts (-DAPP_UNAWARE), profiled with its second pass through the
# preload (greenctx/.libs/libscalepredict-greenctx-preload.so, or
# $SP_GREENCTX_PRELOAD), the preload checked alone (probe at 64 SMs), the
# same 13 SM counts timed, and the profile predicted with and without its
# second point for compare.py.  MODEL (default models/h100-sm), BASE (the
# --base of a model of several cards, e.g. 132cu/1980/3201 on an H200 with
# models/h100-h200) and SECOND (--second-sms, e.g. 24,64: then also the
# profile predicted through its first further point alone,
# predicted-first.csv) choose what the profile is made for.
#
# Nothing here changes a GPU setting: ncu runs with --clock-control none.
set -u
OUT=${OUT:-results}
SP=${SP:-scalepredict}
NCU=${NCU:-ncu}
ITERS=${ITERS:-3}
LEVELS="8 16 24 32 40 48 56 64 80 96 112 128 132"
MODEL=${MODEL:-models/h100-sm}
BASE=${BASE:-}
SECOND=${SECOND:-}
mkdir -p "$OUT"
app=$OUT/app
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem \
    --format=csv
  "$NCU" --version | tail -1
} >"$OUT/environment.txt" 2>&1
nvcc -O3 -arch=sm_90 -Igreenctx -o "$app" docs/examples/profile/app.cu greenctx/sp_greenctx.c \
  -ldl || exit 1
for n in 8 64 132; do
  printf '%s,' "$n"
  SP_GREEN_SMS=$n "$app" --probe
done >"$OUT/probe.csv" 2>&1

if [ "${TWO:-0}" = 1 ]; then
  plain=$OUT/app-plain
  nvcc -O3 -arch=sm_90 -DAPP_UNAWARE -o "$plain" docs/examples/profile/app.cu || exit 1
  pre=${SP_GREENCTX_PRELOAD:-greenctx/.libs/libscalepredict-greenctx-preload.so}
  # The preload alone: the unaware binary's SM ids at 64 SMs, and its status.
  LD_PRELOAD=$pre SP_GREEN_SMS=64 SP_GREEN_STATUS=$OUT/preload-status.txt "$plain" --probe \
    >"$OUT/probe-preload.csv" 2>&1
  SP_GREENCTX_PRELOAD=$pre "$SP" profile --model "$MODEL" ${BASE:+--base "$BASE"} \
    ${SECOND:+--second-sms "$SECOND"} --out "$OUT/profile" \
    -- "$plain" --iters "$ITERS" >"$OUT/profile.log" 2>&1
  echo "scalepredict profile: exit status $?" >>"$OUT/profile.log"
  for n in $LEVELS; do
    SP_GREEN_SMS=$n "$app" --time --iters "$ITERS"
  done >"$OUT/times.csv" 2>"$OUT/times.log"
  mem=$(sed -n 's/^base: [0-9]*cu\/[0-9]*\///p' "$OUT/profile/profile.txt")
  predict() {
    "$SP" predict --model "$MODEL" ${BASE:+--base "$BASE"} --profile "$OUT/profile" \
      --target all --format csv "$@"
  }
  predict >"$OUT/predicted-two.csv" 2>"$OUT/predict-two.log"
  predict --use-measured none >"$OUT/predicted-one.csv" 2>>"$OUT/predict-two.log"
  points="one two"
  first=${SECOND%%,*}
  if [ "$first" != "$SECOND" ]; then
    clocks=$(sed -n 's/^base: [0-9]*cu\///p' "$OUT/profile/profile.txt")
    predict --use-measured "${first}cu/$clocks" >"$OUT/predicted-first.csv" 2>>"$OUT/predict-two.log"
    points="one first two"
  fi
  for p in $points; do
    echo "== $p point(s)"
    python3 docs/examples/profile/compare.py "$OUT/predicted-$p.csv" "$OUT/times.csv" "$mem"
  done >"$OUT/compare.txt" 2>&1
  rm -f "$app" "$plain"
  exit 0
fi

# The profile, as a user makes it.
"$SP" profile --model models/h100-sm --out "$OUT/profile" -- "$app" --iters "$ITERS" \
  >"$OUT/profile.log" 2>&1
echo "scalepredict profile: exit status $?" >>"$OUT/profile.log"
# ncu --set full of one iteration: every section's metrics (~2,300 columns).
"$NCU" --clock-control none --set full --csv --page raw --print-units base \
  --print-kernel-base demangled --log-file "$OUT/ncu-full.csv" "$app" --iters 1 \
  >"$OUT/ncu-full.log" 2>&1

# The same application at every SM count of the model's grid.
for n in $LEVELS; do
  SP_GREEN_SMS=$n "$app" --time --iters "$ITERS"
done >"$OUT/times.csv" 2>"$OUT/times.log"
"$app" --time --iters "$ITERS" >"$OUT/times-primary.csv" 2>>"$OUT/times.log"
rm -f "$app"
