#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# messages.sh (issue 12, item 9): messages that say the fix.  UTF-16 input
# is named as such, with the fix; a missing option value is not called an
# unknown option; the governor's hints name --load-counters, not C fields,
# and load counters that are not percentages are refused instead of
# silently running at the lowest clocks.  (Full-disk messages naming the
# user's path, not a temporary one, and SIGTERM leaving no temporary are in
# write_errors.sh and outputs_kept.sh.)
. "$(cd "$(dirname "$0")/../dse" && pwd)/lib.sh"

if command -v iconv >/dev/null 2>&1; then
  iconv -f UTF-8 -t UTF-16 "$NEW/runs.csv" >utf16.csv
  sp surfaces --runs utf16.csv --out s
  expect_error "UTF-16 runs.csv" 2 "utf16.csv:1:1:" "looks like UTF-16" "save it as UTF-8"
else
  echo "no iconv: the UTF-16 case is skipped" >&2
fi

sp train --runs "$TRAIN/runs.csv" --counters "$TRAIN/counters.csv" --base "$BASE" --out
expect_rc "train --out without a value" 1
grep -qF "option '--out' needs a value" err || fail "missing value: $(cat err)"
sp predict --bogus
expect_rc "an unknown option" 1
grep -qF "unknown option '--bogus'" err || fail "unknown option: $(cat err)"
sp --target
grep -qF "option '--target' needs a value" err || fail "default command: $(cat err)"

printf 'order,kernel\n1,fft\n2,histogram\n' >trace.csv
GOV="governor --model $MODEL --trace trace.csv --runs $NEW/runs.csv --counters $NEW/counters.csv"
sp $GOV --policies reactive
expect_error "reactive without its counters" 2 "--load-counters ENGINE,MEMORY" "VALUBusy"
grep -q 'engine_load_counter' err && fail "the hint names a C field: $(cat err)"
# tcp.hit.rate is a fraction (0.12 to 0.93), not a percentage.
sp $GOV --policies reactive --load-counters sq.valu_busy,tcp.hit.rate
expect_error "a fraction as a load counter" 1 "tcp.hit.rate" "percent busy" "--load-counters"
sp $GOV --policies reactive --load-counters "$LOADS"
expect_rc "percent-busy load counters" 0

finish
