#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# outputs_kept.sh (issue 12, item 1): no command replaces what the user
# owns.  Every output target (train --out, evaluate/dse/governor --report,
# export --out, the files of surfaces --out) is tried on a directory of
# user files and on a regular file: each is refused with a message naming
# it and --force, and nothing there changes.  An older artefact of the same
# kind (marker file, or a model's manifest) is replaced; --force replaces a
# directory but never turns a file into a directory; no temporary sibling
# is left, even after SIGTERM.  Issue 26: a profile is replaced by no other
# output, --force or not (also one an older version marked as a report);
# files the user added inside an older model or report are kept: refused,
# naming the first, unless --force, which says what it removes; no output
# replaces an input of its command (the same file, by another name too, or
# a directory holding one), --force or not, and complete still writes every
# measured row of its input.
. "$(cd "$(dirname "$0")/../dse" && pwd)/lib.sh"

RUNS=$TRAIN/runs.csv
COUNTERS=$TRAIN/counters.csv

# user_dir DIR: a project directory holding the user's inputs and notes.
user_dir() {
  rm -rf "$1"
  mkdir -p "$1"
  cp "$RUNS" "$COUNTERS" "$1/"
  echo "my notes" >"$1/notes.txt"
  (cd "$1" && ls -A | sort && cat notes.txt && cksum runs.csv counters.csv) >"$1.before"
}

# unchanged WHAT DIR: DIR holds exactly what user_dir put there.
unchanged() {
  (cd "$2" && ls -A | sort && cat notes.txt && cksum runs.csv counters.csv) >"$2.after" 2>&1
  cmp -s "$2.before" "$2.after" || fail "$1: the user's directory $2 changed"
  no_leftovers "$1" "$2.nonexistent"
  for f in "$2".tmp-* "$2".old-*; do [ ! -e "$f" ] || fail "$1: $f left behind"; done
}

# refused WHAT PATH: the last command refused PATH, saying what to do.
refused() {
  expect_error "$1" 1 "$2" "nothing was written"
}

# user_file FILE: a regular file of the user's; file_unchanged checks it.
user_file() {
  printf 'kernel,cu,engine_mhz,memory_mhz,time_ms,power_w\nmine,1,2,3,4,5\n' >"$1"
  cp "$1" "$1.before"
}
file_unchanged() {
  cmp -s "$2" "$2.before" || fail "$1: the user's file $2 changed"
  for f in "$2".tmp-* "$2".old-*; do [ ! -e "$f" ] || fail "$1: $f left behind"; done
}

TRAIN_ARGS="train --quiet --runs $RUNS --counters $COUNTERS --base $BASE --clusters 3"
EVAL_ARGS="evaluate --quiet --runs $RUNS --counters $COUNTERS --repeats 1 --clusters 2 --epochs 20"
DSE_ARGS="dse --model $MODEL --runs $NEW/runs.csv --counters $NEW/counters.csv"
printf 'order,kernel\n1,fft\n2,histogram\n' >trace.csv
GOV_ARGS="governor --model $MODEL --trace trace.csv --policies reference,model --runs $NEW/runs.csv --counters $NEW/counters.csv"
EXP_ARGS="export --model $MODEL --runs $NEW/runs.csv --counters $NEW/counters.csv"

# ---- directories of user files are refused, and kept ----
for cmd in train evaluate dse governor; do
  user_dir proj
  case $cmd in
    train) sp $TRAIN_ARGS --out proj ;;
    evaluate) sp $EVAL_ARGS --report proj ;;
    dse) sp $DSE_ARGS --report proj ;;
    governor) sp $GOV_ARGS --report proj ;;
  esac
  refused "$cmd into a user directory" proj
  grep -qF -- "--force" err || fail "$cmd: the message does not name --force: $(cat err)"
  unchanged "$cmd into a user directory" proj
done

