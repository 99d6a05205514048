#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# write_errors.sh (issue 12, items 2 and 9): every write is checked.  Each
# command's standard output sent to /dev/full (predict in every format, the
# default command, evaluate, dse, governor, export, surfaces, train's
# summary, --help) exits 4 with one message naming standard output and the
# cause.  Then, in a 4 KiB tmpfs (mounted in a user namespace; skipped
# where unshare cannot do that), every file and directory output fails the
# same way, naming the user's path (not a temporary one), and leaves
# nothing there: no temporary, no half-written file, no empty directory.
# An output into a read-only or unwritable directory names the directory
# and the cause (issue 26).
. "$(cd "$(dirname "$0")/../dse" && pwd)/lib.sh"

printf 'order,kernel\n1,fft\n2,histogram\n' >trace.csv
INPUTS="--runs $NEW/runs.csv --counters $NEW/counters.csv"
TRAIN_IN="--runs $TRAIN/runs.csv --counters $TRAIN/counters.csv"

# full WHAT ARGS...: scalepredict ARGS > /dev/full fails as it should.
full() {
  what=$1
  shift
  # shellcheck disable=SC2086
  $SP_WRAPPER "$SCALEPREDICT" "$@" >/dev/full 2>"$WORK/err"
  rc=$?
  expect_rc "$what > /dev/full" 4 || return
  grep -q '^scalepredict: standard output: cannot write: No space left on device$' err ||
    fail "$what > /dev/full: no message naming standard output: $(cat err)"
  [ "$(grep -c 'standard output' err)" -eq 1 ] || fail "$what > /dev/full: $(cat err)"
}

for f in table csv json; do
  full "predict --format $f" predict --model "$MODEL" $INPUTS --target all --format $f
done
models=$SP_TOP_BUILDDIR/models
if [ -f "$models/hd7970-synth/manifest.txt" ]; then
  SCALEPREDICT_DATADIR=$SP_TOP_BUILDDIR full "the default command" --target all
else
  echo "no bundled model: the default command is not tried" >&2
fi
EVAL="evaluate --quiet $TRAIN_IN --repeats 1 --clusters 2 --epochs 20"
full "evaluate" $EVAL
full "evaluate --json" $EVAL --json
full "dse" dse --model "$MODEL" $INPUTS
full "dse --json" dse --model "$MODEL" $INPUTS --json
GOV="governor --model $MODEL --trace trace.csv $INPUTS --policies reference,model"
full "governor" $GOV
full "governor --json" $GOV --json
full "export" export --model "$MODEL" $INPUTS
full "surfaces" surfaces --runs "$TRAIN/runs.csv" --out surf
full "train" train $TRAIN_IN --base "$BASE" --clusters 3 --epochs 20 --out trained
full "--help" --help
full "dse --help" dse --help

# ---- a full file system ----
if ! unshare -Urm true 2>/dev/null; then
  echo "unshare cannot mount a tmpfs here: the full file system cases are skipped" >&2
  finish
fi
mkdir mnt
# in_tmpfs ARGS...: runs scalepredict ARGS in a fresh 4 KiB tmpfs on mnt,
# output in out, errors in err, status in rc; what is left in mnt in left.
in_tmpfs() {
  # shellcheck disable=SC2016
  unshare -Urm sh -c 'mount -t tmpfs -o size=4k none mnt || exit 99
    "$@" >out 2>err
    echo $? >rc
    ls -A mnt >left' sh $SP_WRAPPER "$SCALEPREDICT" "$@"
  rc=$(cat rc)
}
# in_tmpfs_stdout ARGS...: the same with standard output into mnt/out.
in_tmpfs_stdout() {
  # shellcheck disable=SC2016
  unshare -Urm sh -c 'mount -t tmpfs -o size=4k none mnt || exit 99
    "$@" >mnt/out 2>err
    echo $? >rc
    : >out' sh $SP_WRAPPER "$SCALEPREDICT" "$@"
  rc=$(cat rc)
}

# tmpfs_full WHAT TARGET ARGS...: the output TARGET (under mnt) did not fit.
tmpfs_full() {
  what=$1
  target=$2
  shift 2
  in_tmpfs "$@"
  expect_error "$what in a full tmpfs" 4 "$target" "No space left on device"
  grep -q '\.tmp-' err && fail "$what: the message names a temporary path: $(cat err)"
  [ ! -s left ] || fail "$what: left behind in the tmpfs: $(cat left)"
}

tmpfs_full "train --out" mnt/model train --quiet $TRAIN_IN --base "$BASE" --clusters 3 \
  --epochs 20 --out mnt/model
