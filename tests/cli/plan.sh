#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# plan.sh: scalepredict plan and complete on the fixture (9 kernels on a
# 2 x 2 x 2 grid) with part of it measured: the counts of what is named,
# base first, the status, the completion's rows and markers, the
# completion read back by plan and train, the output guard, and errors
# that name the file and line.
. "$(dirname "$0")/lib.sh"

header=kernel,cu,engine_mhz,memory_mhz,time_ms,power_w
# Two configurations per kernel measured: the base and the opposite corner.
{
  echo "$header"
  grep -E ',(32,1000,1375|16,500,475),' "$TRAIN/runs.csv"
} >partial.csv
grid='--cu 16,32 --engine-mhz 500,1000 --memory-mhz 475,1375'

# Nothing measured yet: every kernel's base, and only that.
sp plan --runs none.csv --kernels sgemm,bfs $grid --base $BASE
expect_rc "plan from nothing" 0
[ "$(cat out)" = "kernel,cu,engine_mhz,memory_mhz
sgemm,32,1000,1375
bfs,32,1000,1375" ] || fail "plan from nothing: $(cat out)"
grep -qF 'none.csv holds no measurement yet' err || fail "plan from nothing: no note"
grep -qF 'plan: 0 of 2 kernels done, 0 of 16 configurations measured, 2 named next' err ||
  fail "plan from nothing: summary $(cat err)"
# The note quotes the user's path escaped: one line, whatever it holds.
sp plan --runs "$(printf 'no\nne.csv')" --kernels sgemm $grid --base $BASE
expect_rc "plan from nothing, a newline in the path" 0
grep -qxF 'scalepredict: note: no\nne.csv holds no measurement yet' err ||
  fail "plan from nothing, a newline in the path: $(cat err)"

# Two measured of eight: a batch of 3 per kernel, never a measured one.
sp plan --runs partial.csv $grid --batch 3
expect_rc "plan" 0
[ "$(head -n 1 out)" = kernel,cu,engine_mhz,memory_mhz ] || fail "plan: header $(head -n 1 out)"
[ "$(wc -l <out)" -eq $((1 + 9 * 3)) ] || fail "plan: $(wc -l <out) lines, want 28"
[ "$(grep -c '^sgemm,' out)" -eq 3 ] || fail "plan: sgemm's batch"
if grep -E ',(32,1000,1375|16,500,475)$' out >/dev/null; then fail "plan: named a measured configuration"; fi
[ "$(tail -n +2 out | sort | uniq -d | wc -l)" -eq 0 ] || fail "plan: a configuration named twice"

# A budget of 3 leaves one each; --budget 1/4 (2 of 8) is met already.
sp plan --runs partial.csv $grid --budget 3 --quiet
expect_rc "plan --budget 3" 0
[ "$(wc -l <out)" -eq 10 ] || fail "plan --budget 3: $(wc -l <out) lines"
[ ! -s err ] || fail "plan --quiet wrote: $(cat err)"
sp plan --runs partial.csv $grid --budget 1/4 --status
expect_rc "plan --budget 1/4 --status" 0
[ "$(head -n 1 out)" = kernel,measured,grid,error_time_pct,error_power_pct,state,next ] ||
  fail "status header: $(head -n 1 out)"
[ "$(grep -c ',2,8,[0-9.]*,[0-9.]*,budget,0$' out)" -eq 9 ] || fail "status: $(cat out)"

# A total budget of 22 + 5 over the 9 kernels (22 measured: sgemm at 6 of
# its 8, the others at 2): 5 named this round, to the kernels of the
# largest estimated error (sgemm's is the smallest: not sgemm), in the
# kernels' order where they tie, each its most uncertain first; once the
# total is measured, done, every kernel at the budget; a total above what
# is left changes nothing.
{
  cat partial.csv
  grep -E '^sgemm,(16,1000,1375|32,1000,475|32,500,1375|16,1000,475),' "$TRAIN/runs.csv"
} >partial2.csv
sp plan --runs partial2.csv $grid --batch 3 --status --quiet
expect_rc "plan --status" 0
# Kernels by estimated error (time + power), largest first, file order in ties.
tail -n +2 out | awk -F, '{ printf "%s\t%.6f\t%d\n", $1, $(NF - 3) + $(NF - 2), NR }' |
  sort -t "$(printf '\t')" -k2,2gr -k3,3n | cut -f1 >urgency
[ "$(tail -n 1 urgency)" = sgemm ] || fail "sgemm, measured most, is not the most certain: $(cat out)"
sp plan --runs partial2.csv $grid --batch 3 --total-budget 27 --quiet
expect_rc "plan --total-budget 27" 0
[ "$(($(wc -l <out) - 1))" -eq 5 ] || fail "plan --total-budget 27: $(($(wc -l <out) - 1)) named, want 5"
first=$(sed -n 1p urgency)
second=$(sed -n 2p urgency)
[ "$(grep -c "^$first," out)" -eq 3 ] && [ "$(grep -c "^$second," out)" -eq 2 ] ||
  fail "plan --total-budget 27: not $first's 3 and $second's 2: $(cat out)"
sp plan --runs partial2.csv $grid --batch 3 --total-budget 27 --status --quiet
[ "$(grep -c ',measuring,' out)" -eq 9 ] || fail "total 27: kernels not measuring: $(cat out)"
sp plan --runs partial2.csv $grid --batch 3 --total-budget 22 --status
expect_rc "plan --total-budget 22" 0
[ "$(grep -c ',budget,0$' out)" -eq 9 ] || fail "total 22: $(cat out)"
grep -qF 'plan: 9 of 9 kernels done' err || fail "total 22: summary $(cat err)"
sp plan --runs partial2.csv $grid --batch 3 --quiet
cp out whole.csv
sp plan --runs partial2.csv $grid --batch 3 --total-budget 1000 --quiet
cmp -s out whole.csv || fail "plan --total-budget 1000 differs from no total"
sp plan --runs partial.csv $grid --total-budget 0
expect_rc "plan --total-budget 0" 1
grep -qF -- "--total-budget needs a positive integer" err || fail "total 0: $(cat err)"
sp complete --runs partial.csv $grid --total-budget 20
expect_rc "complete --total-budget" 1

# A sweep plan's grid, with the command line winning for memory_mhz.
cat >grid.plan <<'PLAN'
backend=nvidia   # the sweep's keys are read past
cu = 16,32
engine_mhz=500,1000
memory_mhz=475
runs=elsewhere.csv
PLAN
sp plan --runs partial.csv --grid grid.plan --memory-mhz 475,1375 --status
expect_rc "plan --grid" 0
[ "$(grep -c ',2,8,' out)" -eq 9 ] || fail "plan --grid: the grid is not 8 configurations: $(cat out)"

# The completion: every grid configuration, the two measured copied as
# they were written, the rest completed.
sp complete --runs partial.csv --out full.csv
expect_rc "complete" 0
[ "$(head -n 1 full.csv)" = "$header,source" ] || fail "complete: header $(head -n 1 full.csv)"
[ "$(wc -l <full.csv)" -eq 73 ] || fail "complete: $(wc -l <full.csv) lines, want 73"
[ "$(grep -c ',measured$' full.csv)" -eq 18 ] || fail "complete: measured rows"
[ "$(grep -c ',completed$' full.csv)" -eq 54 ] || fail "complete: completed rows"
grep ',measured$' full.csv | sed 's/,measured$//' | sort >measured.txt
tail -n +2 partial.csv | sort | diff - measured.txt >&2 || fail "complete: measured rows altered"

# Read back: plan counts the measured rows only; train takes every row.
sp plan --runs full.csv --status
expect_rc "plan on the completion" 0
[ "$(grep -c ',2,8,' out)" -eq 9 ] || fail "plan on the completion counted completed rows: $(cat out)"
sp train --runs full.csv --counters "$TRAIN/counters.csv" --base $BASE --clusters 3 --out model
expect_rc "train on the completion" 0

# The output guard: a completion replaces a completion, not runs.csv.
sp complete --runs partial.csv --out full.csv
expect_rc "complete over a completion" 0
cp partial.csv mine.csv
sp complete --runs partial.csv --out mine.csv
expect_error "complete over runs.csv" 1 "mine.csv" "will not replace this file" "--force"
cmp -s partial.csv mine.csv || fail "complete changed mine.csv"
sp complete --runs partial.csv --out mine.csv --force
expect_rc "complete --force" 0
no_leftovers "complete" nowhere.csv

# Errors name the file and line, or the option.
{
  echo "$header,source"
  echo "sgemm,32,1000,1375,2.5,150,measured"
  echo "sgemm,16,500,475,10.5,60,guessed"
} >bad.csv
sp plan --runs bad.csv
expect_error "a bad source" 2 "bad.csv:3:7: field 'source'" "'guessed'"
printf 'cu=16,x\nengine_mhz=500\nmemory_mhz=475\n' >bad.plan
sp plan --runs partial.csv --grid bad.plan
expect_error "a bad grid" 2 "bad.plan:1:" "field 'cu'" "'x' is not a positive integer"
printf 'cu=16\n' >short.plan
sp plan --runs partial.csv --grid short.plan
expect_error "a short grid" 2 "short.plan" "no 'engine_mhz' key"
printf 'cu=16,32,16\nengine_mhz=500\nmemory_mhz=475\n' >twice.plan
sp plan --runs partial.csv --grid twice.plan
expect_error "a repeated value in a grid" 2 "twice.plan:1:" "field 'cu'" "16 is listed twice"
sp plan --runs partial.csv --base 8cu/500/475
expect_error "a base off the grid" 2 "8cu/500/475 is not on the grid"
sp complete --runs partial.csv --kernels sgemm,nothere
expect_error "complete a kernel with nothing measured" 2 "'nothere'" "no measurement on the grid"
for args in "--budget 0" "--budget 3/2" "--batch 0" "--target-error -1" "--out x.csv" \
  "--force"; do
  # shellcheck disable=SC2086
  sp plan --runs partial.csv $args
  expect_rc "plan $args" 1
done
# usage WHAT PATTERN: a usage error (exit 1) whose first line holds PATTERN.
usage() {
  expect_rc "$1" 1 && head -n 1 err | grep -qF -- "$2" || fail "$1: $(cat err)"
}
sp complete --runs partial.csv --budget 3
usage "complete --budget" "unknown option '--budget'"
sp complete --out x.csv
usage "complete without --runs" "--runs is required"
sp plan --runs partial.csv $grid --surrogate lowrank
usage "plan --surrogate lowrank" "--surrogate must be gp or shared"
# The shared surrogate names the same kind of batch: one kernel's rows.
sp plan --runs partial.csv $grid --budget 3 --surrogate shared --quiet
expect_rc "plan --surrogate shared" 0
[ "$(wc -l <out)" -eq 10 ] || fail "plan --surrogate shared: $(wc -l <out) lines"
# --seed: the default is seed 1, and one seed always gives one plan.
cp out shared-default.csv
sp plan --runs partial.csv $grid --budget 3 --surrogate shared --seed 1 --quiet
cmp -s out shared-default.csv || fail "plan --seed 1 differs from the default"
sp plan --runs partial.csv $grid --budget 3 --surrogate shared --seed 7 --quiet
cp out shared-7.csv
sp plan --runs partial.csv $grid --budget 3 --surrogate shared --seed 7 --quiet
cmp -s out shared-7.csv || fail "plan --seed 7 twice gave two plans"
sp complete --runs partial.csv $grid --surrogate shared --seed 7
expect_rc "complete --seed 7" 0
sp plan --runs partial.csv $grid --seed x7
usage "plan --seed x7" "--seed: 'x7' is not a whole number"
sp plan --cu 16
usage "plan without runs or kernels" "--runs or --kernels is required"
sp plan --kernels a --cu 16 --engine-mhz 500
usage "plan without a whole grid" "--memory-mhz or --grid is required"
# A malformed axis list is a malformed option, a usage error (exit 1),
# whatever is wrong with it: a repeated value was, a bad one exited 2.
for axis in cu engine-mhz memory-mhz; do
  for bad in "4,x:'x' is not a positive integer" "0:'0' is not a positive integer" \
    "4,4:4 is listed twice" ":no values" "4,,8:'4,,8' has an empty value" \
    "4,:'4,' has an empty value"; do
    sp plan --kernels a $grid --"$axis" "${bad%%:*}"
    usage "plan --$axis ${bad%%:*}" "scalepredict: --$axis: ${bad#*:}"
  done
done
sp complete --runs partial.csv $grid --cu 16,x
usage "complete --cu 16,x" "scalepredict: --cu: 'x' is not a positive integer"
finish
