#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# check-methods.sh: the method table (src/model/method-table.h) is the one
# list of the prediction methods, and the public sp_method constants are
# generated from it: the lines of include/scalepredict.h between
# "generated from src/model/method-table.h: begin" and "generated: end"
# are SP_METHOD_<NAME> = <id>, /* <about> */ for every line of the table,
# by id.  Checks the table too: ids 0, 1, 2 ... each once, one core
# (wu2015, every model's), kinds core|carried|compared, abouts of at most
# 66 characters.  Exit 0 when all hold, 1 naming what differs;
#   check-methods.sh --write   rewrites the header's generated lines.
set -u
top=${SP_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
table=$top/src/model/method-table.h
header=$top/include/scalepredict.h
tmp=${TMPDIR:-/tmp}/sp-methods.$$
trap 'rm -f "$tmp".*' EXIT

# "ID NAME KIND ABOUT" per line of the table, checked.
sed -n 's/^SP_METHOD(\([a-z0-9_]*\), *\([0-9]*\), *\([a-z]*\), *[^"]*"\(.*\)")$/\2 \1 \3 \4/p' \
  "$table" | sort -n >"$tmp.lines"
n=$(grep -c '^SP_METHOD(' "$table")
awk -v n="$n" '
  { if ($1 != NR - 1) { print "check-methods: ids are not 0 .. " n - 1 ", each once (at " $2 ")"; bad = 1 }
    if ($3 == "core") cores++
    else if ($3 != "carried" && $3 != "compared") { print "check-methods: " $2 ": kind " $3; bad = 1 }
    about = $0; sub(/^[^ ]* [^ ]* [^ ]* /, "", about)
    if (length(about) > 66) { print "check-methods: " $2 ": about longer than 66"; bad = 1 } }
  END {
    if (NR != n) { print "check-methods: " n - NR " lines of the table are not SP_METHOD(name, id, kind, flags, \"about\")"; bad = 1 }
    if (cores != 1) { print "check-methods: " cores + 0 " core methods, not 1"; bad = 1 }
    exit bad }' "$tmp.lines" >&2 || exit 1

# The generated lines, their comments aligned as clang-format aligns them.
awk '{ name = toupper($2); code[NR] = "  SP_METHOD_" name " = " $1 ","
       about[NR] = $0; sub(/^[^ ]* [^ ]* [^ ]* /, "", about[NR])
       if (length(code[NR]) > w) w = length(code[NR]) }
     END { for (i = 1; i <= NR; i++) printf "%-*s /* %s */\n", w, code[i], about[i] }' \
  "$tmp.lines" >"$tmp.enum"

begin='generated from src/model/method-table.h: begin'
end='generated: end'
awk -v b="$begin" -v e="$end" -v gen="$tmp.enum" '
  index($0, e) { on = 0 }
  !on { print }
  index($0, b) { on = 1; while ((getline l <gen) > 0) print l }' "$header" >"$tmp.header"
if ! grep -qF "$begin" "$header" || ! grep -qF "$end" "$header"; then
  echo "check-methods: include/scalepredict.h has no generated sp_method lines" >&2
  exit 1
fi
if [ "${1:-}" = --write ]; then
  cp "$tmp.header" "$header"
  exit 0
fi
if ! cmp -s "$tmp.header" "$header"; then
  echo "check-methods: the sp_method constants of include/scalepredict.h are not the" \
    "table's; run tests/arch/check-methods.sh --write" >&2
  diff -u "$header" "$tmp.header" >&2
  exit 1
fi
echo "check-methods: $n methods, the public constants generated from the table"
