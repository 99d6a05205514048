#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# dse.sh: scalepredict dse on the tests/data fixtures: golden tables, the
# report directory, values known by hand, and every bad input.
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"

printf 'kernel,weight\nfft,2\n"stencil ""5pt""",1\nhistogram,0.5\n' >weights.csv
printf 'name,config\nflagship,32cu/1000/1375\n"slim, cool",16cu/500/475\nbalanced,32cu/500/1375\n' \
  >candidates.csv
DSE="dse --model $MODEL --runs $NEW/runs.csv --counters $NEW/counters.csv"

# ---- golden tables and the report ----
sp $DSE --weights weights.csv --candidates candidates.csv --power-cap 120 --time-budget 1.5 \
  --report report
expect_rc "dse report" 0
for t in objectives pareto-energy pareto-power sensitivity axes kernels candidates configs; do
  [ -f "report/$t.csv" ] || fail "report lacks $t.csv"
  same_as_golden "dse $t" "report/$t.csv" "dse-$t.csv"
done
for f in index.html pareto-energy.svg pareto-power.svg axis-cu.svg axis-engine.svg \
  axis-memory.svg kernel-classes.svg heatmap-time.svg heatmap-energy.svg; do
  [ -s "report/$f" ] || fail "report lacks $f"
done
[ "$(grep -c '<svg' report/index.html)" -eq 8 ] || fail "index.html should inline 8 plots"
grep -q '<img' report/index.html && fail "index.html refers to outside images"
expect_out "dse text" "min-energy-budget" "flagship" "slim, cool" "bandwidth-bound"

# By hand: at the base the workload takes 2 x fft + stencil + 0.5 x histogram
# (base times 5.5, 2.25 and 0.9 ms); at 16 CUs and the top clocks fft (compute)
# takes 2x, stencil (memory) 1.25x, histogram (balanced) 1.6x.
awk -F, '$1 == "reference" && $6 != 13.7 { exit 1 }' report/objectives.csv ||
  fail "reference time is not 2 x 5.5 + 2.25 + 0.5 x 0.9 ms"
awk -F, '$1 == "16cu/1000/1375" && $5 != 2 * 11 + 1.25 * 2.25 + 1.6 * 0.45 { exit 1 }' \
  report/configs.csv || fail "16cu/1000/1375 is not 2 x 11 + 1.25 x 2.25 + 1.6 x 0.45 ms"
# fft is compute-bound, stencil bandwidth-bound (classes of tests/data).
grep -q '^kernel,fft,2,.*,compute-bound' report/sensitivity.csv || fail "fft not compute-bound"
grep -q '^kernel,"stencil ""5pt""",1,.*,bandwidth-bound' report/sensitivity.csv ||
  fail "stencil not bandwidth-bound"

# ---- --rank-kernels: the kernels by what raising an axis buys them ----
sp $DSE --weights weights.csv --rank-kernels memory
expect_rc "dse --rank-kernels memory" 0
expect_out "dse --rank-kernels memory" \
  "kernels ranked by what raising the memory clock from 475 to 1375 MHz buys them"
sed -n '/^kernels ranked by/,$p' out | awk 'NR > 3' >ranked
# The bandwidth-bound stencil gains most, the compute-bound fft least; each
# speedup is exp(-elasticity x ln(1375 / 475)) of sensitivity.csv's.
head -n 1 ranked | grep -q '^ *1 stencil "5pt" ' || fail "--rank-kernels memory: stencil not first: $(cat ranked)"
tail -n 1 ranked | grep -q '^ *3 fft ' || fail "--rank-kernels memory: fft not last: $(cat ranked)"
want=$(awk -F, '$2 == "fft" { printf "%.3f", exp(-$6 * log(1375 / 475)) }' report/sensitivity.csv)
grep -q "^ *3 fft  *$want " ranked || fail "--rank-kernels memory: fft's speedup is not $want: $(cat ranked)"
sp $DSE --rank-kernels clocks
expect_usage "--rank-kernels clocks" "--rank-kernels must be cu, engine or memory, not 'clocks'"

