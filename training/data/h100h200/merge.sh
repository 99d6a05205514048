#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# merge.sh: the two-card training set of the memory axis (issue 28): every
# training entry measured on both the H100 (training/data/h100-train, HBM3
# at 2619 MHz) and the H200 (training/data/h200-train, HBM3e at 3201 MHz,
# and the data/h200 of every retired suite measured there too: runs.csv,
# counters.csv and its one session's idle-floor.csv), and the floor kernel
# idle_spin on both.
#
#   sh training/data/h100h200/merge.sh      (from the repository root)
#
# SP_MERGE_KEEP=1 keeps its scratch folder (here/.merge-XXXXXX) to look at.
#
# runs.csv: for each such entry its 13 H100 rows, then its 13 H200 rows
# (an entry with fewer than 13 H200 rows is left out), then idle_spin's 13
# H200 rows.  Each card's rows are put on that card's typical board: two
# cards or two sessions of one card read apart by a factor at every SM
# count while their ratios agree, and the factor between the two boards
# the set happens to pair (h100-train's core session and h200-train's
# first) is not the one between two boards a user pairs.  The typical
# board of a card, at each SM count, is the geometric mean of the idle
# floors (idle_spin) of every training session measured on that card:
# on the H100 the core suite's (h100-train's idle_spin rows, the board
# h100-train puts every row on), each retired suite's data/h100
# (idle-floor*.csv) and h100-extra's and h100-extra2's sessions; on the
# H200 h200-train's sessions and each retired suite's data/h200.  An H100
# row's power is scaled by the H100's typical floor over the core
# session's, an H200 row's by the H200's typical floor over the floor of
# its own session (the last session that started before the row's date in
# h200-train/details.csv, a row older than every session belonging to the
# first; a retired suite's rows by its data/h200/idle-floor.csv), and
# idle_spin's rows are the typical floors.  A held-out suite's floors take
# no part.
# counters.csv: those entries' H100 counters (132 and 64 SMs, 2619 MHz)
# and their H200 counters (3201 MHz) where measured.  families.csv: their
# families from h100-train.  memory.csv: the two
# memory systems (train and evaluate --memory).  Peak bandwidths are the
# datasheets': the H100's 3.35 TB/s is 2 x 2619 MHz x 5120 bits / 8 =
# 3352 GB/s; the H200's 4.8 TB/s is below 2 x 3201 x 6144 / 8 = 4917 from
# the clock NVML reports, and it is what Nsight Compute takes as the peak
# (its DRAM throughput, read plus write GB/s over the percent of peak,
# reads 4811 on the 19 entries above 50%, 3352 on the H100), and the most
# any entry gains is 1.427x, under 4800 / 3352 = 1.432.
set -eu
here=training/data/h100h200
h1=training/data/h100-train
h2=training/data/h200-train
tmp=$(mktemp -d "$here/.merge-XXXXXX")
trap '[ -n "${SP_MERGE_KEEP:-}" ] || rm -rf "$tmp"' EXIT

if [ "$(awk -F, 'FNR > 1 && $2 == "idle_spin"' "$h2/idle-floor.csv" | wc -l)" -lt 13 ]; then
  echo "merge.sh: $h2/idle-floor.csv lacks idle_spin at the 13 levels" >&2
  exit 1
fi
sh training/suites.sh retired | cut -f2 >"$tmp/retired"