tmpfs_full "evaluate --report" mnt/rep $EVAL --report mnt/rep
tmpfs_full "dse --report" mnt/rep dse --model "$MODEL" $INPUTS --report mnt/rep
tmpfs_full "governor --report" mnt/rep $GOV --report mnt/rep
tmpfs_full "export --out" mnt/x.csv export --model "$MODEL" $INPUTS --grid-interp 4 \
  --out mnt/x.csv
tmpfs_full "surfaces --out" mnt/s/time.csv surfaces --runs "$TRAIN/runs.csv" --out mnt/s

# complete --out (issue 26): the path and the cause, not "write error".
{
  head -n 1 "$TRAIN/runs.csv"
  for i in 1 2 3 4 5 6; do tail -n +2 "$TRAIN/runs.csv" | sed "s/^\"/\"k$i-/; t; s/^/k$i-/"; done
} >many.csv
[ "$(wc -c <many.csv)" -gt 8192 ] || fail "many.csv is too small to fill the tmpfs"
tmpfs_full "complete --out" mnt/c.csv complete --runs many.csv --out mnt/c.csv
grep -q "write error" err && fail "complete --out: $(cat err)"

# Standard output into the full tmpfs: a status, not a silent truncation.
in_tmpfs_stdout predict --model "$MODEL" $INPUTS --target all --format json
expect_rc "predict into a full tmpfs" 4
grep -qF "standard output: cannot write: No space left on device" err ||
  fail "predict into a full tmpfs: $(cat err)"

# ---- a directory that takes no new entries (issue 26) ----
# Every output there fails naming the directory and why, not "No such file
# or directory": a read-only file system (root hits it too), then a
# directory without write permission (as root, one whose owner the user
# namespace does not map, so that root there may not write it either).
# unwritable WHERE CAUSE RUN: each output into WHERE fails, run by RUN.
unwritable() {
  where=$1
  cause=$2
  run=$3
  P=$SP_TEST_DATA/profile/h100-example-ncu.csv
  H100=$SP_TOP_BUILDDIR/models/h100-sm
  [ -f "$H100/manifest.txt" ] || H100=$sp_here/../../models/h100-sm
  for cmd in train evaluate dse governor export surfaces complete profile; do
    case $cmd in
      train) set -- train --quiet $TRAIN_IN --base "$BASE" --clusters 3 --epochs 20 --out "$where/o" ;;
      evaluate) set -- $EVAL --report "$where/o" ;;
      dse) set -- dse --model "$MODEL" $INPUTS --report "$where/o" ;;
      governor) set -- $GOV --report "$where/o" ;;
      export) set -- export --model "$MODEL" $INPUTS --out "$where/o" ;;
      surfaces) set -- surfaces --runs "$TRAIN/runs.csv" --out "$where/o" ;;
      complete) set -- complete --runs many.csv --out "$where/o" ;;
      profile) set -- profile --model "$H100" --import "$P" --out "$where/o" ;;
    esac
    $run "$@"
    expect_error "$cmd into $where ($cause)" 4 "$where/o: cannot be written: its directory '$where' is not writable ($cause)"
    grep -q "No such file" err && fail "$cmd into $where ($cause): $(cat err)"
    [ -z "$(ls -A "$where")" ] || fail "$cmd into $where ($cause): left $(ls -A "$where")"
  done
}
# in_ro ARGS...: scalepredict ARGS with a read-only tmpfs on ro.
# shellcheck disable=SC2317 # called as unwritable's RUN
in_ro() {
  # shellcheck disable=SC2016
  unshare -Urm sh -c 'mount -t tmpfs -o ro none ro || exit 99
    "$@" >out 2>err
    echo $? >rc' sh $SP_WRAPPER "$SCALEPREDICT" "$@"
  rc=$(cat rc)
}
mkdir ro
unwritable ro "Read-only file system" in_ro
# as_other ARGS...: scalepredict ARGS where root does not own locked.
# shellcheck disable=SC2317 # called as unwritable's RUN
as_other() {
  unshare -Ur sh -c '"$@" >out 2>err; echo $? >rc' sh $SP_WRAPPER "$SCALEPREDICT" "$@"
  rc=$(cat rc)
}
mkdir locked
chmod 555 locked
if [ "$(id -u)" -ne 0 ]; then
  unwritable locked "Permission denied" sp
elif chown 12345:12345 locked 2>/dev/null; then
  unwritable locked "Permission denied" as_other
else
  echo "cannot give locked another owner: the unwritable directory case is skipped" >&2
fi

finish
