#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# endless.sh (issue 26, item 8): every reader of the tool is bounded.  A
# model whose manifest, method or network file is /dev/zero (or a FIFO),
# plan and complete --grid /dev/zero, endless blank lines, and /dev/zero as
# every other input (runs, counters, weights, candidates, a trace, a
# profile, launch counts, PTX, families) each end at once with one located
# line; a NUL byte in a sweep plan, a PTX module or a model manifest is
# refused with FILE:LINE; a FIFO nobody writes reads as empty wherever it
# is given, and so does one already read (train's checksum); the profiler's
# log is read with the same bounds.  Every command runs under `timeout 20`:
# one that is still reading then has hung, which is a failure, not a wait.
. "$(cd "$(dirname "$0")/../dse" && pwd)/lib.sh"

# spt ARGS...: sp under a 20-second limit.
spt() {
  # shellcheck disable=SC2086
  timeout 20 $SP_WRAPPER "$SCALEPREDICT" "$@" >"$WORK/out" 2>"$WORK/err"
  rc=$?
  [ "$rc" -ne 124 ] || fail "scalepredict $*: still reading after 20 s"
}

D="--runs $NEW/runs.csv --counters $NEW/counters.csv"

# ---- a model's files ----
# broken NAME FILE: a copy of the model as NAME whose FILE is a link to
# /dev/zero (FILE "fifo:X": X is a FIFO nobody writes to).
broken() {
  cp -r "$MODEL" "$1"
  case $2 in
    fifo:*) rm "$1/${2#fifo:}" && mkfifo "$1/${2#fifo:}" ;;
    *) rm "$1/$2" && ln -s /dev/zero "$1/$2" ;;
  esac
}
for n in "$MODEL"/*.net; do
  net=${n##*/}
  break
done
[ -f "$MODEL/$net" ] || fail "the test model has no network file"
for f in manifest.txt method-physet.txt "$net" fifo:manifest.txt "fifo:$net"; do
  name=m-$(echo "$f" | tr ':.' '--')
  broken "$name" "$f"
  spt info --model "$name"
  expect_error "info, $f" 3 "$name/${f#fifo:}:" "not a regular file"
  # shellcheck disable=SC2086
  spt predict --model "$name" $D --target all
  expect_error "predict, $f" 3 "$name/${f#fifo:}:" "not a regular file"
done
# --model naming /dev/zero itself, or a file.
# shellcheck disable=SC2086
spt predict --model /dev/zero $D --target all
[ "$rc" -ne 0 ] || fail "predict --model /dev/zero succeeded"
spt info --model "$MODEL/manifest.txt"
[ "$rc" -ne 0 ] || fail "info --model FILE succeeded"
# A NUL byte in the manifest, its checksum correct.
cp -r "$MODEL" m-nul
sed '$d' "$MODEL/manifest.txt" >body
{ head -n 1 body; printf 'name a\000b\n'; tail -n +3 body; } >body2
{ cat body2; echo "sha256 $(sha256sum body2 | cut -c1-64)"; } >m-nul/manifest.txt
spt info --model m-nul
expect_error "a NUL byte in a manifest" 3 "m-nul/manifest.txt:2:" "NUL byte"

# ---- plan and complete: the sweep plan's grid ----
spt plan --grid /dev/zero --kernels a
expect_error "plan --grid /dev/zero" 2 "/dev/zero:1:1:" "NUL byte"
spt complete --grid /dev/zero --runs "$NEW/runs.csv"
expect_error "complete --grid /dev/zero" 2 "/dev/zero:1:1:" "NUL byte"
printf 'cu=16,32\nengine_mhz=500\000,1000\nmemory_mhz=475\n' >nul.plan
spt plan --grid nul.plan --kernels a
expect_error "a NUL byte in a plan" 2 "nul.plan:2:15:" "NUL byte"
mkfifo blank.fifo
yes '' >blank.fifo &
spt plan --grid blank.fifo --kernels a
expect_error "plan --grid, endless blank lines" 2 "blank.fifo:1000001:" "more than 1000000 lines"
kill $! 2>/dev/null
wait 2>/dev/null
mkfifo silent.fifo
spt plan --grid silent.fifo --kernels a
expect_error "plan --grid, a FIFO nobody writes" 2 "silent.fifo" "no 'cu' key"
spt plan --runs /dev/zero --kernels a --cu 16 --engine-mhz 500 --memory-mhz 475
expect_error "plan --runs /dev/zero" 2 "/dev/zero:1:1:" "1048576-byte limit"