# ---- regular files are refused as directory targets, even with --force ----
for cmd in train evaluate dse governor; do
  for force in "" --force; do
    user_file target.csv
    case $cmd in
      train) sp $TRAIN_ARGS --out target.csv $force ;;
      evaluate) sp $EVAL_ARGS --report target.csv $force ;;
      dse) sp $DSE_ARGS --report target.csv $force ;;
      governor) sp $GOV_ARGS --report target.csv $force ;;
    esac
    refused "$cmd $force into a file" target.csv
    grep -qF "never replaced" err || fail "$cmd $force: no 'never replaced' in $(cat err)"
    file_unchanged "$cmd $force into a file" target.csv
  done
done

# ---- file outputs: a user's CSV and a directory are refused ----
user_file target.csv
sp $EXP_ARGS --out target.csv
refused "export over a user's CSV" target.csv
file_unchanged "export over a user's CSV" target.csv
user_dir proj
sp $EXP_ARGS --out proj
refused "export over a directory" proj
unchanged "export over a directory" proj
mkdir surf
user_file surf/time.csv
sp surfaces --runs "$RUNS" --out surf
refused "surfaces over a user's time.csv" surf/time.csv
file_unchanged "surfaces over a user's time.csv" surf/time.csv
user_file notadir
sp surfaces --runs "$RUNS" --out notadir
expect_rc "surfaces into a file" 4
file_unchanged "surfaces into a file" notadir

# ---- the same kind of artefact is replaced; an empty directory is filled ----
mkdir empty
sp $TRAIN_ARGS --out empty
expect_rc "train into an empty directory" 0
[ -f empty/.scalepredict-model ] || fail "a model has no .scalepredict-model marker"
sp $TRAIN_ARGS --seed 2 --out empty
expect_rc "train over an older model" 0
grep -q '^seed 2$' empty/manifest.txt || fail "the older model was not replaced"
# A model saved before markers existed is recognised by its manifest.
cp -R "$MODEL" legacy && rm legacy/.scalepredict-model
sp $TRAIN_ARGS --out legacy
expect_rc "train over a model without a marker" 0
# A report does not replace a model, nor a model a report.
sp $DSE_ARGS --report empty
refused "dse report over a model" empty
sp $DSE_ARGS --report rep
expect_rc "dse report" 0
[ -f rep/.scalepredict-report ] || fail "a report has no .scalepredict-report marker"
sp $GOV_ARGS --report rep
expect_rc "governor report over a dse report" 0
sp $TRAIN_ARGS --out rep
refused "train over a report" rep
sp $EXP_ARGS --out m.csv
expect_rc "export" 0
sp $EXP_ARGS --layout wide --out m.csv
expect_rc "export over an older export" 0
sp surfaces --runs "$RUNS" --out surf2
sp surfaces --runs "$RUNS" --out surf2
expect_rc "surfaces over older surfaces" 0

# ---- --force replaces a directory of user files when asked ----
user_dir proj
sp $DSE_ARGS --report proj --force
expect_rc "dse --force" 0
[ -f proj/index.html ] && [ ! -e proj/notes.txt ] || fail "--force did not replace proj"
user_file target.csv
sp $EXP_ARGS --out target.csv --force
expect_rc "export --force" 0
head -n 1 target.csv | grep -q '^kernel,config,' || fail "--force did not replace target.csv"

# ==== issue 26: what an output never replaces ====
# snap DIR: every path under DIR and every file's checksum, to compare the
# directory byte for byte; same_tree WHAT DIR: DIR is as snap saw it in
# DIR.before, with no temporary sibling left.
snap() {
  (cd "$1" && find . | LC_ALL=C sort && find . -type f -exec cksum {} + | LC_ALL=C sort)
}
same_tree() {
  snap "$2" >"$2.after" 2>&1
  cmp -s "$2.before" "$2.after" || fail "$1: $2 changed: $(diff "$2.before" "$2.after" | head -5)"
  for f in "$2".tmp-* "$2".old-*; do [ ! -e "$f" ] || fail "$1: $f left behind"; done
}