# ---- JSON ----
sp $DSE --json --grid-interp 5
expect_rc "dse json" 0
if have_python; then
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["space"]["configs"] == 2*6*6, d["space"]' \
    "$WORK/out" || fail "dse --json is not the expected JSON"
fi

# ---- the same output whatever the locale ----
if comma_locale; then
  sp $DSE --json
  cp out json-c
  LC_ALL=$COMMA_LOCALE sp $DSE --json
  cmp -s out json-c || fail "dse --json differs under $COMMA_LOCALE"
fi

# ---- bad input: one line naming the problem, status 2 or 1, nothing written ----
sp $DSE --power-cap 5 --report bad-report
expect_error "infeasible cap" 2 "power-cap" "5 W" "closest is 16cu/500/475"
no_leftovers "infeasible cap" bad-report
sp $DSE --time-budget 0.2 --report bad-report
expect_error "infeasible budget" 2 "0.2 x" "closest is 32cu/1000/1375"
no_leftovers "infeasible budget" bad-report
printf 'kernel,weight\nfft,1\nsgemm,3\n' >w-missing.csv
sp $DSE --weights w-missing.csv --report bad-report
expect_error "missing kernel" 2 "w-missing.csv:3:1:" "'sgemm'"
no_leftovers "missing kernel" bad-report
# Two columns for the weight (count and weight) or for the configuration
# (config and the axes): one was read and the other ignored without a word.
printf 'kernel,count,weight\nfft,1,7\n' >w-both.csv
sp $DSE --weights w-both.csv
expect_error "weights: count and weight" 2 "w-both.csv:1:3:" "'count'" "'weight'" "keep one"
printf 'kernel,weight,weight\nfft,1,7\n' >w-twice.csv
sp $DSE --weights w-twice.csv
expect_error "weights: weight twice" 2 "w-twice.csv:1:3:" "'weight' column twice"
printf 'name,config,cu,engine_mhz,memory_mhz\nmine,32cu/1000/1375,32,1000,1375\n' >c-both.csv
sp $DSE --candidates c-both.csv
expect_error "candidates: config and axes" 2 "c-both.csv:1:3:" "'config'" \
  "cu,engine_mhz,memory_mhz" "keep either"
# A row shorter or longer than the header, as runs.csv refuses it.
printf 'kernel,weight,note\nfft,7\n' >w-short.csv
sp $DSE --weights w-short.csv
expect_error "weights: short row" 2 "w-short.csv:2:" "row has 2 fields but the header has 3"
printf 'kernel,weight\nfft,7,x\n' >w-long.csv
sp $DSE --weights w-long.csv
expect_error "weights: long row" 2 "w-long.csv:2:" "row has 3 fields but the header has 2"
printf 'name,config\nodd,24cu/800/1375\n' >c-off.csv
sp $DSE --candidates c-off.csv
expect_error "off-grid candidate" 2 "c-off.csv:2:" "nearest is 32cu/1000/1375"
sp $DSE --reference 32cu/700/1375
expect_error "off-grid reference" 2 "nearest is 32cu/500/1375"
sp $DSE --method nosuch
expect_error "unknown method" 2 "field 'method'" "'nosuch'" "(it has wu2015, physet)"
sp $DSE --grid-interp 0
expect_usage "grid-interp 0" "--grid-interp"
sp $DSE --grid-interp 600
expect_error "grid-interp too fine" 1 "use at most 500"
sp $DSE --rank-by speed
expect_usage "rank-by" "--rank-by"
sp $DSE --rank-by min-time-capped
expect_usage "rank-by needs a cap" "--power-cap"
sp $DSE --power-cap -3
expect_usage "negative cap" "--power-cap"
sp dse --model "$MODEL" --runs "$NEW/runs.csv"
expect_usage "missing counters option" "required"
sp $DSE --model "$WORK/no-model"
expect_error "missing model" 3 "no-model"

finish
