#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# strictness.sh (issue 12, item 7): named ways past the loader's
# strictness, each saying what it skipped.  A duplicated counter column (as
# real nvprof exports have) is an error that names --ignore-counter, which
# drops it; counters.csv rows of kernels runs.csv lacks are an error that
# names --skip-unknown-kernels (with --kernel too), which skips them;
# kernels of runs.csv without counter rows are an error that names
# --skip-kernels-without-counters, which leaves them out; a hole
# in the grid names the first missing configuration and how many more, and
# train --skip-incomplete leaves that kernel out; train refuses --clusters
# above the kernel count as evaluate does.
. "$(dirname "$0")/lib.sh"

# ---- a duplicated counter column ----
awk -F, 'BEGIN { OFS = "," } { print $0, (NR == 1 ? "junk" : NR), (NR == 1 ? "junk" : NR) }' \
  "$TRAIN/counters.csv" >dup.csv
TR="train --quiet --runs $TRAIN/runs.csv --base $BASE --clusters 3"
sp $TR --counters dup.csv --out m
expect_error "duplicated column" 2 "dup.csv:1:" "junk" "appears twice" "--ignore-counter junk"
no_leftovers "duplicated column" m
sp $TR --counters dup.csv --ignore-counter junk --out m
expect_rc "--ignore-counter junk" 0
grep -qF "note: dup.csv: ignored the counter 'junk' (2 columns)" err || fail "no note of the ignored counter: $(cat err)"
grep -q '^counters 3$' m/manifest.txt || fail "the model has other counters than the 3 real ones"
grep -q 'junk' m/manifest.txt && fail "the ignored counter is in the model"
sp $TR --counters dup.csv --ignore-counter jnuk --out m2
expect_error "--ignore-counter of no column" 2 "dup.csv:1:" "jnuk" "no counter column"
# predict reads the same file the same way.
sp predict --model m --runs "$TRAIN/runs.csv" --counters dup.csv --target all --ignore-counter junk \
  --format csv
expect_rc "predict --ignore-counter" 0
[ "$(wc -l <out)" -gt 9 ] || fail "predict --ignore-counter: $(cat out)"

# ---- counters.csv rows of kernels that runs.csv lacks ----
{
  cat "$NEW/counters.csv"
  echo "ghost,32,1000,1375,1,2,0.5"
  echo "ghost,16,1000,1375,1,2,0.5"
} >ghost.csv
line=$(grep -n '^ghost,32' ghost.csv | cut -d: -f1)
P="predict --model m --runs $NEW/runs.csv --counters ghost.csv --target 16cu/500/475"
sp $P --kernel fft
expect_error "unknown kernel, --kernel fft" 2 "ghost.csv:$line:1:" "'ghost'" "--skip-unknown-kernels"
sp $P --kernel fft --skip-unknown-kernels
expect_rc "--skip-unknown-kernels" 0
expect_out "--skip-unknown-kernels" "fft"
grep -qF "skipped 2 rows of kernels that $NEW/runs.csv lacks (the first on line $line)" err ||
  fail "no note of the skipped rows: $(cat err)"

# ---- kernels of runs.csv without counter rows (issue 26: the H100 static
# set has features of 298 of h100-train's 571 kernels) ----
{
  cat "$TRAIN/runs.csv"
  grep '^sgemm,' "$TRAIN/runs.csv" | sed 's/^sgemm,/nocount,/'
  grep '^bfs,' "$TRAIN/runs.csv" | sed 's/^bfs,/nocount2,/'
} >uncounted.csv
U="train --quiet --runs uncounted.csv --counters $TRAIN/counters.csv --base $BASE --clusters 3"
sp $U --out u
expect_error "kernel without counters" 2 "'nocount'" "has no counter rows" \
  "--skip-kernels-without-counters"
no_leftovers "kernel without counters" u
sp $U --skip-kernels-without-counters --out u
expect_rc "--skip-kernels-without-counters" 0
grep -qF "note: uncounted.csv: left out 2 kernels without counter rows in $TRAIN/counters.csv (the first: 'nocount')" err ||
  fail "no note of the kernels left out: $(cat err)"
grep -q '^kernels 9$' u/manifest.txt || fail "the model should hold the 9 counted kernels"
grep -q '^kernel nocount' u/manifest.txt && fail "a kernel without counters was trained on"
# The same model as from the runs of the counted kernels alone.
sp train --quiet --runs "$TRAIN/runs.csv" --counters "$TRAIN/counters.csv" --base "$BASE" \
  --clusters 3 --out plain
expect_rc "train on the counted kernels" 0
sp predict --model u --runs "$NEW/runs.csv" --counters "$NEW/counters.csv" --target all --format csv
cp out u.csv
sp predict --model plain --runs "$NEW/runs.csv" --counters "$NEW/counters.csv" --target all \
  --format csv
cmp -s out u.csv || fail "--skip-kernels-without-counters: another model than without those kernels"
# Every command that reads counters.csv takes it (evaluate here); none counted is an error.
sp evaluate --quiet --runs uncounted.csv --counters "$TRAIN/counters.csv" --clusters 3 \
  --methods constant --skip-kernels-without-counters
expect_rc "evaluate --skip-kernels-without-counters" 0
sed -n '1p; 2s/^[^,]*,/ghost,/p' "$TRAIN/counters.csv" >ghostonly.csv
sp $U --counters ghostonly.csv --skip-unknown-kernels --skip-kernels-without-counters --out g
expect_error "no kernel counted" 2 "no kernel of uncounted.csv has a counter row"
no_leftovers "no kernel counted" g

# ---- a hole in the grid ----
# fft loses two of its rows: the error names the first and counts the other.
grep -v '^fft,16,500,' "$NEW/runs.csv" >holes.csv
[ $(($(wc -l <"$NEW/runs.csv") - $(wc -l <holes.csv))) -eq 2 ] || fail "the fixture has no 2 fft rows to drop"
sp train --quiet --runs holes.csv --counters "$NEW/counters.csv" --base "$BASE" --clusters 2 --out h
expect_error "hole" 2 "kernel 'fft' has no row at 16cu/500/475 and 1 other configuration of the grid"
no_leftovers "hole" h
sp train --quiet --runs holes.csv --counters "$NEW/counters.csv" --base "$BASE" --clusters 2 \
  --skip-incomplete --out h
expect_rc "--skip-incomplete" 0
grep -qF "note: skipped: kernel 'fft' has no row at 16cu/500/475" err ||
  fail "no note of the skipped kernel: $(cat err)"
grep -q '^kernels 2$' h/manifest.txt || fail "the model should hold 2 kernels"
grep -q '^kernel fft$' h/manifest.txt && fail "the incomplete kernel was trained on"

# ---- --clusters above the kernel count: refused by train as by evaluate ----
sp train --quiet --runs "$TRAIN/runs.csv" --counters "$TRAIN/counters.csv" --base "$BASE" \
  --clusters 20 --out c
expect_error "train --clusters 20" 1 "9 training kernels are too few for 20 clusters" \
  "--clusters 9 or fewer"
no_leftovers "train --clusters 20" c
sp evaluate --quiet --runs "$TRAIN/runs.csv" --counters "$TRAIN/counters.csv" --clusters 20
[ "$rc" -ne 0 ] || fail "evaluate --clusters 20 was accepted"
grep -q "too few" err || fail "evaluate --clusters 20: $(cat err)"

finish
