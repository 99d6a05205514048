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
core=$(suite_folder core)
nk=$(grep -c '^ *K("' "$core/suite.c")
[ "$(wc -l <"$scratch/out")" -eq "$nk" ] || fail "--list shows $(wc -l <"$scratch/out") kernels, not $nk"
cp "$scratch/out" "$scratch/core.list"

# --suite takes every suite of the registry (training/suites.txt) and lists
# it the same way; core is the default and train its old name; all is
# every suite in registry order, training and heldout those of that role.
suites >"$scratch/suites" || fail "training/suites.txt is malformed"
for s in train core; do
  expect 0 "$R" --suite $s --list
  cmp -s "$scratch/out" "$scratch/core.list" || fail "--suite $s --list differs from --list"
done
expect 0 "$R" --list-suites
cut -f1,2,4,5 "$scratch/suites" >"$scratch/want"
cut -f1-4 "$scratch/out" | cmp -s - "$scratch/want" ||
  fail "--list-suites is not the registry: $(cat "$scratch/out")"
: >"$scratch/all.list"
: >"$scratch/training.list"
: >"$scratch/heldout.list"
tab=$(printf '\t')
while IFS=$tab read -r name prefix folder role _; do
  expect 0 "$R" --suite "$name" --list
  l=$scratch/$name.list
  cp "$scratch/out" "$l"
  [ -s "$l" ] || fail "suite $name lists no kernel"
  bad=$(awk -F '\t' 'NF != 3 || $1 == "" || $2 == ""' "$l" | head -1)
  [ -z "$bad" ] || fail "--suite $name --list line malformed: '$bad'"
  [ "$(cut -f1 "$l" | sort -u | wc -l)" -eq "$(wc -l <"$l")" ] || fail "--suite $name --list repeats a name"
  if [ "$prefix" != - ]; then
    bad=$(cut -f1 "$l" | grep -v "^$prefix" | head -1)
    [ -z "$bad" ] || fail "$name kernel '$bad' is not named $prefix*"
  fi
  # A measured suite lists exactly the kernels of its measurements.
  runs=$SP_TOP_SRCDIR/$folder/data/h100/runs.csv
  if [ -f "$runs" ]; then
    tail -n +2 "$runs" | cut -d, -f1 | sort -u >"$scratch/measured"
    cut -f1 "$l" | sort | cmp -s - "$scratch/measured" || fail "$name does not list the kernels of $runs"
  fi
  cat "$l" >>"$scratch/all.list"
  cat "$l" >>"$scratch/$role.list"
done <"$scratch/suites"
dup=$(cut -f1 "$scratch/all.list" | sort | uniq -d | head -1)
[ -z "$dup" ] || fail "'$dup' is in two suites"
for sel in all training heldout; do
  expect 0 "$R" --suite $sel --list
  cmp -s "$scratch/out" "$scratch/$sel.list" || fail "--suite $sel --list is not its suites in registry order"
done
expect 2 "$R" --suite bogus --list
grep -q "'bogus' is not a suite of training/suites.txt" "$scratch/out" || fail "bad --suite not explained"
# --suite-dir NAME=DIR: a registry name or common; --kernel-dir is core's.
expect 2 "$R" --suite-dir bogus=/tmp --list
grep -q "'bogus' is not a suite of training/suites.txt" "$scratch/out" || fail "bad --suite-dir name not explained"
expect 2 "$R" --suite-dir core --list
grep -q "is not NAME=DIR" "$scratch/out" || fail "--suite-dir without = not explained"
expect 2 "$R" --suite-dir core= --list
expect 0 "$R" --suite-dir "core=$core" --suite-dir "common=$(suite_folder common)" --list
expect 0 "$R" --kernel-dir "$core" --list
# The per-suite folder options are gone (--suite-dir replaces them).
expect 2 "$R" --validation-dir /tmp --list
# rejects SUITE KERNEL WHOSE: SUITE refuses KERNEL, a kernel of suite WHOSE.
rejects() {
  expect 2 "$R" --suite "$1" --backend opencl --kernels "$2" --cu 1 \
    --engine-mhz 1 --memory-mhz 1 --runs "$scratch/v.csv"
  grep -q "no kernel '$2' in this suite" "$scratch/out" || fail "$3 kernel $2 accepted by $1"
}
# Each suite's kernels belong to it only: the first kernel of each is
# refused by the suite before it and the suite after it.
prev='' prev_k=''
while IFS=$tab read -r name prefix folder role _; do
  k=$(head -1 "$scratch/$name.list" | cut -f1)
  if [ -n "$prev" ]; then
    rejects "$name" "$prev_k" "$prev"
    rejects "$prev" "$k" "$name"
  fi
  prev=$name prev_k=$k
done <"$scratch/suites"
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
