#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bad_input.sh: every kind of malformed input from issue 2 through the CLI.
# Each must exit non-zero with the documented status (2 for invalid data, 4
# for I/O), print one line naming the file and the line and column or the
# field, and leave no output behind.
. "$(dirname "$0")/lib.sh"

# A minimal valid pair: two kernels at two CU counts, base 32cu/1000/1375.
good_runs='kernel,cu,engine_mhz,memory_mhz,time_ms,power_w
a,16,1000,1375,4.77,90.5
a,32,1000,1375,2.385,150.25
b,16,1000,1375,3.5,80
b,32,1000,1375,3.25,120'
good_counters='kernel,cu,engine_mhz,memory_mhz,valu.busy,mem.busy
a,32,1000,1375,80.5,12.5
b,32,1000,1375,20.25,77.75'

# replace TEXT LINE NEW: TEXT with line number LINE replaced by NEW (or
# deleted when NEW is "-").
replace() {
  printf '%s\n' "$1" | awk -v n="$2" -v s="$3" 'NR == n { if (s != "-") print s; next } { print }'
}

# train_case NAME RUNS COUNTERS CODE PATTERN...: writes NAME/runs.csv and
# NAME/counters.csv (empty text: an empty file), trains into NAME/model and
# checks the failure.  In the patterns @R and @C stand for the two files.
train_case() {
  name=$1
  mkdir "$name"
  if [ -n "$2" ]; then printf '%s\n' "$2" >"$name/runs.csv"; else : >"$name/runs.csv"; fi
  if [ -n "$3" ]; then printf '%s\n' "$3" >"$name/counters.csv"; else : >"$name/counters.csv"; fi
  code=$4
  shift 4
  sp train --runs "$name/runs.csv" --counters "$name/counters.csv" --base $BASE --clusters 2 \
    --out "$name/model"
  expect_error "$name" "$code"
  for p in "$@"; do
    p=$(printf '%s' "$p" | sed "s|@R|$name/runs.csv|; s|@C|$name/counters.csv|")
    grep -qF -- "$p" "$WORK/err" || fail "$name: stderr lacks '$p': $(cat "$WORK/err")"
  done
  no_leftovers "$name" "$name/model"
}

# The control: the valid pair trains.
mkdir control
printf '%s\n' "$good_runs" >control/runs.csv
printf '%s\n' "$good_counters" >control/counters.csv
sp train --runs control/runs.csv --counters control/counters.csv --base $BASE --out control/model
expect_rc "control" 0

# ---- runs.csv -------------------------------------------------------------------
train_case ragged "$(replace "$good_runs" 3 'a,32,1000,1375,2.385')" "$good_counters" 2 \
  "@R:3:" "5 fields but the header has 6"
train_case long-row "$(replace "$good_runs" 4 'b,16,1000,1375,3.5,80,extra')" "$good_counters" 2 \
  "@R:4:" "7 fields"
train_case non-numeric "$(replace "$good_runs" 3 'a,32,1000,1375,fast,150.25')" "$good_counters" 2 \
  "@R:3:5: field 'time_ms'" "'fast'"
train_case nan-time "$(replace "$good_runs" 3 'a,32,1000,1375,nan,150.25')" "$good_counters" 2 \
  "@R:3:5: field 'time_ms'" "'nan'"
train_case inf-power "$(replace "$good_runs" 5 'b,32,1000,1375,3.25,inf')" "$good_counters" 2 \
  "@R:5:6: field 'power_w'" "'inf'"
train_case zero-time "$(replace "$good_runs" 2 'a,16,1000,1375,0,90.5')" "$good_counters" 2 \
  "@R:2:5: field 'time_ms'" "'0'"
train_case negative-time "$(replace "$good_runs" 4 'b,16,1000,1375,-3.5,80')" "$good_counters" 2 \
  "@R:4:5: field 'time_ms'" "'-3.5'"
train_case negative-power "$(replace "$good_runs" 4 'b,16,1000,1375,3.5,-80')" "$good_counters" 2 \
  "@R:4:6: field 'power_w'" "'-80'"
train_case fractional-cu "$(replace "$good_runs" 3 'a,32.5,1000,1375,2.385,150.25')" "$good_counters" 2 \
  "@R:3:2: field 'cu'" "'32.5'"
train_case duplicate-row "$good_runs
a,16,1000,1375,4.8,91" "$good_counters" 2 "@R:6:" "duplicate row" "already on line 2"
train_case missing-column "$(replace "$good_runs" 1 'kernel,cu,engine_mhz,time_ms,power_w')" "$good_counters" 2 \
  "@R:1: field 'memory_mhz'" "required column missing"
train_case empty-runs "" "$good_counters" 2 "@R:1:" "empty file"
train_case hole "$(replace "$good_runs" 4 -)" "$good_counters" 2 \
  "@R: field 'time_ms'" "'b'" "16cu/1000/1375"

# ---- counters.csv ------------------------------------------------------------------
train_case counter-text "$good_runs" "$(replace "$good_counters" 3 'b,32,1000,1375,20.25,lots')" 2 \
  "@C:3:6: field 'mem.busy'" "'lots'"
train_case counter-nan "$good_runs" "$(replace "$good_counters" 2 'a,32,1000,1375,nan,12.5')" 2 \
  "@C:2:5: field 'valu.busy'" "'nan'"
train_case counter-ragged "$good_runs" "$(replace "$good_counters" 2 'a,32,1000,1375,80.5')" 2 \
  "@C:2:" "5 fields"
