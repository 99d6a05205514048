#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# governor.sh: scalepredict governor on the tests/data fixtures: a golden
# summary, the model-driven policy against the static reference under one
# slowdown limit, the report, switching costs, and bad input.
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"

# Phases: each new kernel four times in a row, then once more interleaved.
{
  echo "order,kernel"
  for i in 1 2 3 4; do echo "$i,fft"; done
  for i in 5 6 7 8; do echo "$i,\"stencil \"\"5pt\"\"\""; done
  for i in 9 10 11 12; do echo "$i,histogram"; done
  echo '13,fft'
  echo '14,"stencil ""5pt"""'
  echo '15,histogram'
} >trace.csv
GOV="governor --model $MODEL --trace trace.csv --runs $NEW/runs.csv --counters $NEW/counters.csv"

# ---- golden summary and report ----
sp $GOV --load-counters $LOADS --slowdown 1.3 --switch-latency-us 50 --switch-energy-mj 0.2 \
  --report report
expect_rc "governor report" 0
same_as_golden "governor summary" report/summary.csv governor-summary.csv
same_as_golden "governor steps" report/steps.csv governor-steps.csv
for f in index.html policies.svg power-timeline.svg engine-timeline.svg; do
  [ -s "report/$f" ] || fail "report lacks $f"
done
expect_out "governor table" "reference" "best-edp" "model" "reactive" "oracle"

# The model-driven policy uses less energy than the static reference and
# stays within the same slowdown limit.
awk -F, '$1 == "reference" { rt = $2; re = $3 } $1 == "model" { mt = $2; me = $3 }
  END { exit !(me < re && mt <= 1.3 * rt) }' report/summary.csv ||
  fail "model policy does not beat the reference on energy within 1.3x time"
# Switching is charged: 50 us and 0.2 mJ per changed axis.
awk -F, '$1 == "model" && ($10 != $9 * 0.05 || $11 != $9 * 0.2) { exit 1 }' report/summary.csv ||
  fail "switching costs are not charged per changed axis"

# ---- JSON, and the reactive policy left out without its counters ----
sp $GOV --json
expect_rc "governor json" 0
grep -q "no counter 'VALUBusy'" "$WORK/err" || fail "no note about the reactive policy"
grep -q '"policy":"reactive"' "$WORK/out" && fail "reactive ran without its counters"
if have_python; then
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert [p["policy"] for p in d["policies"]] == ["reference","best-edp","model","oracle"]' \
    "$WORK/out" || fail "governor --json is not the expected JSON"
fi
sp governor --model "$MODEL" --trace trace.csv --runs "$NEW/runs.csv" --counters "$NEW/counters.csv" \
  --policies model,reference --power-cap 110
expect_rc "policies list" 0
expect_out "policies list" "model" "reference"

if comma_locale; then
  sp $GOV --json
  cp out json-c
  LC_ALL=$COMMA_LOCALE sp $GOV --json
  cmp -s out json-c || fail "governor --json differs under $COMMA_LOCALE"
fi

# ---- bad input ----
sp $GOV --power-cap 20 --report bad-report
expect_error "infeasible cap" 2 "20 W cap" "closest is 16cu/500/475"
no_leftovers "infeasible cap" bad-report
sp $GOV --method nosuch
expect_error "unknown method" 2 "field 'method'" "'nosuch'" "(it has wu2015, physet)"
sp $GOV --slowdown 0.5
expect_error "infeasible slowdown" 2 "within 0.5 x"
printf 'order,kernel\n1,fft\n2,sgemm\n' >t-missing.csv
sp governor --model "$MODEL" --trace t-missing.csv --runs "$NEW/runs.csv" --counters "$NEW/counters.csv"
expect_error "unknown kernel" 2 "t-missing.csv:3:" "'sgemm'"
printf 'order,kernel\n1,fft\n1,fft\n' >t-twice.csv
sp governor --model "$MODEL" --trace t-twice.csv --runs "$NEW/runs.csv" --counters "$NEW/counters.csv"
expect_error "duplicate order" 2 "t-twice.csv:3:" "order 1 appears twice"
sp governor --model "$MODEL" --trace trace.csv --policies model,ondemand
expect_usage "unknown policy" "unknown policy 'ondemand'"
sp governor --model "$MODEL" --trace trace.csv --policies model,reference,model
expect_usage "a policy twice" "--policies names 'model' twice"
sp governor --model "$MODEL" --trace trace.csv --policies oracle
expect_usage "oracle without data" "--runs"
sp $GOV --load-counters VALUBusy
expect_usage "load counters" "ENGINE,MEMORY"
sp $GOV --policies reactive
expect_error "reactive without counters" 2 "'VALUBusy'"
sp $GOV --switch-latency-us -1
expect_usage "negative latency" "--switch-latency-us"
sp governor --model "$MODEL"
expect_usage "no trace" "--trace"

finish
