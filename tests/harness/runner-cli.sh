#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# sp-runner's command line: help, list, usage errors (exit 2), a runs file
# that is not a runs file (exit 1), the unavailable-backend status (3).
. "${srcdir:-.}/lib.sh"
R=$SP_RUNNER

expect() {
  want=$1
  shift
  "$@" >"$scratch/out" 2>&1
  got=$?
  [ "$got" -eq "$want" ] || { cat "$scratch/out" >&2; fail "exit $got, expected $want: $*"; }
}

expect 0 "$R" --help
grep -q -- '--counters-base' "$scratch/out" || fail "--help lacks --counters-base"
expect 0 "$R" --version
expect 0 "$R" --list
[ "$(awk '{print $1}' "$scratch/out" | sort -u | wc -l)" -eq "$(wc -l <"$scratch/out")" ] ||
  fail "--list repeats a name"
# Not a terminal here: three tab-separated fields per kernel, one line per
# entry of the suite table.
bad=$(awk -F '\t' 'NF != 3 || $1 == "" || $2 == ""' "$scratch/out" | head -1)
[ -z "$bad" ] || fail "--list line is not name<TAB>class<TAB>stresses: '$bad'"
nk=$(grep -c '^ *K("' "$SP_KERNEL_DIR/suite.c")
[ "$(wc -l <"$scratch/out")" -eq "$nk" ] || fail "--list shows $(wc -l <"$scratch/out") kernels, not $nk"
cp "$scratch/out" "$scratch/train.list"

# --suite: the validation tables list the same way, and 'all' is the
# training suite followed by the validation suite, the second, the third
# the fourth, the fifth, the sixth, the seventh, the eighth, the ninth and
# the tenth.
expect 0 "$R" --suite train --list
cmp -s "$scratch/out" "$scratch/train.list" || fail "--suite train --list differs from --list"
for v in validation validation2 validation3 validation4 validation5 validation6 validation7 \
  validation8 validation9 validation10; do
  expect 0 "$R" --suite $v --list
  cp "$scratch/out" "$scratch/$v.list"
  bad=$(awk -F '\t' 'NF != 3 || $1 == "" || $2 == ""' "$scratch/$v.list" | head -1)
  [ -z "$bad" ] || fail "--suite $v --list line malformed: '$bad'"
  [ "$(cut -f1 "$scratch/$v.list" | sort -u | wc -l)" -eq "$(wc -l <"$scratch/$v.list")" ] ||
    fail "--suite $v --list repeats a name"
