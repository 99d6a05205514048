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
# the fourth, the fifth and the sixth.
expect 0 "$R" --suite train --list
cmp -s "$scratch/out" "$scratch/train.list" || fail "--suite train --list differs from --list"
for v in validation validation2 validation3 validation4 validation5 validation6; do
  expect 0 "$R" --suite $v --list
  cp "$scratch/out" "$scratch/$v.list"
  bad=$(awk -F '\t' 'NF != 3 || $1 == "" || $2 == ""' "$scratch/$v.list" | head -1)
  [ -z "$bad" ] || fail "--suite $v --list line malformed: '$bad'"
  [ "$(cut -f1 "$scratch/$v.list" | sort -u | wc -l)" -eq "$(wc -l <"$scratch/$v.list")" ] ||
    fail "--suite $v --list repeats a name"
done
# The second validation suite: at least 26 kernels, all named w_*, none
# also in another table.
[ "$(wc -l <"$scratch/validation2.list")" -ge 26 ] || fail "validation2 has fewer than 26 kernels"
bad=$(cut -f1 "$scratch/validation2.list" | grep -v '^w_' | head -1)
[ -z "$bad" ] || fail "validation2 kernel '$bad' is not named w_*"
# The third: at least 28 kernels, all named x_*.
[ "$(wc -l <"$scratch/validation3.list")" -ge 28 ] || fail "validation3 has fewer than 28 kernels"
bad=$(cut -f1 "$scratch/validation3.list" | grep -v '^x_' | head -1)
[ -z "$bad" ] || fail "validation3 kernel '$bad' is not named x_*"
# The fourth: at least 24 kernels, all named y_*.
[ "$(wc -l <"$scratch/validation4.list")" -ge 24 ] || fail "validation4 has fewer than 24 kernels"
bad=$(cut -f1 "$scratch/validation4.list" | grep -v '^y_' | head -1)
[ -z "$bad" ] || fail "validation4 kernel '$bad' is not named y_*"
# The fifth: at least 24 kernels, all named z_*.
[ "$(wc -l <"$scratch/validation5.list")" -ge 24 ] || fail "validation5 has fewer than 24 kernels"
bad=$(cut -f1 "$scratch/validation5.list" | grep -v '^z_' | head -1)
[ -z "$bad" ] || fail "validation5 kernel '$bad' is not named z_*"
# The sixth: at least 24 kernels, all named q_*.
[ "$(wc -l <"$scratch/validation6.list")" -ge 24 ] || fail "validation6 has fewer than 24 kernels"
bad=$(cut -f1 "$scratch/validation6.list" | grep -v '^q_' | head -1)
[ -z "$bad" ] || fail "validation6 kernel '$bad' is not named q_*"
dup=$(cat "$scratch/train.list" "$scratch/validation.list" "$scratch/validation2.list" \
  "$scratch/validation3.list" "$scratch/validation4.list" "$scratch/validation5.list" \
  "$scratch/validation6.list" | cut -f1 | sort | uniq -d | head -1)
[ -z "$dup" ] || fail "'$dup' is in two suites"
expect 0 "$R" --suite all --list
cat "$scratch/train.list" "$scratch/validation.list" "$scratch/validation2.list" \
  "$scratch/validation3.list" "$scratch/validation4.list" "$scratch/validation5.list" \
  "$scratch/validation6.list" | cmp -s - "$scratch/out" ||
  fail "--suite all --list is not train, validation, validation2, validation3, validation4, validation5, validation6"
expect 2 "$R" --suite bogus --list
grep -q "not train, validation, validation2, validation3, validation4, validation5, validation6 or all" "$scratch/out" ||
  fail "bad --suite not explained"
# A training kernel is not a validation kernel.
only_train=$(cut -f1 "$scratch/train.list" | while read -r k; do
  cut -f1 "$scratch/validation.list" | grep -qxF "$k" || { echo "$k"; break; }; done)
expect 2 "$R" --suite validation --backend opencl --kernels "$only_train" --cu 1 \
  --engine-mhz 1 --memory-mhz 1 --runs "$scratch/v.csv"