# ---- item 1: a report never replaces a profile ----
H100=$SP_TOP_BUILDDIR/models/h100-sm
[ -f "$H100/manifest.txt" ] || H100=$sp_here/../../models/h100-sm
sp profile --model "$H100" --out prof --import "$SP_TEST_DATA/profile/h100-example-ncu.csv"
expect_rc "profile --import" 0
[ -f prof/.scalepredict-profile ] && [ ! -e prof/.scalepredict-report ] ||
  fail "a profile is not marked as a profile: $(ls -A prof)"
# The powers the user reads off the board and types in (ncu records none).
sed 's/,$/,251.5/' prof/runs.csv >typed.csv && mv typed.csv prof/runs.csv
snap prof >prof.before
H100_DSE="dse --model $H100 --profile prof"
sp $H100_DSE --report profrep
expect_rc "dse --profile with typed powers" 0
for force in "" --force; do
  sp $H100_DSE --report prof $force
  expect_error "dse --profile prof --report prof $force" 1 "prof: will not write the report" \
    "input --profile 'prof'" "not even with --force" "nothing was written"
  same_tree "dse --profile prof --report prof $force" prof
  sp $H100_DSE --report prof/ $force
  expect_error "dse --profile prof --report prof/ $force" 1 "input --profile 'prof'"
  same_tree "dse --profile prof --report prof/ $force" prof
  for cmd in evaluate governor dse train; do
    case $cmd in
      evaluate) sp $EVAL_ARGS --report prof $force ;;
      governor) sp $GOV_ARGS --report prof $force ;;
      dse) sp $DSE_ARGS --report prof $force ;;
      train) sp $TRAIN_ARGS --out prof $force ;;
    esac
    expect_error "$cmd $force over a profile" 1 "prof: will not replace this directory: it is a profile" \
      "not even with --force"
    same_tree "$cmd $force over a profile" prof
  done
done
# A profile an older version wrote carries the report marker.
cp -R prof oldprof && rm oldprof/.scalepredict-profile
echo 'written by scalepredict 0.1.0: this report may be replaced by the next one' \
  >oldprof/.scalepredict-report
snap oldprof >oldprof.before
sp $DSE_ARGS --report oldprof --force
expect_error "dse --force over an older profile" 1 "oldprof: will not replace this directory: it is a profile"
same_tree "dse --force over an older profile" oldprof
sp $H100_DSE --report oldprof
expect_error "dse over an older profile" 1 "it is a profile"
same_tree "dse over an older profile" oldprof

# ---- item 2: files the user added inside an older output are kept ----
# make_out CMD DIR [--force]: CMD's output (model or report) into DIR.
make_out() {
  case $1 in
    train) sp $TRAIN_ARGS --out "$2" ${3:-} ;;
    evaluate) sp $EVAL_ARGS --report "$2" ${3:-} ;;
    dse) sp $DSE_ARGS --report "$2" ${3:-} ;;
    governor) sp $GOV_ARGS --report "$2" ${3:-} ;;
  esac
}
for cmd in train evaluate dse governor; do
  kind=report
  [ $cmd = train ] && kind=model
  rm -rf art
  make_out $cmd art
  expect_rc "$cmd into art" 0
  echo "my notes" >art/NOTES.txt
  mkdir art/plots && echo "<svg/>" >art/plots/mine.svg
  snap art >art.before
  make_out $cmd art
  expect_error "$cmd over its output with the user's files" 1 "art: will not replace this $kind" \
    "'NOTES.txt'" "2 entries scalepredict did not write" "--force"
  same_tree "$cmd over its output with the user's files" art
  # --force replaces it and says what goes.
  make_out $cmd art --force
  expect_rc "$cmd --force over its output with the user's files" 0
  grep -qF "note: --force: replacing art removes 2 entries scalepredict did not write: NOTES.txt, plots" err ||
    fail "$cmd --force: no note naming the user's files: $(cat err)"
  [ ! -e art/NOTES.txt ] && [ ! -e art/plots ] || fail "$cmd --force: the user's files are still there"
  [ -f art/.scalepredict-$kind ] || fail "$cmd --force: no marker"
  # Without the user's files, the next one replaces it, saying nothing.
  make_out $cmd art
  expect_rc "$cmd over its own output" 0
  grep -q "note: --force" err && fail "$cmd: a note without --force: $(cat err)"
