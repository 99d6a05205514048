#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# check-cycles.sh: inside every folder of src/, the files use each other one
# way (docs/internals.md, "Layers").  Two rules, checked on the source:
#
# - the include graph has no cycle: a file X (X.c and X.h together) uses Y
#   when either includes "Y.h", a header of the same folder;
# - an internal function (sp__name) is declared in the header of the file
#   that defines it, so that the include graph is the call graph: a
#   function of X.c declared in Y.h would let X and Y call each other while
#   only one of them includes the other.
#
# Exit 0 when both hold, 1 with one line per cycle or misplaced
# declaration otherwise.
set -u
top=${SP_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
bad=0

for dir in "$top"/src/*/; do
  folder=$(basename "$dir")
  # Edges "X Y": X.c or X.h includes "Y.h" of this folder.
  for f in "$dir"*.c "$dir"*.h; do
    [ -f "$f" ] || continue
    x=$(basename "$f")
    x=${x%.*}
    sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"/]*\)\.h".*/\1/p' "$f" |
      while read -r y; do
        [ "$y" != "$x" ] && [ -f "$dir$y.h" ] && echo "$x $y"
      done
  done | sort -u | awk -v folder="$folder" '
    { n = ++deg[$1]; adj[$1, n] = $2; node[$1]; node[$2] }
    function visit(v,    i, w, j, cyc) {
      color[v] = 1; stack[++depth] = v
      for (i = 1; i <= deg[v]; i++) {
        w = adj[v, i]
        if (color[w] == 1) {
          for (j = depth; j > 1 && stack[j] != w; j--) continue
          for (cyc = ""; j <= depth; j++) cyc = cyc stack[j] " -> "
          print "check-cycles: src/" folder ": include cycle " cyc w
          found = 1
        } else if (!color[w]) visit(w)
      }
      depth--; color[v] = 2
    }
    END { for (v in node) if (!color[v]) visit(v); exit found }' >&2 || bad=1

  # Where each sp__ function is defined (a line at column 0 naming it, not
  # a prototype) and where it is declared (a header of the folder).
  for f in "$dir"*.c; do
    [ -f "$f" ] || continue
    grep -v ';[[:space:]]*$' "$f" |
      sed -n 's/^[a-z][a-z0-9_ *]*[ *]\(sp__[a-z0-9_]*\)(.*/\1/p' |
      sed "s|\$| $(basename "$f" .c)|"
  done | sort -u >"${TMPDIR:-/tmp}/sp-def.$$"
  for h in "$dir"*.h; do
    [ -f "$h" ] || continue
    sed 's|/\*.*\*/||' "$h" | grep -o '\bsp__[a-z0-9_]*(' | tr -d '(' | sort -u |
      sed "s|\$| $(basename "$h" .h)|"
  done | sort -u >"${TMPDIR:-/tmp}/sp-decl.$$"
  awk -v folder="$folder" '
    NR == FNR { def[$1] = $2; next }
    ($1 in def) && def[$1] != $2 {
      print "check-cycles: src/" folder ": " $1 " is declared in " $2 ".h but defined in " \
        def[$1] ".c: declare it in " def[$1] ".h"
      found = 1
    }
    END { exit found }' "${TMPDIR:-/tmp}/sp-def.$$" "${TMPDIR:-/tmp}/sp-decl.$$" >&2 || bad=1
  rm -f "${TMPDIR:-/tmp}/sp-def.$$" "${TMPDIR:-/tmp}/sp-decl.$$"
done
exit $bad