train_case counter-twice "$good_runs" "$(replace "$good_counters" 1 'kernel,cu,engine_mhz,memory_mhz,valu.busy,valu.busy')" 2 \
  "@C:1:6: field 'valu.busy'" "twice"
train_case counter-duplicate-row "$good_runs" "$good_counters
a,32,1000,1375,80,12" 2 "@C:4:" "already on line 2"
train_case empty-counters "$good_runs" "" 2 "@C:1:" "empty file"

# ---- the two files together ---------------------------------------------------------
train_case only-in-counters "$good_runs" "$good_counters
c,32,1000,1375,5.5,6.5" 2 "@C:4:1: field 'kernel'" "'c'"
train_case only-in-runs "$good_runs" "$(replace "$good_counters" 3 -)" 2 \
  "@C: field 'kernel'" "'b'" "no counter rows"
train_case counters-not-at-base "$good_runs" "$(replace "$good_counters" 3 'b,16,1000,1375,20.25,77.75')" 2 \
  "@C: field 'kernel'" "'b'" "base configuration 32cu/1000/1375"

# ---- the base configuration ------------------------------------------------------------
mkdir off-grid
sp train --runs control/runs.csv --counters control/counters.csv --base 24cu/1000/1375 --out off-grid/model
expect_error "base off the grid" 2 "control/runs.csv" "field 'base'" "24cu/1000/1375"
no_leftovers "base off the grid" off-grid/model

# ---- files that cannot be read or written -------------------------------------------------
mkdir io
sp train --runs nowhere/runs.csv --counters control/counters.csv --base $BASE --out io/model
expect_error "missing runs.csv" 4 "nowhere/runs.csv" "cannot open"
no_leftovers "missing runs.csv" io/model
sp train --runs control/runs.csv --counters control/counters.csv --base $BASE --out control/runs.csv/model
expect_error "unwritable --out" 4 "control/runs.csv"

# ---- predict -----------------------------------------------------------------------
sp train --runs "$TRAIN/runs.csv" --counters "$TRAIN/counters.csv" --base $BASE --clusters 3 \
  --quiet --out model
expect_rc "train the model" 0

mkdir new
cp "$NEW/runs.csv" "$NEW/counters.csv" new/
predict() {
  sp predict --model model --runs new/runs.csv --counters new/counters.csv "$@"
}
predict --target all
expect_rc "predict control" 0

awk 'NR == 3 { print "fft,16,500,1375,22" ; next } { print }' "$NEW/runs.csv" >new/runs.csv
predict --target all
expect_error "predict ragged" 2 "new/runs.csv:3:" "5 fields"
cp "$NEW/runs.csv" new/runs.csv

predict --target 24cu/700/925
expect_error "target off the grid" 2 "field 'target'" "24cu/700/925" "16cu/500/475 .. 32cu/1000/1375"
predict --target all --base 16cu/500/475
expect_error "base not the model's" 2 "field 'base'" "32cu/1000/1375"
predict --target 16cu/700/925x
expect_error "malformed target" 1 "field '--target'" "'16cu/700/925x'"
predict --target all --kernel nosuch
expect_error "unknown kernel" 2 "new/runs.csv" "field 'kernel'" "'nosuch'"

# The last kernel lacks counters at the base: nothing is printed at all.
grep -v '^histogram' "$NEW/counters.csv" >new/counters.csv
echo 'histogram,16,500,475,52,48,0.56' >>new/counters.csv
predict --target all --format csv
expect_error "counters missing at the base" 2 "new/counters.csv" "field 'kernel'" "'histogram'" \
  "32cu/1000/1375"
cut -d, -f1-6 "$NEW/counters.csv" >new/counters.csv
predict --target all
expect_error "counter missing from the header" 2 "new/counters.csv:1: field 'tcp.hit.rate'"
cp "$NEW/counters.csv" new/counters.csv
echo 'ifft,32,1000,1375,88,7,0.9' >>new/counters.csv
predict --target all
expect_error "kernel only in counters" 2 "new/counters.csv:5:1: field 'kernel'" "'ifft'"
cp "$NEW/counters.csv" new/counters.csv
echo 'ifft,32,1000,1375,1.5,170' >>new/runs.csv
predict --target all --format json
expect_error "kernel only in runs" 2 "new/counters.csv" "'ifft'"
cp "$NEW/runs.csv" new/runs.csv

# ---- surfaces -------------------------------------------------------------------------
sp surfaces --runs hole/runs.csv --out surf-hole
expect_error "surfaces with a hole" 2 "hole/runs.csv" "field 'time_ms'" "16cu/1000/1375"
no_leftovers "surfaces with a hole" surf-hole/time.csv
sp surfaces --runs ragged/runs.csv --out surf-ragged
expect_error "surfaces of a ragged file" 2 "ragged/runs.csv:3:"
no_leftovers "surfaces of a ragged file" surf-ragged

# Power is missing at one configuration: neither file is written.
mkdir power-hole
replace "$good_runs" 5 'b,32,1000,1375,3.25,' >power-hole/runs.csv
sp surfaces --runs power-hole/runs.csv --quantity both --out surf-power
expect_error "surfaces with a power hole" 2 "power-hole/runs.csv" "field 'power_w'" "32cu/1000/1375"
no_leftovers "surfaces with a power hole" surf-power/power.csv
no_leftovers "surfaces with a power hole" surf-power/time.csv

finish
