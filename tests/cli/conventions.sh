#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# conventions.sh (issue 12, item 8): one convention across commands.
# time_error_pct is signed, 100 x (predicted - measured) / measured, in
# predict as in export; --format table|json works in evaluate, dse and
# governor as in predict (csv is refused, saying where the CSV tables are);
# no command creates a missing parent directory; counters clamped to the
# training range are counted per kernel in predict's CSV and JSON; every
# CSV any command writes ends its lines in LF (no CR anywhere).
. "$(cd "$(dirname "$0")/../dse" && pwd)/lib.sh"

IN="--model $MODEL --runs meas.csv --counters $NEW/counters.csv"

# ---- signed errors: fft measured 10% slower than predicted at 16cu/500/475 ----
awk -F, 'BEGIN { OFS = "," } $1 == "fft" && $2 == 16 && $3 == 500 && $4 == 475 { $5 = $5 * 1.1 }
  { print }' "$NEW/runs.csv" >meas.csv
sp predict $IN --kernel fft --target 16cu/500/475 --format csv
expect_rc "predict" 0
pe=$(awk -F, 'NR == 2 { print $6 }' out)
sp export $IN --with-measured
expect_rc "export" 0
xe=$(awk -F, '$1 == "fft" && $2 == "16cu/500/475" { print $11 }' out)
awk -v p="$pe" -v x="$xe" 'BEGIN { exit !(p < -9.08 && p > -9.10 && p - x < 1e-3 && x - p < 1e-3) }' ||
  fail "time_error_pct: predict $pe, export $xe; want both -9.09 (predicted below measured)"

# ---- --format in the commands that had only --json ----
printf 'order,kernel\n1,fft\n2,histogram\n' >trace.csv
GOV="governor --model $MODEL --trace trace.csv --runs $NEW/runs.csv --counters $NEW/counters.csv"
DSE="dse --model $MODEL --runs $NEW/runs.csv --counters $NEW/counters.csv"
EVAL="evaluate --quiet --runs $TRAIN/runs.csv --counters $TRAIN/counters.csv --repeats 1 --clusters 2 --epochs 20"
for cmd in "$DSE" "$GOV" "$EVAL"; do
  name=${cmd%% *}
  sp $cmd --json
  cp out json.out
  sp $cmd --format json
  expect_rc "$name --format json" 0
  cmp -s out json.out || fail "$name: --format json differs from --json"
  sp $cmd --format table
  expect_rc "$name --format table" 0
  head -c 1 out | grep -q '{' && fail "$name --format table printed JSON"
  sp $cmd --format csv
  expect_rc "$name --format csv" 1
  grep -qF -- "--report DIR writes each as CSV" err || fail "$name --format csv: $(cat err)"
done

# ---- no missing parent directory is created ----
for cmd in train evaluate dse governor export surfaces; do
  case $cmd in
    train) sp train --quiet --runs "$TRAIN/runs.csv" --counters "$TRAIN/counters.csv" \
      --base "$BASE" --clusters 3 --out nowhere/deeper/model ;;
    evaluate) sp $EVAL --report nowhere/deeper/rep ;;
    dse) sp $DSE --report nowhere/deeper/rep ;;
    governor) sp $GOV --report nowhere/deeper/rep ;;
    export) sp export $IN --out nowhere/deeper/x.csv ;;
    surfaces) sp surfaces --runs "$TRAIN/runs.csv" --out nowhere/deeper/s ;;
  esac
  expect_rc "$cmd under a missing directory" 4
  grep -Eq "create it first|its parent must exist" err || fail "$cmd: $(cat err)"
  [ ! -e nowhere ] || fail "$cmd created the missing directory 'nowhere'"
done

# ---- clamped counters, per kernel, in predict's CSV and JSON ----
sed 's/^fft,32,1000,1375,89.25,/fft,32,1000,1375,1000,/' "$NEW/counters.csv" >far.csv
grep -q '^fft,32,1000,1375,1000,' far.csv || fail "the fixture's fft counters row moved"
sp predict --model "$MODEL" --runs "$NEW/runs.csv" --counters far.csv --target all --format csv
expect_rc "predict, a counter out of range" 0
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "clamped_counters") c = i }
  NR > 1 && c && (($1 == "fft") != ($c > 0)) { bad = 1 }
  END { exit bad || !c }' out || fail "clamped_counters in CSV: $(cat out)"
sp predict --model "$MODEL" --runs "$NEW/runs.csv" --counters far.csv --target 16cu/500/475 \
  --format json
grep -q '"kernel":"fft".*"clamped_counters":1' out || fail "clamped_counters in JSON: $(cat out)"
grep -q '"kernel":"histogram".*"clamped_counters":0' out || fail "histogram clamped: $(cat out)"

# ---- one line ending: every CSV written, to standard output or a file ----
cr=$(printf '\r')
sp predict $IN --target all --format csv
grep -q "$cr" out && fail "predict --format csv wrote a CR"
sp export $IN --with-measured
grep -q "$cr" out && fail "export wrote a CR"
sp $DSE --report dse-rep
expect_rc "dse --report" 0
sp $GOV --report gov-rep
expect_rc "governor --report" 0
sp $EVAL --report eval-rep
expect_rc "evaluate --report" 0
sp surfaces --runs "$TRAIN/runs.csv" --out surf
expect_rc "surfaces" 0
n=$(find dse-rep gov-rep eval-rep surf -name '*.csv' | wc -l)
[ "$n" -gt 10 ] || fail "the reports and surfaces hold only $n CSV files"
# shellcheck disable=SC2044 # the report's file names have no blanks
for f in $(find dse-rep gov-rep eval-rep surf -name '*.csv'); do
  grep -q "$cr" "$f" && fail "$f has a CR: every CSV ends its lines in LF"
done

finish