# ---- the CSV inputs of every command ----
mkfifo blank2.fifo
yes '' >blank2.fifo &
spt surfaces --runs blank2.fifo --out s
expect_error "surfaces, endless blank lines" 2 "blank2.fifo:1000001:" "lines without a row"
kill $! 2>/dev/null
wait 2>/dev/null
spt predict --model "$MODEL" --runs /dev/zero --counters "$NEW/counters.csv" --target all
expect_error "predict --runs /dev/zero" 2 "/dev/zero:1:1:" "1048576-byte limit"
spt predict --model "$MODEL" --runs "$NEW/runs.csv" --counters /dev/zero --target all
expect_error "predict --counters /dev/zero" 2 "/dev/zero:1:1:" "1048576-byte limit"
# shellcheck disable=SC2086
spt dse --model "$MODEL" $D --weights /dev/zero
expect_error "dse --weights /dev/zero" 2 "/dev/zero:1:1:" "1048576-byte limit"
# shellcheck disable=SC2086
spt dse --model "$MODEL" $D --candidates /dev/zero
expect_error "dse --candidates /dev/zero" 2 "/dev/zero:1:1:" "1048576-byte limit"
# shellcheck disable=SC2086
spt governor --model "$MODEL" $D --trace /dev/zero --load-counters "$LOADS"
expect_error "governor --trace /dev/zero" 2 "/dev/zero:1:1:" "1048576-byte limit"
spt profile --model "$MODEL" --import /dev/zero --out prof
[ "$rc" -ne 0 ] || fail "profile --import /dev/zero succeeded"
no_leftovers "profile --import /dev/zero" prof
mkdir p
cp "$NEW/runs.csv" "$NEW/counters.csv" p/
ln -s /dev/zero p/launches.csv
spt predict --model "$MODEL" --profile p --target all
expect_error "predict --profile, launches.csv /dev/zero" 2 "p/launches.csv:1:1:" "1048576-byte limit"

# ---- estimate's PTX and evaluate's families ----
spt estimate --features --kernel tiny /dev/zero
expect_error "estimate /dev/zero" 2 "/dev/zero:1:" "NUL byte"
S=$SP_TEST_DATA/static
{ head -n 3 "$S/tiny.ptx"; printf 'x\000y\n'; tail -n +4 "$S/tiny.ptx"; } >nul.ptx
spt estimate --features --kernel tiny nul.ptx
expect_error "a NUL byte in a PTX module" 2 "nul.ptx:4:" "NUL byte"
spt evaluate --quiet --runs "$TRAIN/runs.csv" --counters "$TRAIN/counters.csv" --families /dev/zero \
  --repeats 1 --clusters 2 --epochs 5
expect_error "evaluate --families /dev/zero" 2 "/dev/zero:1:1:" "NUL byte"

# ---- a FIFO nobody writes, as any input (found by tests/limits/mutate.py) ----
# Every reader opens without waiting for a writer: the FIFO reads as empty.
mkfifo idle.fifo
spt predict --model "$MODEL" --runs idle.fifo --counters "$NEW/counters.csv" --target all
expect_error "predict --runs, a FIFO nobody writes" 2 "idle.fifo:1:" "empty file"
# shellcheck disable=SC2086
spt dse --model "$MODEL" $D --candidates idle.fifo
expect_error "dse --candidates, a FIFO nobody writes" 2 "idle.fifo:1:" "empty file"
spt governor --model "$MODEL" --trace idle.fifo --load-counters "$LOADS"
expect_error "governor --trace, a FIFO nobody writes" 2 "idle.fifo:1:" "empty file"
spt estimate --features --kernel tiny idle.fifo
expect_error "estimate, a FIFO nobody writes" 2 "idle.fifo:" "no kernel 'tiny'"
# train reads a FIFO written once, then checksums the training files for
# the model's provenance: that does not wait for a second writer.
mkfifo once.fifo
cat "$TRAIN/runs.csv" >once.fifo &
writer=$!
spt train --quiet --runs once.fifo --counters "$TRAIN/counters.csv" --base "$BASE" --clusters 3 \
  --epochs 5 --out m-once
expect_rc "train --runs, a FIFO written once" 0
kill "$writer" 2>/dev/null
wait

# ---- the profiler's log: whatever the profiler left there ----
# A stand-in ncu puts $LOG_IS where its log (--log-file) should be.
mkdir bin
cat >bin/ncu <<'NCU'
#!/bin/sh
. "$NCU_OPTIONS"
rm -f "$log" && ln -s "$LOG_IS" "$log"
exec "$@"
NCU
chmod +x bin/ncu
H100=$SP_TOP_BUILDDIR/models/h100-sm
[ -f "$H100/manifest.txt" ] || H100=$sp_here/../../models/h100-sm
for log in /dev/zero "$WORK/idle.fifo"; do
  LOG_IS=$log
  export LOG_IS
  spt profile --model "$H100" --out plog --profiler "$WORK/bin/ncu" -- true
  expect_error "profile, the profiler's log is $log" 2 "ncu's output for 'true'"
  no_leftovers "profile, the profiler's log is $log" plog
done

finish