done
# The marker lists what was written, and nothing else is replaced.
grep -qx 'file manifest.txt' empty/.scalepredict-model || fail "the model's marker lists no files"
# Outputs an older version wrote: a marker of one line, or a model with no
# marker, stand for the names that kind of output has.
cp -R "$MODEL" m1 && echo 'written by scalepredict 0.1.0: this model may be replaced by the next one' \
  >m1/.scalepredict-model
cp -R "$MODEL" m0 && rm m0/.scalepredict-model
for m in m1 m0; do
  echo "my notes" >$m/NOTES.txt
  snap $m >$m.before
  sp $TRAIN_ARGS --out $m
  expect_error "train over an older model ($m) with the user's notes" 1 "'NOTES.txt'"
  same_tree "train over an older model ($m) with the user's notes" $m
  rm $m/NOTES.txt
  sp $TRAIN_ARGS --out $m
  expect_rc "train over an older model ($m)" 0
done
make_out dse r1
echo 'written by scalepredict 0.1.0: this report may be replaced by the next one' \
  >r1/.scalepredict-report
echo "my notes" >r1/NOTES.txt
snap r1 >r1.before
make_out governor r1
expect_error "governor over an older report with the user's notes" 1 "'NOTES.txt'"
same_tree "governor over an older report with the user's notes" r1
rm r1/NOTES.txt
make_out evaluate r1
expect_rc "evaluate over an older dse report" 0

# ---- item 3: an output never replaces an input ----
header=kernel,cu,engine_mhz,memory_mhz,time_ms,power_w
{
  echo "$header"
  grep -E ',(32,1000,1375|16,500,475|16,1000,1375),' "$RUNS"
} >partial.csv
sp complete --runs partial.csv --out full.csv
expect_rc "complete" 0
measured=$(grep -c ',measured$' full.csv)
[ "$measured" -eq 27 ] || fail "complete: $measured measured rows, want 27"
cp full.csv full.before
ln full.csv link.csv
for force in "" --force; do
  for out in full.csv link.csv; do
    sp complete --runs full.csv --cu 32 --out $out $force
    expect_error "complete --runs full.csv --out $out $force" 1 \
      "$out: will not write the completed runs CSV here: it is this command's input --runs 'full.csv'" \
      "not even with --force"
    cmp -s full.csv full.before || fail "complete --out $out $force changed its input"
  done
done
# The completion still carries every measured row of its input.
sp complete --runs full.csv --out again.csv
expect_rc "complete from a completion" 0
grep ',measured$' full.csv | LC_ALL=C sort >m.want
grep ',measured$' again.csv | LC_ALL=C sort >m.got
cmp -s m.want m.got || fail "complete dropped or altered measured rows"
# Every command that writes: an input (or the directory holding one) as
# its output is refused, --force or not, and left as it was.
for cmd in train evaluate dse governor export surfaces complete; do
  user_dir inp
  cp trace.csv inp/trace.csv
  cp "$RUNS" inp/time.csv
  printf 'name,config\nmine,32cu/1000/1375\n' >inp/candidates.csv
  snap inp >inp.before
  case $cmd in
    train) sp $TRAIN_ARGS --runs inp/runs.csv --out inp --force ;;
    evaluate) sp $EVAL_ARGS --counters inp/counters.csv --report inp --force ;;
    dse) sp dse --model "$MODEL" --runs "$NEW/runs.csv" --counters "$NEW/counters.csv" \
      --candidates inp/candidates.csv --report inp --force ;;
    governor) sp $GOV_ARGS --trace inp/trace.csv --report inp --force ;;
    export) sp export --model "$MODEL" --runs inp/runs.csv --counters inp/counters.csv \
      --out inp/runs.csv --force ;;
    surfaces) sp surfaces --runs inp/time.csv --out inp --force ;;
    complete) sp complete --runs inp/runs.csv --out inp/runs.csv --force ;;
  esac
  expect_error "$cmd over its own input" 1 "this command's input" "not even with --force"
  same_tree "$cmd over its own input" inp
