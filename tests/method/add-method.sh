#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# add-method.sh: adding a prediction method is one file and one line of
# the method table (src/model/method-table.h, docs/internals.md).
# method/scalepredict is the library's tool built with the tests' method
# (method/mean.c) and the table with its one line (method/method-table.h),
# and nothing else changed (tests/Makefile.am): it trains a model carrying
# "mean", predicts with it, evaluate compares it beside wu2015, and its help
# texts and method lists name it.  The library's own tool knows no "mean".
# shellcheck source=../cli/lib.sh
. "$(cd "$(dirname "$0")/../cli" && pwd)/lib.sh"
top=${SP_TOP_SRCDIR:-$sp_here/../..}
TOOL=${SP_METHOD_TOOL:-$SP_TOP_BUILDDIR/tests/method/scalepredict}
[ -x "$TOOL" ] || { echo "method/scalepredict is not built: $TOOL" >&2; exit 77; }

# ---- what the build changed: one table line, one include line per file ----
[ "$(grep -c '^SP_METHOD(' "$top/tests/method/method-table.h")" -eq 1 ] ||
  fail "tests/method/method-table.h adds more than one line"
for f in model/method.c eval/method-rows.c; do
  copy=$SP_TOP_BUILDDIR/tests/method/gen-$(basename "$f")
  diff "$top/src/$f" "$copy" | grep '^[<>]' >changed
  [ -s changed ] || fail "$copy is src/$f unchanged"
  grep -v '^[<>] #include "\(model/\|method/\)\{0,1\}method-table\.h"$' changed &&
    fail "$copy differs from src/$f in more than its includes of the table"
done

# usage_error WHAT PATTERN...: the last command was refused as a usage
# error (exit 1), its message holding every PATTERN, nothing on stdout.
usage_error() {
  what=$1
  shift
  expect_rc "$what" 1 || return
  for pattern in "$@"; do
    grep -qF -- "$pattern" "$WORK/err" || fail "$what: stderr lacks '$pattern': $(cat "$WORK/err")"
  done
  [ ! -s "$WORK/out" ] || fail "$what: unexpected output"
}

# ---- the library's tool: no "mean" -------------------------------------------
EVAL="evaluate --runs $TRAIN/runs.csv --counters $TRAIN/counters.csv --clusters 2 --repeats 1 \
  --epochs 20 --seed 3 --quiet"
# shellcheck disable=SC2086 # the options are words
sp $EVAL --methods wu2015,mean
usage_error "library: evaluate --methods mean" "unknown method 'mean'"
sp evaluate --help
grep -q '^  mean ' "$WORK/out" && fail "library: evaluate --help lists mean"

# ---- the tool with "mean" ----------------------------------------------------
SCALEPREDICT=$TOOL
sp train --help
expect_rc "train --help" 0
expect_out "train --help" "Methods: wu2015 physet static mean"
sp evaluate --help
expect_rc "evaluate --help" 0
expect_out "evaluate --help" "the training kernels' mean scaling (a test's method)"
sp evaluate --runs "$TRAIN/runs.csv" --counters "$TRAIN/counters.csv" --methods bogus
usage_error "unknown method" "unknown method 'bogus'" "physet, static, mean"

sp train --runs "$TRAIN/runs.csv" --counters "$TRAIN/counters.csv" --base "$BASE" --clusters 3 \
  --epochs 50 --methods physet,mean --out model
expect_rc "train --methods physet,mean" 0
expect_out "train" "methods: wu2015, physet, mean; recommended: mean"
grep -q '^method mean file method-mean.txt sha256 ' model/manifest.txt ||
  fail "the manifest does not list mean: $(cat model/manifest.txt)"
[ -s model/method-mean.txt ] || fail "no method-mean.txt"

# Predicted with mean, every kernel scales alike: time at a target over
# time at the base is the training kernels' mean scaling, one per target.
sp predict --model model --method mean --runs "$NEW/runs.csv" --counters "$NEW/counters.csv" \
  --target all --format csv
expect_rc "predict --method mean" 0
cp "$WORK/out" mean.csv
awk -F, 'NR > 1 { r = $(NF - 14) / $(NF - 15); t = $(NF - 16)
            if ((t in ratio) && (r - ratio[t] > 1e-4 * r || ratio[t] - r > 1e-4 * r)) bad = 1
            ratio[t] = r; n++ }
         END { exit bad || n < 16 }' mean.csv ||
  fail "predict --method mean: kernels scale differently: $(cat mean.csv)"
sp predict --model model --method wu2015 --runs "$NEW/runs.csv" --counters "$NEW/counters.csv" \
  --target all --format csv
expect_rc "predict --method wu2015" 0
cmp -s "$WORK/out" mean.csv && fail "predict: mean predicts as wu2015 does"

# evaluate compares it: a record per held-out kernel and target, as many
# as wu2015's at one cluster count.
# shellcheck disable=SC2086 # the options are words
sp $EVAL --methods wu2015,mean --json
expect_rc "evaluate --methods wu2015,mean" 0
n_wu=$(sed -n 's/.*"wu2015":{"time_mape_pct":[^}]*"time_n":\([0-9]*\).*/\1/p' "$WORK/out")
n_mean=$(sed -n 's/.*"mean":{"time_mape_pct":[^}]*"time_n":\([0-9]*\).*/\1/p' "$WORK/out")
[ -n "$n_mean" ] && [ "$n_mean" -gt 0 ] && [ "$n_mean" = "$n_wu" ] ||
  fail "evaluate: mean scored $n_mean times, wu2015 $n_wu: $(head -c 600 "$WORK/out")"
grep -q '"method":"mean","quantity":"time"' "$WORK/out" || fail "evaluate: no record of mean"
finish
