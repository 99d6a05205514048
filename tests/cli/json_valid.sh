#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# json_valid.sh (issue 12, item 3): JSON output is always JSON.  A subnormal
# measurement (which made predict write a bare 'inf') is refused by every
# command that reads it, alike, naming file, line and field; an error that
# overflows a double is written as null (a measurement that large is now
# refused where it is read); every command's --json output parses with a
# strict parser (no NaN, no Infinity).
. "$(cd "$(dirname "$0")/../dse" && pwd)/lib.sh"

if ! have_python; then
  echo "no python3 for the JSON checks: skipped" >&2
  exit 77
fi

# strict_json WHAT FILE: FILE is one JSON document with no NaN or Infinity.
strict_json() {
  python3 -c '
import json, sys
def bad(c):
    raise ValueError("non-standard constant " + c)
json.load(open(sys.argv[1]), parse_constant=bad)' "$2" 2>"$WORK/json-err" ||
    fail "$1: not valid JSON: $(cat "$WORK/json-err"); $(head -c 300 "$2")"
}

# ---- a subnormal measured time: refused by predict and train alike ----
sed 's/^fft,16,500,475,[^,]*,/fft,16,500,475,1e-310,/' "$NEW/runs.csv" >tiny.csv
grep -q '^fft,16,500,475,1e-310,' tiny.csv || fail "the fixture has no fft row at 16cu/500/475"
line=$(grep -n '^fft,16,500,475,' tiny.csv | cut -d: -f1)
for f in table csv json; do
  sp predict --model "$MODEL" --runs tiny.csv --counters "$NEW/counters.csv" --target all \
    --format $f
  expect_error "predict --format $f, subnormal time" 2 "tiny.csv:$line:5:" "time_ms" "1e-310"
done
sp train --quiet --runs tiny.csv --counters "$NEW/counters.csv" --base "$BASE" --out m2
expect_error "train, subnormal time" 2 "tiny.csv:$line:5:" "time_ms" "1e-310"
sp dse --model "$MODEL" --runs tiny.csv --counters "$NEW/counters.csv" --json
expect_error "dse, subnormal time" 2 "tiny.csv:$line:5:" "time_ms"
sed 's/^fft,16,500,475,\([^,]*\),[^,]*$/fft,16,500,475,\1,4e-320/' "$NEW/runs.csv" >tinyw.csv
sp predict --model "$MODEL" --runs tinyw.csv --counters "$NEW/counters.csv" --target all
expect_error "predict, subnormal power" 2 "tinyw.csv:$line:6:" "power_w"

# ---- a measurement too large for any GPU is refused where it is read ----
# fft measured at 1e300 ms at the base and 1e-300 ms at 16cu/500/475 used to
# be read, and its predicted time's error overflowed (written as null); both
# are now outside the accepted range of time_ms (data/bounds.h), refused by
# every output format alike, with nothing written.
awk -F, 'BEGIN { OFS = "," }
  $1 == "fft" && $2 == 32 && $3 == 1000 && $4 == 1375 { $5 = "1e300" }
  $1 == "fft" && $2 == 16 && $3 == 500 && $4 == 475 { $5 = "1e-300" }
  { print }' "$NEW/runs.csv" >huge.csv
first=$(grep -n '^fft,.*e-\?300,' huge.csv | head -n 1 | cut -d: -f1)
for f in table csv json; do
  sp predict --model "$MODEL" --runs huge.csv --counters "$NEW/counters.csv" \
    --target 16cu/500/475 --kernel fft --format $f
  expect_error "predict --format $f, 1e300 ms" 2 "huge.csv:$first:5: field 'time_ms'" \
    "outside the accepted range"
done

# ---- every --json output parses strictly ----
sp predict --model "$MODEL" --runs "$NEW/runs.csv" --counters "$NEW/counters.csv" --target all \
  --format json
strict_json "predict --format json" out
sp evaluate --quiet --runs "$TRAIN/runs.csv" --counters "$TRAIN/counters.csv" --repeats 1 \
  --clusters 2 --epochs 20 --json
strict_json "evaluate --json" out
sp dse --model "$MODEL" --runs "$NEW/runs.csv" --counters "$NEW/counters.csv" --json
strict_json "dse --json" out
printf 'order,kernel\n1,fft\n2,histogram\n' >trace.csv
sp governor --model "$MODEL" --trace trace.csv --runs "$NEW/runs.csv" \
  --counters "$NEW/counters.csv" --json
strict_json "governor --json" out

finish
