#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bad_model.sh: truncated, edited, foreign and missing models through the
# CLI.  Each must exit with 3 (invalid model) and name the file at fault.
. "$(dirname "$0")/lib.sh"

sp train --runs "$TRAIN/runs.csv" --counters "$TRAIN/counters.csv" --base $BASE --clusters 3 \
  --quiet --out good
expect_rc "train" 0

predict() {
  sp predict --model "$1" --runs "$NEW/runs.csv" --counters "$NEW/counters.csv" --target all
}

# fresh NAME: a copy of the good model.
fresh() {
  rm -rf "$1"
  cp -R good "$1"
}

# sign DIR: rewrites DIR/manifest.txt's checksum line for its current body,
# so that the loader's own checks have to catch an edit.
sign() {
  sed '$d' "$1/manifest.txt" >body
  command -v sha256sum >/dev/null 2>&1 || return 1
  { cat body; printf 'sha256 %s\n' "$(sha256sum <body | cut -d' ' -f1)"; } >"$1/manifest.txt"
}

predict good
expect_rc "control" 0

fresh truncated
head -c 700 good/manifest.txt >truncated/manifest.txt
predict truncated
expect_error "truncated manifest" 3 "truncated/manifest.txt" "field 'sha256'" "truncated"

fresh edited
sed '3s/^source -$/source +/' good/manifest.txt >edited/manifest.txt
cmp -s good/manifest.txt edited/manifest.txt && fail "the edit changed nothing"
predict edited
expect_error "one edited byte" 3 "edited/manifest.txt" "checksum"

fresh edited-net
for net in good/time-set-*.net; do break; done
net=${net#good/}
sed '/^connections/s/\([0-9]\)e/\1\1e/' good/"$net" >edited-net/"$net"
cmp -s good/"$net" edited-net/"$net" && fail "the network edit changed nothing"
predict edited-net
expect_error "edited network" 3 "edited-net/$net" "checksum"

fresh no-net
rm no-net/"$net"
predict no-net
expect_error "missing network" 3 "no-net/$net" "missing"

if command -v sha256sum >/dev/null 2>&1; then
  fresh version
  sed '1s/ 2$/ 3/' good/manifest.txt >version/manifest.txt
  sign version
  predict version
  expect_error "another format version" 3 "version/manifest.txt:1:" "field 'scalepredict-model'" "version 3"

  fresh bad-base
  sed 's/^base .*/base 32cu-1000-1375/' good/manifest.txt >bad-base/manifest.txt
  sign bad-base
  predict bad-base
  expect_error "unreadable base" 3 "bad-base/manifest.txt:5:" "field 'base'"
fi

predict missing
expect_error "missing model" 3 "missing/manifest.txt"

# A model directory replaced by a new training stays loadable, and a failed
# training leaves the old model as it was.
cp good/manifest.txt before.txt
sp train --runs "$TRAIN/runs.csv" --counters "$TRAIN/counters.csv" --base $BASE --clusters 2 \
  --quiet --out good
expect_rc "retrain over a model" 0
grep -qx 'clusters 2' good/manifest.txt || fail "retrain did not replace the model"
no_leftovers "retrain" good.tmp
predict good
expect_rc "predict with the replaced model" 0
cp good/manifest.txt after.txt
sp train --runs "$TRAIN/runs.csv" --counters "$NEW/counters.csv" --base $BASE --out good
expect_rc "failed retrain" 2
cmp -s good/manifest.txt after.txt || fail "a failed training changed the model"

finish
