#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# static-score.sh (issue 26): training/data/h100-static/score.sh, the H100
# static method's scoring behind docs/accuracy.md, fails loudly instead of
# printing -nan with exit status 0: a step that fails, a prediction that is
# not a positive number and an empty result each stop it with a message and
# a non-zero exit status, and no table.  (Its real figures are checked by
# docs/doc-commands.sh, which runs the documented command.)
. "$(dirname "$0")/../cli/lib.sh"

top_src=$(cd "${SP_TOP_SRCDIR:-$sp_here/../..}" && pwd)
score=training/data/h100-static/score.sh
[ -f "$top_src/$score" ] || { echo "no $score: skipped" >&2; exit 77; }

# stand-in NAME BODY: a scalepredict that runs BODY for predict and does
# nothing for train.
stand_in() {
  # shellcheck disable=SC2016 # $1 is the stand-in's own argument
  printf '#!/bin/sh\ncase $1 in\ntrain) exit 0 ;;\npredict) %s ;;\nesac\n' "$2" >"$WORK/$1"
  chmod +x "$WORK/$1"
}
stand_in fails 'exit 3'
stand_in nan 'echo kernel,target,base_time_ms,time_ms,measured; echo "k,132cu/1980/2619,1,nan,1"'
stand_in empty 'echo kernel,target,base_time_ms,time_ms,measured'

# expect_loud WHAT PATTERN: score.sh failed, said PATTERN and printed no table.
expect_loud() {
  [ "$rc" -ne 0 ] || fail "$1: exit status 0"
  grep -qF -- "$2" "$WORK/err" || fail "$1: stderr lacks '$2': $(cat "$WORK/err")"
  ! grep -q 'nan' "$WORK/out" || fail "$1: printed a NaN: $(cat "$WORK/out")"
  ! grep -q '^base ' "$WORK/out" || fail "$1: printed a table: $(cat "$WORK/out")"
}

for mode in validation2 lofo; do
  for s in fails nan empty; do
    (cd "$top_src" && SCALEPREDICT="$WORK/$s" sh "$score" "$mode") >"$WORK/out" 2>"$WORK/err"
    rc=$?
    case $s in
    fails) expect_loud "$mode, predict fails" "score.sh: failed (exit status 3)" ;;
    nan) expect_loud "$mode, a NaN prediction" "predicted nan, measured 1 (not a positive number)" ;;
    empty) expect_loud "$mode, no prediction" "no prediction to score (0 at the base, 0 elsewhere)" ;;
    esac
    [ "$mode" = lofo ] && break # lofo trains 51 splits: one failure mode is enough
  done
done

finish
