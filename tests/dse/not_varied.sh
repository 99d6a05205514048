#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# not_varied.sh (issue 12, item 4): a set whose memory clock never varies
# (as the V100 set's) supports no claim about memory.  dse says "not
# varied", classes no kernel (every class is "undetermined", never
# compute-bound on a NaN read as 0), and no output holds a nan: not the
# table, the JSON, the report's pages, plots or CSV tables, nor export.  On
# a set with one CU count the heat maps' titles are not clipped.
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"

for f in runs counters; do
  awk -F, 'NR == 1 || $4 == 1375' "$TRAIN/$f.csv" >train-$f.csv
  awk -F, 'NR == 1 || $4 == 1375' "$NEW/$f.csv" >new-$f.csv
done
[ "$(cut -d, -f4 train-runs.csv | sort -u | wc -l)" -eq 2 ] || fail "the set still varies memory"
sp train --quiet --runs train-runs.csv --counters train-counters.csv --base "$BASE" \
  --clusters 3 --out m1
expect_rc "train on one memory clock" 0
IN="--model m1 --runs new-runs.csv --counters new-counters.csv"

# no_nan WHAT FILE...: no nan (or inf) as a word in any FILE.
no_nan() {
  what=$1
  shift
  if grep -Eiwl 'nan|-?inf' "$@" >nan.list; then
    fail "$what: nan or inf in $(tr '\n' ' ' <nan.list)"
  fi
}

sp dse $IN --report rep
expect_rc "dse" 0
no_nan "dse table" out
expect_out "dse table" "note: the memory clock was not varied" "undetermined"
# Every kernel and the workload: undetermined, none compute- or bandwidth-bound.
sed -n '/^elasticity/,/^note/p' out | grep -v '^note' | grep -E 'compute-bound|bandwidth-bound|neither$' &&
  fail "a kernel classed without memory evidence: $(cat out)"
[ "$(grep -c ' undetermined$' out)" -eq 4 ] || fail "want 4 undetermined rows: $(cat out)"
no_nan "dse report" rep/*
grep -q 'not varied' rep/axis-memory.svg || fail "axis-memory.svg does not say 'not varied'"
grep -q '<polyline' rep/axis-memory.svg && fail "axis-memory.svg draws an empty plot"
grep -q '<td>not varied</td>' rep/index.html || fail "index.html: no 'not varied' cell"
awk -F, '{ sub(/\r$/, "") } NR > 1 && $NF != "undetermined" { exit 1 }' rep/sensitivity.csv ||
  fail "sensitivity.csv classes a kernel: $(cat rep/sensitivity.csv)"

sp dse $IN --rank-kernels memory
expect_rc "dse --rank-kernels memory" 0
expect_out "dse --rank-kernels memory" \
  "kernels not ranked by the memory clock: the model's grid has one value of it"
no_nan "dse --rank-kernels memory" out

sp dse $IN --json
expect_rc "dse --json" 0
no_nan "dse json" out
grep -q '"not_varied":\["memory_mhz"\]' out || fail "dse json: no not_varied list"
if have_python; then
  python3 - out <<'PY' || fail "dse json: memory elasticities and classes"
import json, sys
doc = json.load(open(sys.argv[1]))
for k in doc["kernels"]:
    s = k["sensitivity"]
    assert s["time"]["memory"] is None and s["class"] == "undetermined", k
PY
fi

sp export $IN --with-measured
expect_rc "export" 0
no_nan "export" out

# ---- one CU count: the heat maps have one panel, and their titles fit ----
for f in runs counters; do
  awk -F, 'NR == 1 || $2 == 32' "$TRAIN/$f.csv" >cu-train-$f.csv
  awk -F, 'NR == 1 || $2 == 32' "$NEW/$f.csv" >cu-new-$f.csv
done
sp train --quiet --runs cu-train-runs.csv --counters cu-train-counters.csv --base "$BASE" \
  --clusters 3 --out mcu
expect_rc "train on one CU count" 0
sp dse --model mcu --runs cu-new-runs.csv --counters cu-new-counters.csv --report repcu
expect_rc "dse on one CU count" 0
expect_out "dse on one CU count" "note: the CU count was not varied"
no_nan "dse on one CU count" out repcu/*
for f in repcu/heatmap-time.svg repcu/heatmap-energy.svg; do
  # The title (13 px, about 7 px a character) fits in the canvas.
  w=$(sed -n 's/^<svg[^>]* width="\([0-9]*\)".*/\1/p' "$f")
  t=$(sed -n 's/.*font-size="13">\([^<]*\)<.*/\1/p' "$f" | head -n 1)
  [ -n "$w" ] && [ -n "$t" ] || { fail "$f: no width or title"; continue; }
  [ "$w" -ge $((${#t} * 7)) ] || fail "$f: the title '$t' (${#t} characters) is clipped at $w px"
done

finish