done
# A directory above an input, also where a link leads.
mkdir -p nest/deep && cp "$RUNS" nest/deep/runs.csv && ln -s nest/deep/runs.csv linked.csv
snap nest >nest.before
for runs in nest/deep/runs.csv linked.csv; do
  sp $TRAIN_ARGS --runs $runs --out nest --force
  expect_error "train --runs $runs --out nest" 1 "nest: will not write the model here: it holds" \
    "input --runs '$runs'"
  same_tree "train --runs $runs --out nest" nest
done
# A file in an input directory (a model's manifest, a profile's runs.csv),
# also through a link: refused with --force too, the directory kept whole.
cp -R "$MODEL" ownmodel
ln -s ownmodel/manifest.txt manifest-link.txt
snap ownmodel >ownmodel.before
for out in ownmodel/manifest.txt manifest-link.txt ownmodel/method-physet.txt; do
  sp export --model ownmodel --runs "$NEW/runs.csv" --counters "$NEW/counters.csv" --out $out --force
  expect_error "export --out $out --force" 1 "will not write the export CSV here: it is in this command's input --model 'ownmodel'" \
    "not even with --force"
  same_tree "export --out $out --force" ownmodel
done
sp info --model ownmodel
expect_rc "the model after the refused exports" 0
# A new file there is no replacement: written.
sp export --model ownmodel --runs "$NEW/runs.csv" --counters "$NEW/counters.csv" --out ownmodel/new.csv
expect_rc "export --out ownmodel/new.csv" 0

# ---- SIGTERM while an output is being written removes its temporary ----
# (SIGINT runs the same handler, but a shell starts background commands
# with SIGINT ignored, and the tool leaves ignored signals ignored.)  The
# bundled model's 108 kernels on a refined grid take a second or so; when a
# command finishes before it can be interrupted, that case is not exercised
# (and says so).
# interrupt WHAT OUT ARGS...: runs scalepredict ARGS in the background,
# sends SIGTERM once OUT.tmp-* appears, and checks that the command failed
# and left neither OUT nor its temporary.
interrupt() {
  what=$1
  target=$2
  shift 2
  "$SCALEPREDICT" "$@" >/dev/null 2>&1 &
  pid=$!
  seen=0
  for _ in $(seq 1 400); do
    if ls "$target".tmp-* >/dev/null 2>&1; then
      seen=1
      kill -TERM "$pid"
      break
    fi
    sleep 0.01
  done
  wait "$pid"
  status=$?
  if [ "$seen" -eq 0 ]; then
    echo "$what ended before it could be interrupted: SIGTERM not exercised" >&2
    return
  fi
  [ "$status" -ne 0 ] || fail "SIGTERM: $what still exited 0"
  for f in "$target".tmp-*; do [ ! -e "$f" ] || fail "SIGTERM during $what left $f behind"; done
  [ ! -e "$target" ] || fail "SIGTERM during $what left $target"
}
models=$SP_TOP_BUILDDIR/models
if [ -f "$models/hd7970-synth/manifest.txt" ]; then
  BIG="--model $models/hd7970-synth --runs $models/hd7970-synth-samples/runs.csv
    --counters $models/hd7970-synth-samples/counters.csv"
  interrupt "export --out" big.csv export $BIG --grid-interp 10 --out big.csv
  interrupt "dse --report" bigrep dse $BIG --grid-interp 18 --report bigrep
else
  echo "no bundled model: SIGTERM not exercised" >&2
fi

finish