# Each card's training sessions' idle floors as "card,session,cu,power"
# lines, then each card's typical floor at each SM count (the geometric
# mean over its sessions) as "card,cu,power" in typical.csv.
{
  awk -F, 'FNR > 1 && $1 == "idle_spin" { print "h100,core," $2 "," $6 }' "$h1/runs.csv"
  for f in training/data/h100-extra/idle-floor.csv training/data/h100-extra2/idle-floor.csv; do
    awk -F, -v f="$f" 'FNR > 1 && $2 == "idle_spin" { print "h100," f ":" $1 "," $3 "," $7 }' "$f"
  done
  awk -F, 'FNR > 1 && $2 == "idle_spin" { print "h200," $1 "," $3 "," $7 }' "$h2/idle-floor.csv"
  while read -r d; do
    for card in h100 h200; do
      for f in "$d"/data/$card/idle-floor*.csv; do
        [ -f "$f" ] && [ "$(head -1 "$f")" = "kernel,cu,engine_mhz,memory_mhz,time_ms,power_w" ] || continue
        awk -F, -v c=$card -v f="$f" 'FNR > 1 && $1 == "idle_spin" { print c "," f "," $2 "," $6 }' "$f"
      done
    done
  done <"$tmp/retired"
} >"$tmp/sessions.csv"
awk -F, -v OFS=, '
  !($4 > 0) { print "merge.sh: a session floor is not positive: " $0 > "/dev/stderr"; bad = 1; exit 1 }
  { s[$1, $3] += log($4); n[$1, $3]++; cus[$3] = 1 }
  END {
    if (bad) exit 1
    for (cu in cus)
      for (c = 1; c <= 2; c++) {
        card = c == 1 ? "h100" : "h200"
        if (!((card, cu) in n)) { print "merge.sh: no " card " idle floor at " cu " SMs" > "/dev/stderr"; exit 1 }
        print card, cu, sprintf("%.4f", exp(s[card, cu] / n[card, cu]))
      }
  }' "$tmp/sessions.csv" >"$tmp/typical-unsorted.csv"
sort -t, -k1,1 -k2,2n "$tmp/typical-unsorted.csv" >"$tmp/typical.csv"
# idle_spin's H200 rows: the H200's typical floor, with the first
# session's times.
awk -F, -v OFS=, '
  FILENAME == ARGV[1] { if ($1 == "h200") t[$2] = $3; next }
  FNR == 2 { ses = $1 }
  FNR > 1 && $1 == ses && $2 == "idle_spin" { $7 = sprintf("%.2f", t[$3]); $1 = ""; sub(/^,/, ""); print }
' "$tmp/typical.csv" "$h2/idle-floor.csv" | cut -d, -f1-6 >"$tmp/idle.csv"

# Every H200 row of h200-train, its power on the H200's typical floor by
# its own session's (sessions by start: 20261127T203716Z is
# 2026-11-27T20:37:16Z), into h200.csv.
awk -F, -v OFS=, '
  function iso(s) { return substr(s, 1, 4) "-" substr(s, 5, 2) "-" substr(s, 7, 5) ":" substr(s, 12, 2) ":" substr(s, 14) }
  FILENAME == ARGV[1] { if ($1 == "h200") typical[$2] = $3; next }
  FILENAME == ARGV[2] {
    if (FNR == 1) next
    if (!($1 in seen)) { seen[$1] = 1; ses[++n] = $1; start[n] = iso($1) }
    floor[$1, $3] = $7
    next
  }
  FILENAME == ARGV[3] { if (FNR > 1) date[$1, $2] = $NF; next }
  FNR == 1 {
    for (i = 2; i <= n; i++) if (start[i] < start[i - 1]) { print "merge.sh: idle-floor.csv sessions out of order" > "/dev/stderr"; exit 1 }
    next
  }
  {
    s = 1
    for (i = 2; i <= n; i++) if (start[i] <= date[$1, $2]) s = i
    if (!($2 in typical) || !((ses[s], $2) in floor) || floor[ses[s], $2] <= 0) {
      print "merge.sh: no idle floor at " $2 " SMs in session " ses[s] > "/dev/stderr"; exit 1
    }
    $6 = sprintf("%.2f", $6 * typical[$2] / floor[ses[s], $2])
    print
  }' "$tmp/typical.csv" "$h2/idle-floor.csv" "$h2/details.csv" "$h2/runs.csv" >"$tmp/h200.csv"
tail -n +2 "$h2/counters.csv" >"$tmp/h200-counters.csv"

# The retired suites measured on the H200 too (data/h200 beside data/h100:
# runs.csv, counters.csv and the one session's idle-floor.csv), each row's
# power put on the H200's typical floor by its own session's.
while read -r d; do
  [ -f "$d/data/h200/runs.csv" ] || continue
  for f in counters.csv idle-floor.csv; do
    [ -f "$d/data/h200/$f" ] || { echo "merge.sh: $d/data/h200 has runs.csv but no $f" >&2; exit 1; }
  done
  [ "$(head -1 "$d/data/h200/counters.csv")" = "$(head -1 "$h2/counters.csv")" ] ||
    { echo "merge.sh: $d/data/h200/counters.csv's header differs from $h2's" >&2; exit 1; }
  awk -F, -v OFS=, -v d="$d" '
    FILENAME == ARGV[1] { if ($1 == "h200") typical[$2] = $3; next }
    FILENAME == ARGV[2] { if (FNR > 1 && $1 == "idle_spin") own[$2] = $6; next }
    FNR == 1 { next }
    {
      if (!($2 in typical) || !(own[$2] > 0)) { print "merge.sh: " d "/data/h200: no idle floor at " $2 " SMs" > "/dev/stderr"; exit 1 }
      $6 = sprintf("%.2f", $6 * typical[$2] / own[$2])
      print
    }' "$tmp/typical.csv" "$d/data/h200/idle-floor.csv" "$d/data/h200/runs.csv" >>"$tmp/h200.csv"
  tail -n +2 "$d/data/h200/counters.csv" >>"$tmp/h200-counters.csv"
