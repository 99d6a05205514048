#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# merge.sh: builds this folder's training set from the core suite's
# measurements (training/data/h100-sm), those of every retired suite of the
# registry (training/suites.txt: role training with a date retired; each
# suite's data/h100 and families.csv, in registry order), and the core
# suite entries measured after it (training/data/h100-extra, h100-extra2).
#
#   sh training/data/h100-train/merge.sh      (from the repository root)
#
# runs.csv and counters.csv are the core suite's rows followed by each
# retired suite's, then the extra entries'.  A retired suite's power is
# scaled, per SM count, by the core suite's idle_spin power over the
# idle_spin power of the session that measured the row: two boards (or one
# board on two days) read the near-idle floor up to 17% apart at every SM
# count while their ratios agree.  Which session's floor a row takes is the
# suite's data/h100/floors.txt (the first line whose rule the row matches:
# every row, a day, a kernel; or kept as measured), or, without that file,
# the one session of data/h100/idle-floor.csv.  Extra entries: every row by
# the floor of its session (idle-floor.csv's session column; a row belongs
# to the last session that started, by its idle_spin rows' dates, before
# the row's date in details.csv).  families.csv is the core suite's families
# (training/data/h100-sm/families.csv) followed by each retired suite's
# families.csv (each kernel in the family of the same algorithm or
# behaviour, or a family of its own) and h100-extra's families.
set -eu
here=training/data/h100-train
suite=training/data/h100-sm
extras="training/data/h100-extra training/data/h100-extra2"
tmp=$(mktemp -d "$here/.merge-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# The retired suites' folders, in registry order (no blanks in them).
sh training/suites.sh retired | cut -f2 >"$tmp/retired"
retired=$(cat "$tmp/retired")

# scale SET: SET/data/h100/runs.csv's rows (no header), each with its power
# scaled by the core suite's floor over its session's (floors.txt).
scale() {
  d=$1/data/h100
  rules=$d/floors.txt
  [ -f "$rules" ] || { printf 'idle-floor.csv *\n' >"$tmp/rules"; rules=$tmp/rules; }
  # The floors, as "rule,cu,power" lines (the rule's line number among the
  # rules); '-' for a rule that keeps its rows.
  : >"$tmp/floors"
  sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$rules" >"$tmp/rule-lines"
  n=0
  while read -r floor _; do
    n=$((n + 1))
    [ "$floor" = - ] && continue
    [ -f "$d/$floor" ] || { echo "merge.sh: $rules: no floor file $d/$floor" >&2; exit 1; }
    awk -F, -v n="$n" 'FNR > 1 { print n "," $2 "," $6 }' "$d/$floor" >>"$tmp/floors"
  done <"$tmp/rule-lines"
  details=$d/details.csv
  [ -f "$details" ] || details=/dev/null
  awk -F, -v OFS=, -v set="$1" '
    FILENAME == ARGV[1] { if (FNR > 1 && $1 == "idle_spin") suite[$2] = $6; next }
    FILENAME == ARGV[2] { split($0, r, " "); floor[FNR] = r[1]; rule[FNR] = r[2]; nr = FNR; next }
    FILENAME == ARGV[3] { session[$1 "," $2] = $3; next }
    FILENAME == ARGV[4] { if (FNR > 1) day[$1 "," $2] = substr($29, 1, 10); next }
    FNR == 1 { next }
    {
      d = day[$1 "," $2]; m = 0
      for (i = 1; i <= nr && !m; i++)
        if (rule[i] == "*" || rule[i] == "day=" d || rule[i] == "kernel=" $1) m = i
      if (!m) { print "merge.sh: no floors.txt rule for " $1 " in " set > "/dev/stderr"; exit 1 }
      if (floor[m] != "-") {
        if (!(($2 in suite) && ((m "," $2) in session))) {
          print "merge.sh: no floor at " $2 " SMs for " $1 > "/dev/stderr"; exit 1
        }
        $6 = sprintf("%.2f", $6 * suite[$2] / session[m "," $2])
      }
      print
    }' "$suite/runs.csv" "$tmp/rule-lines" "$tmp/floors" "$details" "$d/runs.csv"
}

for v in $retired; do scale "$v"; done >"$tmp/retired-runs"

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
cat "$suite/runs.csv" "$tmp/retired-runs" "$tmp/x-runs" >"$tmp/runs.csv"

# The counters files, in the order of the runs.
for d in $retired; do echo "$d/data/h100/counters.csv"; done >"$tmp/counters-files"
for d in $extras; do echo "$d/counters.csv"; done >>"$tmp/counters-files"
head -1 "$suite/counters.csv" >"$tmp/h1"
while read -r f; do
  head -1 "$f" | cmp -s - "$tmp/h1" ||
    { echo "merge.sh: $f's header differs from the core suite's" >&2; exit 1; }
done <"$tmp/counters-files"
{
  cat "$suite/counters.csv"
  while read -r f; do tail -n +2 "$f"; done <"$tmp/counters-files"
} >"$tmp/counters.csv"
{
  cat "$suite/families.csv"
  for d in $retired $extras; do tail -n +2 "$d/families.csv"; done
} >"$tmp/families.csv"

# Every kernel of runs.csv has a family, and no family line names a kernel
# that was not measured.
awk -F, 'FILENAME == ARGV[1] { if (FNR > 1) fam[$1] = 1; next }
         FNR > 1 && !($1 in fam) && !($1 in said) { said[$1] = 1; print "merge.sh: " $1 " has no family" > "/dev/stderr"; bad = 1 }
         END { exit bad }' "$tmp/families.csv" "$tmp/runs.csv"

for f in runs.csv counters.csv families.csv; do mv "$tmp/$f" "$here/$f"; done
echo "merge.sh: $(($(wc -l <"$here/runs.csv") - 1)) runs rows, $(($(wc -l <"$here/counters.csv") - 1)) counters rows"
