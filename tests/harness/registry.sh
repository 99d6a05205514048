#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The suite registry's reader (training/suites.sh): the registry as it is
# reads, each suite's folder exists, and a malformed line is refused (exit
# 1) with FILE:LINE: and what is wrong, before configure or a script uses it.
. "${srcdir:-.}/lib.sh"
reader=$SP_TOP_SRCDIR/training/suites.sh

suites >"$scratch/lines" || fail "the registry does not read"
[ -s "$scratch/lines" ] || fail "the registry lists no suite"
bad=$(awk -F '\t' 'NF != 5' "$scratch/lines" | head -1)
[ -z "$bad" ] || fail "a line without 5 fields: $bad"
sh "$reader" -C "$SP_TOP_SRCDIR" runner-dirs | grep -q -- '--suite-dir common=' ||
  fail "runner-dirs lacks the shared headers' folder"
# folder NAME: each suite's folder as the registry gives it; a name it
# lacks is refused (exit 2), named.
while IFS=$(printf '\t') read -r name _ folder _; do
  [ "$(sh "$reader" -C "$SP_TOP_SRCDIR" folder "$name")" = "$folder" ] ||
    fail "folder $name is not $folder"
done <"$scratch/lines"
sh "$reader" -C "$SP_TOP_SRCDIR" folder bogus >"$scratch/out" 2>&1
[ $? -eq 2 ] || fail "folder bogus: exit status not 2"
grep -q "bogus is not a suite of training/suites.txt" "$scratch/out" || fail "folder bogus: not named"

# refuses WHAT LINE: a tree whose registry ends with LINE is refused with
# a message naming its last line and containing WHAT.
t=$scratch/top
mkdir -p "$t/training/kernels/one" "$t/training/kernels/two" "$t/training/heldout/three"
cp "$reader" "$t/training/suites.sh"
good='one  o_  training/kernels/one  training  -'
refuses() {
  printf '# test\n%s\n%s\n' "$good" "$2" >"$t/training/suites.txt"
  sh "$t/training/suites.sh" lines >"$scratch/out" 2>&1 && fail "accepted: $2"
  grep -q "suites.txt:3: .*$1" "$scratch/out" || fail "'$2' refused without '$1': $(cat "$scratch/out")"
}
printf '%s\n' "$good" >"$t/training/suites.txt"
sh "$t/training/suites.sh" lines >"$scratch/out" || fail "a good registry refused: $(cat "$scratch/out")"
refuses 'expected 5 fields' 'two  t_  training/kernels/two  training'
refuses 'is not \[a-z\]' 'Two  t_  training/kernels/two  training  -'
refuses 'selection or folder word' 'all  t_  training/kernels/two  training  -'
refuses 'named twice' 'one  t_  training/kernels/two  training  -'
refuses 'prefix o_ is taken' 'two  o_  training/kernels/two  training  -'
refuses 'folder training/kernels/one is taken' 'two  t_  training/kernels/one  training  -'
refuses 'is not training or heldout' 'two  t_  training/kernels/two  retired  -'
refuses 'training/heldout/NAME' 'three  h_  training/kernels/two  heldout  -'
refuses 'training/kernels/NAME' 'three  h_  training/heldout/three  training  -'
refuses 'is not YYYY-MM-DD' 'two  t_  training/kernels/two  training  yesterday'
refuses 'retired suite has the role training' 'three  h_  training/heldout/three  heldout  2027-01-01'
# A line whose folder is missing names the suite.
printf '%s\ntwo  t_  training/kernels/gone  training  -\n' "$good" >"$t/training/suites.txt"
sh "$t/training/suites.sh" lines >"$scratch/out" 2>&1 && fail "a missing folder accepted"
grep -q 'suite two: no folder' "$scratch/out" || fail "missing folder not named: $(cat "$scratch/out")"
# A held-out suite and a retired one read, and retired lists only the latter.
printf '%s\nthree  h_  training/heldout/three  heldout  -\ntwo  t_  training/kernels/two  training  2027-01-01\n' \
  "$good" >"$t/training/suites.txt"
[ "$(sh "$t/training/suites.sh" retired)" = "$(printf 'two\ttraining/kernels/two')" ] ||
  fail "retired: $(sh "$t/training/suites.sh" retired)"
exit 0