done <"$tmp/retired"

# One entry's H200 rows come from one place: an entry measured into
# h200-train and also in a retired suite's data/h200 (or in two) would
# count twice, so it stops the merge, naming the entry and the SM count.
awk -F, '{ k = $1 "," $2 "," $4; if (k in seen) { print "merge.sh: " $1 " has two H200 rows at " $2 " SMs (h200-train and a retired suite'"'"'s data/h200, or two suites): keep one" > "/dev/stderr"; bad = 1; exit 1 } seen[k] = 1 }
     END { exit bad }' "$tmp/h200.csv"

# The entries with all 13 H200 rows, in h100-train's order, idle_spin first,
# their H100 power on the H100's typical floor by the core session's.
awk -F, '{ n[$1]++ } END { for (k in n) if (n[k] >= 13 && k != "idle_spin") print k }' "$tmp/h200.csv" |
  sort >"$tmp/h200-entries"
echo idle_spin >>"$tmp/h200-entries"
awk -F, -v OFS=, '
  FILENAME == ARGV[1] { if ($1 == "h100") typical[$2] = $3; next }
  FILENAME == ARGV[2] { if ($1 == "h100" && $2 == "core") core[$3] = $4; next }
  FILENAME == ARGV[3] { keep[$1] = 1; next }
  FNR == 1 { print; next }
  $1 in keep {
    if (!($2 in typical) || !(core[$2] > 0)) { print "merge.sh: no H100 idle floor at " $2 " SMs" > "/dev/stderr"; exit 1 }
    $6 = sprintf("%.2f", $6 * typical[$2] / core[$2])
    print
  }' "$tmp/typical.csv" "$tmp/sessions.csv" "$tmp/h200-entries" "$h1/runs.csv" >"$tmp/runs.csv"
awk -F, 'FILENAME == ARGV[1] { keep[$1] = 1; next }
         ($1 in keep) && $1 != "idle_spin"' "$tmp/h200-entries" "$tmp/h200.csv" >>"$tmp/runs.csv"
cat "$tmp/idle.csv" >>"$tmp/runs.csv"

head -1 "$h1/counters.csv" >"$tmp/h1"
head -1 "$h2/counters.csv" | cmp -s - "$tmp/h1" ||
  { echo "merge.sh: $h2/counters.csv's header differs from $h1's" >&2; exit 1; }
awk -F, 'FILENAME == ARGV[1] { keep[$1] = 1; next }
         FNR == 1 || ($1 in keep)' "$tmp/h200-entries" "$h1/counters.csv" >"$tmp/counters.csv"
awk -F, 'FILENAME == ARGV[1] { keep[$1] = 1; next }
         $1 in keep' "$tmp/h200-entries" "$tmp/h200-counters.csv" >>"$tmp/counters.csv"
awk -F, 'FILENAME == ARGV[1] { keep[$1] = 1; next }
         FNR == 1 || ($1 in keep)' "$tmp/h200-entries" "$h1/families.csv" >"$tmp/families.csv"

cat >"$tmp/memory.csv" <<'EOF'
memory_mhz,name,type,bus_bits,peak_gbs,capacity_gb
2619,NVIDIA H100 80GB HBM3,HBM3,5120,3352,80
3201,NVIDIA H200,HBM3e,6144,4800,141
EOF

for f in runs.csv counters.csv families.csv memory.csv; do mv "$tmp/$f" "$here/$f"; done
echo "merge.sh: $(($(wc -l <"$tmp/h200-entries"))) entries, $(($(wc -l <"$here/runs.csv") - 1)) runs rows, $(($(wc -l <"$here/counters.csv") - 1)) counters rows"
