#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# merge.sh: builds this folder's training set from the suite
# (training/data/h100-sm) and the first validation set
# (training/validation/data/h100), which has been retired into training.
#
#   sh training/data/h100-train/merge.sh      (from the repository root)
#
# runs.csv and counters.csv are the suite's rows followed by the first
# validation set's.  Power of the validation rows measured on 2026-11-24
# (details.csv's date) is scaled, per SM count, by the suite's idle_spin
# power over that session's idle_spin power (idle-floor.csv): that session
# read the board's near-idle floor at 123-124 W where the suite's read
# 117 W, and two boards (or one board on two days) differ by a factor at
# every SM count while their ratios agree.  The 2026-11-25 rows were measured
# with the suite's floor and are kept as they are.  families.csv is the
# suite's families followed by v1-families.csv (each validation kernel in
# the suite family of the same algorithm, or a family of its own).
set -eu
here=training/data/h100-train
suite=training/data/h100-sm
v1=training/validation/data/h100
tmp=$(mktemp -d "$here/.merge-XXXXXX")
trap 'rm -rf "$tmp"' EXIT

awk -F, -v OFS=, '
  FILENAME == ARGV[1] { if (FNR > 1 && $1 == "idle_spin") suite[$2] = $6; next }
  FILENAME == ARGV[2] { if (FNR > 1) session[$2] = $6; next }
  FILENAME == ARGV[3] { if (FNR > 1) day[$1 "," $2] = substr($29, 1, 10); next }
  FNR == 1 { next }
  {
    d = day[$1 "," $2]
    if (d == "") { print "merge.sh: no date for " $1 " at " $2 " SMs" > "/dev/stderr"; exit 1 }
    if (d == "2026-11-24") {
      if (!(($2 in suite) && ($2 in session))) { print "merge.sh: no floor at " $2 > "/dev/stderr"; exit 1 }
      $6 = sprintf("%.2f", $6 * suite[$2] / session[$2])
    }
    print
  }' "$suite/runs.csv" "$v1/idle-floor.csv" "$v1/details.csv" "$v1/runs.csv" >"$tmp/v1-runs"
cat "$suite/runs.csv" "$tmp/v1-runs" >"$tmp/runs.csv"

head -1 "$suite/counters.csv" >"$tmp/h1"
head -1 "$v1/counters.csv" | cmp -s - "$tmp/h1" ||
  { echo "merge.sh: the two counters.csv headers differ" >&2; exit 1; }
{ cat "$suite/counters.csv"; tail -n +2 "$v1/counters.csv"; } >"$tmp/counters.csv"
{ cat "$suite/families.csv"; tail -n +2 "$here/v1-families.csv"; } >"$tmp/families.csv"

for f in runs.csv counters.csv families.csv; do mv "$tmp/$f" "$here/$f"; done
echo "merge.sh: $(($(wc -l <"$here/runs.csv") - 1)) runs rows, $(($(wc -l <"$here/counters.csv") - 1)) counters rows"
