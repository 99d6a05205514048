#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# help.sh: --help, --version and command-line errors.
. "$(dirname "$0")/lib.sh"

sp --help
expect_rc "--help" 0
expect_out "--help" "Usage: scalepredict" "train" "predict" "surfaces" "--version" "Exit status"
sp -h
expect_rc "-h" 0

sp --version
expect_rc "--version" 0
grep -Eq '^scalepredict [0-9]+\.[0-9]+\.[0-9]+$' "$WORK/out" || fail "--version: $(cat "$WORK/out")"
[ "$(wc -l <"$WORK/out")" -eq 1 ] || fail "--version prints more than one line"

sp train --help
expect_rc "train --help" 0
expect_out "train --help" "Usage: scalepredict train" --runs --counters --base --out \
  --clusters --seed --restarts --epochs --name --source --synthetic --quiet --methods \
  "Methods: wu2015 physet"

sp predict --help
expect_rc "predict --help" 0
expect_out "predict --help" "Usage: scalepredict predict" --model --runs --counters --base \
  --target --kernel --format table csv json

sp surfaces --help
expect_rc "surfaces --help" 0
expect_out "surfaces --help" "Usage: scalepredict surfaces" --runs --kernel --quantity --out

# Usage errors: exit 1, a message and a pointer to --help, no output.
sp
expect_rc "no arguments" 1
grep -q Usage "$WORK/err" || fail "no arguments: no usage on stderr"

usage_error() {
  what=$1
  shift
  sp "$@"
  expect_rc "$what" 1 || return
  grep -q '^scalepredict: ' "$WORK/err" || fail "$what: no message: $(cat "$WORK/err")"
  grep -q -- "--help" "$WORK/err" || fail "$what: no pointer to --help"
  [ ! -s "$WORK/out" ] || fail "$what: output on stdout"
}
usage_error "unknown command" frobnicate
usage_error "unknown option" train --runs "$TRAIN/runs.csv" --colour
usage_error "option without value" predict --model
usage_error "train without --out" train --runs "$TRAIN/runs.csv" --counters "$TRAIN/counters.csv" --base $BASE
usage_error "predict without --target" predict --model m --runs r --counters c
usage_error "surfaces without --runs" surfaces --out s
usage_error "zero clusters" train --runs r --counters c --base $BASE --out m --clusters 0
usage_error "negative seed" train --runs r --counters c --base $BASE --out m --seed -1
usage_error "text epochs" train --runs r --counters c --base $BASE --out m --epochs many
usage_error "unknown method" train --runs r --counters c --base $BASE --out m --methods physet,fir
grep -qF "'fir' is not a method" "$WORK/err" || fail "unknown method: $(cat "$WORK/err")"
usage_error "unknown format" predict --model m --runs r --counters c --target all --format xml
usage_error "unknown quantity" surfaces --runs r --quantity energy
usage_error "stray argument" predict --model m --runs r --counters c --target all extra
usage_error "main job without --target" --base $BASE
[ ! -e m ] || fail "a usage error created the model directory"

# A malformed configuration on the command line is a usage error too, and
# says what a configuration looks like.
for cfg in 32cu/1000 0cu/1/1 -4cu/1/1 32cu/1000/1375x a/b/c; do
  sp train --runs "$TRAIN/runs.csv" --counters "$TRAIN/counters.csv" --base "$cfg" --out m
  expect_error "train --base $cfg" 1 "'$cfg'" "32cu/1000/1375"
  no_leftovers "train --base $cfg" m
done

finish
