#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# messages.sh (issue 12, item 9): messages that say the fix.  UTF-16 input
# is named as such, with the fix; a missing option value is not called an
# unknown option; the governor's hints name --load-counters, not C fields,
# and load counters that are not percentages are refused instead of
# silently running at the lowest clocks.  An empty output path is a usage
# error; a control character in a value an error quotes is escaped (\n),
# so that it stays one line.  (Full-disk messages naming the
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
# info as every other command (issue 27: its options are a table).
sp info --model
expect_rc "info --model without a value" 1
grep -qF "option '--model' needs a value" err || fail "info, missing value: $(cat err)"
sp info --bogus
expect_rc "info: an unknown option" 1
grep -qF "unknown option '--bogus'" err || fail "info, unknown option: $(cat err)"

# An empty output path is a usage error (issue 26), not a failed rename
# (exit 4) after the work; nothing is written, not even a temporary.
printf 'order,kernel\n1,fft\n2,histogram\n' >trace.csv
H100=$SP_TOP_BUILDDIR/models/h100-sm
[ -f "$H100/manifest.txt" ] || H100=$sp_here/../../models/h100-sm
INPUTS="--runs $NEW/runs.csv --counters $NEW/counters.csv"
TRAIN_IN="--runs $TRAIN/runs.csv --counters $TRAIN/counters.csv"
mkdir empty_out && cd empty_out || exit 1
for cmd in train evaluate dse governor export surfaces complete profile; do
  case $cmd in
    train) sp train --quiet $TRAIN_IN --base "$BASE" --clusters 3 --epochs 20 --out "" ;;
    evaluate) sp evaluate --quiet $TRAIN_IN --repeats 1 --clusters 2 --epochs 20 --report "" ;;
    dse) sp dse --model "$MODEL" $INPUTS --report "" ;;
    governor) sp governor --model "$MODEL" --trace ../trace.csv $INPUTS --report "" ;;
    export) sp export --model "$MODEL" $INPUTS --out "" ;;
    surfaces) sp surfaces --runs "$TRAIN/runs.csv" --out "" ;;
    complete) sp complete --runs "$TRAIN/runs.csv" --out "" ;;
    profile) sp profile --model "$H100" --import "$SP_TEST_DATA/profile/h100-example-ncu.csv" \
      --out "" ;;
  esac
  expect_rc "$cmd with an empty output path" 1
  grep -q "^scalepredict: .*the output path is empty" "$WORK/err" ||
    fail "$cmd with an empty output path: $(cat "$WORK/err")"
  [ -z "$(ls -A)" ] || fail "$cmd with an empty output path left $(ls -A)"
done
cd .. || exit 1

GOV="governor --model $MODEL --trace trace.csv --runs $NEW/runs.csv --counters $NEW/counters.csv"
sp $GOV --policies reactive
expect_error "reactive without its counters" 2 "--load-counters ENGINE,MEMORY" "VALUBusy"
grep -q 'engine_load_counter' err && fail "the hint names a C field: $(cat err)"
# tcp.hit.rate is a fraction (0.12 to 0.93), not a percentage.
sp $GOV --policies reactive --load-counters sq.valu_busy,tcp.hit.rate
expect_error "a fraction as a load counter" 1 "tcp.hit.rate" "percent busy" "--load-counters"
sp $GOV --policies reactive --load-counters "$LOADS"
expect_rc "percent-busy load counters" 0

# A control character in an option's value or a path is shown escaped, so
# that an error stays one line (found by tests/limits/mutate.py).
sp profile --model "$MODEL" --out p --vendor "$(printf 'nv\nid\001ia')"
expect_rc "a newline in an option's value" 1
if [ "$(wc -l <err)" -ne 2 ] || ! grep -qF "not 'nv\\nid\\x01ia'" err ||
  ! grep -q "^Try 'scalepredict profile --help'" err; then
  fail "a newline in an option's value: $(cat err)"
fi
sp info --model "$(printf 'a\nb')"
expect_error "a newline in a path" 3 'a\nb/manifest.txt'

# A directory as a CSV or text input cannot be read: said as such, not as
# "DIR:1: read error", by every reader (runs.csv, a profile to import, a
# families file, a sweep plan).
mkdir adir
sp predict --model "$MODEL" --runs adir --counters "$NEW/counters.csv" --target "$BASE"
expect_error "predict --runs DIR" 4 "scalepredict: adir: cannot read: "
sp plan --runs adir --kernels fft --cu 16,32 --engine-mhz 500 --memory-mhz 475
expect_error "plan --runs DIR" 4 "scalepredict: adir: cannot read: "
sp profile --model "$MODEL" --out p --import adir
expect_error "profile --import DIR" 4 "scalepredict: adir: cannot read: "
sp plan --kernels fft --grid adir
expect_error "plan --grid DIR" 4 "scalepredict: adir: cannot read: "
# An export over one of its inputs names the option that gave it.
mkdir s1 && cp "$NEW/runs.csv" "$NEW/counters.csv" s1/
sp export --model "$MODEL" --runs s1/runs.csv --counters s1/counters.csv --out s1/counters.csv \
  --force
expect_error "export over --counters" 1 "input --counters 's1/counters.csv'"
sp export --model "$MODEL" --runs s1/runs.csv --counters s1/counters.csv --out adir
expect_error "export over a directory" 1 "with an export CSV"
# An empty model name is said as such, not as the root's /manifest.txt.
sp info --model ""
expect_error "info --model ''" 1 "--model: the model name is empty"
grep -qF '/manifest.txt' err && fail "info --model '': $(cat err)"

finish
