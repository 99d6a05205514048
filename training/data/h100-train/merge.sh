#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# merge.sh: builds this folder's training set from the suite
# (training/data/h100-sm) and the retired validation sets
# (training/kernels/validation/data/h100, training/kernels/validation2/data/h100,
# training/kernels/validation3/data/h100, training/kernels/validation4/data/h100,
# training/kernels/validation5/data/h100, training/kernels/validation6/data/h100,
# training/kernels/validation7/data/h100, training/kernels/validation8/data/h100,
# training/kernels/validation9/data/h100, training/kernels/validation10/data/h100), and the
# suite entries measured after it (training/data/h100-extra, h100-extra2).
#
#   sh training/data/h100-train/merge.sh      (from the repository root)
#
# runs.csv and counters.csv are the suite's rows followed by each retired
# set's.  A retired set's power is scaled, per SM count, by the suite's
# idle_spin power over the idle_spin power of the session that measured
# it: two boards (or one board on two days) read the near-idle floor up to
# 17% apart at every SM count while their ratios agree.  First set: the
# 2026-11-24 rows by that day's floor (idle-floor.csv), the 2026-11-25 rows
# were measured with the suite's floor and are kept.  Second set: every
# row by its session's floor (idle-floor.csv; w_nqueens15 by
# idle-floor-part2.csv, the session it was measured in).  Third to tenth
# sets (one session each; the fifth's floor was read on the same warm card
# a call after its sweep): every row by that session's floor.  Extra entries:
# every row by the floor of its session (idle-floor.csv's session column;
# a row belongs to the last session that started, by its idle_spin rows'
# dates, before the row's date in details.csv).  families.csv is the
# suite's families followed by v1- to v10-families.csv (each
# retired kernel in the suite family of the same algorithm or behaviour, or
# a family of its own) and h100-extra's families.
set -eu
here=training/data/h100-train
suite=training/data/h100-sm
v1=training/kernels/validation/data/h100
v2=training/kernels/validation2/data/h100
# The retired sets measured in one session each (third to tenth).
onesession="training/kernels/validation3/data/h100 training/kernels/validation4/data/h100
  training/kernels/validation5/data/h100 training/kernels/validation6/data/h100 training/kernels/validation7/data/h100
  training/kernels/validation8/data/h100 training/kernels/validation9/data/h100
  training/kernels/validation10/data/h100"
extras="training/data/h100-extra training/data/h100-extra2"
tmp=$(mktemp -d "$here/.merge-XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# scale SESSION_FLOOR WHICH RUNS [EXTRA...]: RUNS' rows (no header) with
# power scaled by the suite's floor over SESSION_FLOOR's, for the rows
# WHICH selects (awk, on the row's fields and d, its day from details).
scale() {
  floor=$1 which=$2 runs=$3 details=${4:-/dev/null}
  awk -F, -v OFS=, '
    FILENAME == ARGV[1] { if (FNR > 1 && $1 == "idle_spin") suite[$2] = $6; next }
    FILENAME == ARGV[2] { if (FNR > 1) session[$2] = $6; next }
    FILENAME == ARGV[3] { if (FNR > 1) day[$1 "," $2] = substr($29, 1, 10); next }
    FNR == 1 { next }
    {
      d = day[$1 "," $2]
      if ('"$which"') {
        if (!(($2 in suite) && ($2 in session))) {
          print "merge.sh: no floor at " $2 " SMs for " $1 > "/dev/stderr"; exit 1
        }
        $6 = sprintf("%.2f", $6 * suite[$2] / session[$2])
      }
      print
    }' "$suite/runs.csv" "$floor" "$details" "$runs"
}

scale "$v1/idle-floor.csv" 'd == "2026-11-24"' "$v1/runs.csv" "$v1/details.csv" >"$tmp/v1-runs"
awk -F, 'FNR == 1 || $1 != "w_nqueens15"' "$v2/runs.csv" >"$tmp/v2-main"
awk -F, 'FNR == 1 || $1 == "w_nqueens15"' "$v2/runs.csv" >"$tmp/v2-part2"
scale "$v2/idle-floor.csv" 1 "$tmp/v2-main" >"$tmp/v2-runs"
scale "$v2/idle-floor-part2.csv" 1 "$tmp/v2-part2" >>"$tmp/v2-runs"
for v in $onesession; do scale "$v/idle-floor.csv" 1 "$v/runs.csv"; done >"$tmp/onesession-runs"

# The extra entries, each row by its own session's floor.
: >"$tmp/x-runs"
for extra in $extras; do
  awk -F, -v OFS=, '
  FILENAME == ARGV[1] { if (FNR > 1 && $1 == "idle_spin") suite[$2] = $6; next }
  FILENAME == ARGV[2] {
    if (FNR == 1) next
    floor[$1 "," $3] = $7
    if (!($1 in start) || $12 < start[$1]) start[$1] = $12
    next
  }
  FILENAME == ARGV[3] { if (FNR > 1) day[$1 "," $2] = $29; next }
  FNR == 1 { next }
  {
    d = day[$1 "," $2]; s = ""
    for (k in start) if (start[k] <= d && (s == "" || start[k] > start[s])) s = k
    if (d == "" || s == "" || !((s "," $2) in floor) || !($2 in suite)) {
      print "merge.sh: no session floor for " $1 " at " $2 " SMs" > "/dev/stderr"; exit 1
    }
    $6 = sprintf("%.2f", $6 * suite[$2] / floor[s "," $2])
    print
  }' "$suite/runs.csv" "$extra/idle-floor.csv" "$extra/details.csv" "$extra/runs.csv" >>"$tmp/x-runs"
done
cat "$suite/runs.csv" "$tmp/v1-runs" "$tmp/v2-runs" "$tmp/onesession-runs" "$tmp/x-runs" >"$tmp/runs.csv"

head -1 "$suite/counters.csv" >"$tmp/h1"
for d in "$v1" "$v2" $onesession $extras; do
  f=$d/counters.csv
  head -1 "$f" | cmp -s - "$tmp/h1" ||
    { echo "merge.sh: $f's header differs from the suite's" >&2; exit 1; }
done
{
  cat "$suite/counters.csv"
  for f in "$v1" "$v2" $onesession $extras; do tail -n +2 "$f/counters.csv"; done
} >"$tmp/counters.csv"
{
  cat "$suite/families.csv"
  for n in 1 2 3 4 5 6 7 8 9 10; do tail -n +2 "$here/v$n-families.csv"; done
  for f in $extras; do tail -n +2 "$f/families.csv"; done
} >"$tmp/families.csv"

# Every kernel of runs.csv has a family, and no family line names a kernel
# that was not measured.
awk -F, 'FILENAME == ARGV[1] { if (FNR > 1) fam[$1] = 1; next }
         FNR > 1 && !($1 in fam) && !($1 in said) { said[$1] = 1; print "merge.sh: " $1 " has no family" > "/dev/stderr"; bad = 1 }
         END { exit bad }' "$tmp/families.csv" "$tmp/runs.csv"

for f in runs.csv counters.csv families.csv; do mv "$tmp/$f" "$here/$f"; done
echo "merge.sh: $(($(wc -l <"$here/runs.csv") - 1)) runs rows, $(($(wc -l <"$here/counters.csv") - 1)) counters rows"
