#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# main_job.sh: "scalepredict --base CFG --target CFG" on the bundled default
# model, when it has been built (skipped otherwise).
. "$(dirname "$0")/lib.sh"

models=$SP_TOP_BUILDDIR/models
if [ ! -f "$models/hd7970-synth/manifest.txt" ] || [ ! -f "$models/hd7970-synth-samples/runs.csv" ]; then
  echo "the default model is not built: skipped" >&2
  exit 77
fi
SCALEPREDICT_DATADIR=$SP_TOP_BUILDDIR
export SCALEPREDICT_DATADIR

# Distinct kernels of the bundled samples.
if have_python; then
  kernels=$(python3 -c 'import csv, sys
print(len({r["kernel"] for r in csv.DictReader(open(sys.argv[1]))}))' \
    "$models/hd7970-synth-samples/runs.csv")
else
  kernels=$(tail -n +2 "$models/hd7970-synth-samples/runs.csv" | cut -d, -f1 | sort -u | wc -l)
fi
[ "$kernels" -gt 0 ] || fail "no sample kernels"

sp --base $BASE --target 16cu/700/925
expect_rc "main job" 0
expect_out "main job" "hd7970-synth" "SYNTHETIC" "16cu/700/925"
rows=$(grep -c ' 16cu/700/925 ' "$WORK/out")
[ "$rows" -eq "$kernels" ] || fail "main job: $rows rows for $kernels sample kernels"

sp --base $BASE --target 16cu/700/925 --format csv
expect_rc "main job csv" 0
[ "$(($(wc -l <"$WORK/out") - 1))" -eq "$kernels" ] || fail "main job csv: row count"
awk -F, 'NR > 1 && ($4 <= 0 || $8 <= 0) { bad = 1 } END { exit bad }' "$WORK/out" ||
  fail "main job csv: a prediction is not positive"

sp --base $BASE --target $BASE --format csv
expect_rc "main job at the base" 0
awk -F, 'NR > 1 && $1 !~ /"/ && ($3 != $4 || $7 != $8) { bad = 1 } END { exit bad }' "$WORK/out" ||
  fail "main job at the base: prediction differs from the base value"

sp --base $BASE --target 17cu/700/925
expect_error "main job off the grid" 2 "field 'target'" "17cu/700/925"
sp --base 16cu/700/925 --target $BASE
expect_error "main job with another base" 2 "field 'base'" "32cu/1000/1375"

finish
