#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# model_names.sh (issue 26): every command that applies a saved model takes
# a bundled model's name for --model as well as a directory (one lookup,
# cli_find_model): predict, info, dse, export and governor on the bundled
# default model and its samples; an unknown name is the same error, exit 3,
# from each.  (profile and estimate take names in profile.sh, estimate.sh.)
. "$(dirname "$0")/lib.sh"

models=$SP_TOP_BUILDDIR/models
if [ ! -f "$models/hd7970-synth/manifest.txt" ] || [ ! -f "$models/hd7970-synth-samples/runs.csv" ]; then
  echo "the default model is not built: skipped" >&2
  exit 77
fi
SCALEPREDICT_DATADIR=$SP_TOP_BUILDDIR
export SCALEPREDICT_DATADIR
S=$models/hd7970-synth-samples
kernel=$(sed -n 2p "$S/runs.csv" | cut -d, -f1)
printf 'order,kernel\n1,%s\n2,%s\n' "$kernel" "$kernel" >trace.csv
DATA="--runs $S/runs.csv --counters $S/counters.csv"

# shellcheck disable=SC2086
{
  sp predict --model hd7970-synth $DATA --target 16cu/700/925 --format csv
  expect_rc "predict" 0
  expect_out "predict" "$kernel,"
  sp info --model hd7970-synth
  expect_rc "info" 0
  sp export --model hd7970-synth $DATA
  expect_rc "export" 0
  expect_out "export" "$kernel,"
  sp dse --model hd7970-synth $DATA --json
  expect_rc "dse" 0
  expect_out "dse" '"objectives"'
  sp governor --model hd7970-synth --trace trace.csv $DATA --json
  expect_rc "governor" 0
  expect_out "governor" '"policy":"reference"'
  for cmd in "predict --target all $DATA" "export $DATA" "dse $DATA" "governor --trace trace.csv $DATA"; do
    sp $cmd --model no-such-model
    expect_error "${cmd%% *} --model no-such-model" 3 "no-such-model/manifest.txt" \
      "no bundled model of that name"
  done
}
finish