done
# Each later validation suite: at least N kernels, all named P_*, none also
# in another table (suite:N:P).
for spec in validation2:26:w validation3:28:x validation4:24:y validation5:24:z validation6:24:q \
  validation7:24:r validation8:24:s validation9:24:t \
  validation10:24:u; do
  v=${spec%%:*} n=${spec#*:} p=${spec##*:}
  n=${n%:*}
  [ "$(wc -l <"$scratch/$v.list")" -ge "$n" ] || fail "$v has fewer than $n kernels"
  bad=$(cut -f1 "$scratch/$v.list" | grep -v "^${p}_" | head -1)
  [ -z "$bad" ] || fail "$v kernel '$bad' is not named ${p}_*"
done
tables="train validation validation2 validation3 validation4 validation5 validation6 validation7
  validation8 validation9 validation10"
lists=$(for t in $tables; do printf '%s ' "$scratch/$t.list"; done)
# shellcheck disable=SC2086 # one path per table, no spaces in $scratch
dup=$(cat $lists | cut -f1 | sort | uniq -d | head -1)
[ -z "$dup" ] || fail "'$dup' is in two suites"
expect 0 "$R" --suite all --list
# shellcheck disable=SC2086
cat $lists | cmp -s - "$scratch/out" ||
  fail "--suite all --list is not train, validation, validation2, validation3, validation4, validation5, validation6, validation7, validation8, validation9, validation10"
expect 2 "$R" --suite bogus --list
grep -q "not train, validation, validation2, validation3, validation4, validation5, validation6, validation7, validation8, validation9, validation10 or all" "$scratch/out" ||
  fail "bad --suite not explained"
# A training kernel is not a validation kernel.
only_train=$(cut -f1 "$scratch/train.list" | while read -r k; do
  cut -f1 "$scratch/validation.list" | grep -qxF "$k" || { echo "$k"; break; }; done)
expect 2 "$R" --suite validation --backend opencl --kernels "$only_train" --cu 1 \
  --engine-mhz 1 --memory-mhz 1 --runs "$scratch/v.csv"
grep -q "no kernel '$only_train' in this suite" "$scratch/out" || fail "unknown validation kernel not named"
[ ! -e "$scratch/v.csv" ] || fail "a runs file was created for a usage error"
# rejects SUITE KERNEL WHOSE: SUITE refuses KERNEL, a kernel of suite WHOSE.
rejects() {
  expect 2 "$R" --suite "$1" --backend opencl --kernels "$2" --cu 1 \
    --engine-mhz 1 --memory-mhz 1 --runs "$scratch/v.csv"
  grep -q "no kernel '$2' in this suite" "$scratch/out" || fail "$3 kernel accepted by $1"
}
# Each validation suite's kernels belong to it only: the first kernel of
# each is refused by the suite before it and the suite after it.
prev='' prev_k='' prev_n=''
for i in 1 2 3 4 5 6 7 8 9 10; do
  v=validation$i
  [ "$i" -eq 1 ] && v=validation
  k=$(head -1 "$scratch/$v.list" | cut -f1)
  if [ -n "$prev" ]; then
    rejects "$v" "$prev_k" "$prev_n"
    rejects "$prev" "$k" "v$i"
  fi
  prev=$v prev_k=$k prev_n=v$i
done
[ ! -e "$scratch/v.csv" ] || fail "a runs file was created for a usage error"

base="--backend opencl --kernels stream_copy --cu 1 --engine-mhz 1 --memory-mhz 1"
# shellcheck disable=SC2086
{
  expect 2 "$R"
  expect 2 "$R" --backend nosuch --kernels all --cu 1 --engine-mhz 1 --memory-mhz 1 --runs x
  expect 2 "$R" $base
  expect 2 "$R" --backend opencl --kernels nosuch --cu 1 --engine-mhz 1 --memory-mhz 1 --runs x
  grep -q "no kernel 'nosuch'" "$scratch/out" || fail "unknown kernel not named"
  expect 2 "$R" --backend opencl --kernels all --cu 0 --engine-mhz 1 --memory-mhz 1 --runs x
  expect 2 "$R" --backend opencl --kernels all --cu 8,8 --engine-mhz 1 --memory-mhz 1 --runs x
  expect 2 "$R" --backend opencl --kernels all --cu 8,x --engine-mhz 1 --memory-mhz 1 --runs x
  expect 2 "$R" $base --runs x --engine-mhz fast
  expect 2 "$R" $base --runs x --size huge
  expect 2 "$R" $base --runs x --power solar
  expect 2 "$R" $base --runs x --min-time-ms -3
  expect 2 "$R" $base --runs x extra
  expect 2 "$R" --import-ncu x.csv
}

if have_opencl; then
  # A file that is not a runs.csv is refused, not appended to.
  printf 'time,kernel\n1,2\n' >"$scratch/foreign.csv"
  # shellcheck disable=SC2086
  expect 1 "$R" $base --runs "$scratch/foreign.csv" --size small
  grep -q 'expected the header' "$scratch/out" || fail "foreign header not reported"
  [ "$(wc -l <"$scratch/foreign.csv")" -eq 2 ] || fail "foreign file modified"
  # A runs file holding only a torn header is repaired.
  printf 'kernel,cu,eng' >"$scratch/torn.csv"
  # shellcheck disable=SC2086
  expect 0 "$R" $base --runs "$scratch/torn.csv" --size small --min-time-ms 1 --power none
  check_runs "$scratch/torn.csv"
  # A second runner on the same file is refused while the first holds it.
  # The holder keeps the lock until told to let go, however slow the machine.
  (flock -x 9 && : >"$scratch/locked" &&
    while [ -d "$scratch" ] && [ ! -e "$scratch/release" ]; do sleep 0.05; done) 9>>"$scratch/torn.csv" &
  i=0
  while [ ! -e "$scratch/locked" ]; do
    i=$((i + 1))
    [ $i -lt 600 ] || { : >"$scratch/release"; fail "the lock holder never started"; }
    sleep 0.05
  done
  # shellcheck disable=SC2086
  expect 1 "$R" $base --runs "$scratch/torn.csv" --size small
  : >"$scratch/release"
  wait
  grep -q 'another process' "$scratch/out" || fail "lock not reported"
fi
exit 0