grep -q "no kernel '$only_train' in this suite" "$scratch/out" || fail "unknown validation kernel not named"
[ ! -e "$scratch/v.csv" ] || fail "a runs file was created for a usage error"
# Nor is a first-validation kernel one of the second suite, and the reverse.
only_v1=$(head -1 "$scratch/validation.list" | cut -f1)
only_v2=$(head -1 "$scratch/validation2.list" | cut -f1)
expect 2 "$R" --suite validation2 --backend opencl --kernels "$only_v1" --cu 1 \
  --engine-mhz 1 --memory-mhz 1 --runs "$scratch/v.csv"
grep -q "no kernel '$only_v1' in this suite" "$scratch/out" || fail "v1 kernel accepted by validation2"
expect 2 "$R" --suite validation --backend opencl --kernels "$only_v2" --cu 1 \
  --engine-mhz 1 --memory-mhz 1 --runs "$scratch/v.csv"
grep -q "no kernel '$only_v2' in this suite" "$scratch/out" || fail "v2 kernel accepted by validation"
# A third-validation kernel belongs to validation3 only.
only_v3=$(head -1 "$scratch/validation3.list" | cut -f1)
expect 2 "$R" --suite validation3 --backend opencl --kernels "$only_v2" --cu 1 \
  --engine-mhz 1 --memory-mhz 1 --runs "$scratch/v.csv"
grep -q "no kernel '$only_v2' in this suite" "$scratch/out" || fail "v2 kernel accepted by validation3"
expect 2 "$R" --suite validation2 --backend opencl --kernels "$only_v3" --cu 1 \
  --engine-mhz 1 --memory-mhz 1 --runs "$scratch/v.csv"
grep -q "no kernel '$only_v3' in this suite" "$scratch/out" || fail "v3 kernel accepted by validation2"
# A fourth-validation kernel belongs to validation4 only.
only_v4=$(head -1 "$scratch/validation4.list" | cut -f1)
expect 2 "$R" --suite validation4 --backend opencl --kernels "$only_v3" --cu 1 \
  --engine-mhz 1 --memory-mhz 1 --runs "$scratch/v.csv"
grep -q "no kernel '$only_v3' in this suite" "$scratch/out" || fail "v3 kernel accepted by validation4"
expect 2 "$R" --suite validation3 --backend opencl --kernels "$only_v4" --cu 1 \
  --engine-mhz 1 --memory-mhz 1 --runs "$scratch/v.csv"
grep -q "no kernel '$only_v4' in this suite" "$scratch/out" || fail "v4 kernel accepted by validation3"
# A fifth-validation kernel belongs to validation5 only.
only_v5=$(head -1 "$scratch/validation5.list" | cut -f1)
expect 2 "$R" --suite validation5 --backend opencl --kernels "$only_v4" --cu 1 \
  --engine-mhz 1 --memory-mhz 1 --runs "$scratch/v.csv"
grep -q "no kernel '$only_v4' in this suite" "$scratch/out" || fail "v4 kernel accepted by validation5"
expect 2 "$R" --suite validation4 --backend opencl --kernels "$only_v5" --cu 1 \
  --engine-mhz 1 --memory-mhz 1 --runs "$scratch/v.csv"
grep -q "no kernel '$only_v5' in this suite" "$scratch/out" || fail "v5 kernel accepted by validation4"
# A sixth-validation kernel belongs to validation6 only.
only_v6=$(head -1 "$scratch/validation6.list" | cut -f1)
expect 2 "$R" --suite validation6 --backend opencl --kernels "$only_v5" --cu 1 \
  --engine-mhz 1 --memory-mhz 1 --runs "$scratch/v.csv"
grep -q "no kernel '$only_v5' in this suite" "$scratch/out" || fail "v5 kernel accepted by validation6"
expect 2 "$R" --suite validation5 --backend opencl --kernels "$only_v6" --cu 1 \
  --engine-mhz 1 --memory-mhz 1 --runs "$scratch/v.csv"
grep -q "no kernel '$only_v6' in this suite" "$scratch/out" || fail "v6 kernel accepted by validation5"
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
