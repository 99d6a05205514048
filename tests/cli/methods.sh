#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# methods.sh: the tool's method lists and help texts are the library's
# method table (src/model/method-table.h): evaluate --help prints a line
# per method, its about and a * for one compared only when named; train
# --help the methods a model carries, in the table's order; evaluate's
# unknown-method error names every method; evaluate compares every method
# but the opt-in ones by default; the man page names each.
# shellcheck source=lib.sh
. "${srcdir:-.}/cli/lib.sh"
top=${SP_TOP_SRCDIR:-$sp_here/../..}
table=$top/src/model/method-table.h

# "ID NAME KIND OPTIN ABOUT" per method, by id.
sed -n 's/^SP_METHOD(\([a-z0-9_]*\), *\([0-9]*\), *\([a-z]*\), *\([^"]*\)"\(.*\)")$/\2 \1 \3 \4@\5/p' \
  "$table" | awk -F'@' '{ split($1, w, " "); optin = index($1, "OPT_IN") ? 1 : 0
                          print w[1], w[2], w[3], optin, $2 }' | sort -n >methods
[ "$(wc -l <methods)" -eq "$(grep -c '^SP_METHOD(' "$table")" ] || fail "cannot read $table"
[ "$(wc -l <methods)" -ge 11 ] || fail "the table has $(wc -l <methods) methods"

sp evaluate --help
expect_rc "evaluate --help" 0
cp "$WORK/out" eval-help
while read -r _ name _ optin about; do
  star=
  [ "$optin" = 1 ] && star='*'
  printf '  %-10s %s\n' "$name$star" "$about" >want
  grep -qxF -f want eval-help || fail "evaluate --help: no line '$(cat want)'"
done <methods
[ "$(sed -n '/^Methods (--methods/,$p' eval-help | grep -c '^  [a-z]')" -eq "$(wc -l <methods)" ] ||
  fail "evaluate --help lists other methods: $(sed -n '/^Methods/,$p' eval-help)"

sp train --help
expect_rc "train --help" 0
carried=$(awk '$3 == "core" { print $2 }' methods)
carried="$carried $(grep '^SP_METHOD(' "$table" | awk -F'[(,]' '$4 ~ /carried/ { gsub(/ /, "", $2); print $2 }' |
  tr '\n' ' ' | sed 's/ $//')"
expect_out "train --help" "Methods: $carried"

sp evaluate --runs "$TRAIN/runs.csv" --counters "$TRAIN/counters.csv" --methods wu2015,nosuch
expect_rc "unknown method" 1
known=$(awk '{ printf "%s%s", (NR > 1 ? ", " : ""), $2 }' methods)
grep -qF "unknown method 'nosuch' (known: $known)" "$WORK/err" ||
  fail "unknown method: $(cat "$WORK/err"), want the table's $known"

# By default every method but the opt-in ones.
sp evaluate --quiet --runs "$TRAIN/runs.csv" --counters "$TRAIN/counters.csv" --clusters 2 \
  --repeats 1 --epochs 20 --json
expect_rc "evaluate, default methods" 0
while read -r _ name _ optin about; do
  if [ "$optin" = 1 ]; then
    grep -qF "\"$name\":{" "$WORK/out" && fail "evaluate compared $name, which is opt-in, by default"
  else
    grep -qF "\"$name\":{" "$WORK/out" || fail "evaluate did not compare $name by default"
  fi
done <methods

# The man page's evaluate and train sections name every method.
man=$top/docs/scalepredict.1
while read -r _ name _ optin about; do
  sed -n '/^\.SS "scalepredict evaluate"/,/^\.SS "scalepredict dse"/p' "$man" | grep -q "\\b$name\\b" ||
    fail "docs/scalepredict.1: evaluate --methods does not name $name"
done <methods
for name in $carried; do
  sed -n '/^\.SS "scalepredict train"/,/^\.SS "scalepredict predict"/p' "$man" | grep -q "\\b$name\\b" ||
    fail "docs/scalepredict.1: train does not name $name"
done
finish
