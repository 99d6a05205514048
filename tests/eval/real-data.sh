#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Held-out accuracy on the shared real measurements (../shared/datasets):
# fails when a method's time MAPE (wu2015's, stack's and physet's) is more than 2
# points worse than the figure committed in tests/eval/accuracy-figures.txt
# (and docs/accuracy.md).
# Skips (77) on a machine without the shared data.
set -eu
: "${SCALEPREDICT:?}" "${SP_TOP_SRCDIR:?}"
SP=$SCALEPREDICT
top_srcdir=$SP_TOP_SRCDIR
data="$top_srcdir/../shared/datasets"
figures="$top_srcdir/tests/eval/accuracy-figures.txt"
if [ ! -d "$data" ]; then
  echo "real-data: $data not found; skipping the real-data accuracy check"
  exit 77
fi
status=0
while read -r set method committed; do
  case "$set" in ''|'#'*) continue ;; esac
  if [ ! -f "$data/$set/runs.csv" ]; then
    echo "real-data: $set missing under $data; skipped"
    continue
  fi
  # The protocol of docs/accuracy.md's main table: 5 random 80/20 splits,
  # base in the middle of the grid, 12 clusters, seed 1.
  json=$("$SP" evaluate --runs "$data/$set/runs.csv" --counters "$data/$set/counters.csv" \
    --methods "$method" --quantity time --json --quiet)
  mape=$(printf '%s\n' "$json" | sed -n "s/.*\"$method\":{\"time_mape_pct\":\([0-9.eE+-]*\).*/\1/p")
  if [ -z "$mape" ]; then
    echo "real-data: $set: no $method time MAPE in the output"
    status=1
    continue
  fi
  verdict=$(awk -v m="$mape" -v c="$committed" 'BEGIN { print (m > c + 2) ? "FAIL" : "ok" }')
  echo "real-data: $set: $method time MAPE $mape% (committed $committed%): $verdict"
  [ "$verdict" = ok ] || status=1
done < "$figures"
exit "$status"
