#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# check-includes.sh: the layering of docs/internals.md, checked on the
# #include "..." lines of every file under src/ and include/.
#
# docs/internals.md names the layers, lowest first, on one line:
#     layers (lowest first): util | data plot | model | ...
# A file in folder F may include a header of its own folder (by bare name),
# the public "scalepredict.h", and "G/name.h" for a folder G of a lower
# layer; never one beside it or above.  The CLI (the last layer) includes
# the public header and its own headers only.  Every folder of src/ must be
# in the list, and every included header must exist.  Exit 0 when all hold,
# 1 with one line per broken rule otherwise.
set -u
top=${SP_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
doc=$top/docs/internals.md
layers=$(sed -n 's/^ *layers (lowest first): *//p' "$doc" 2>/dev/null)
if [ -z "$layers" ]; then
  echo "check-includes: no 'layers (lowest first):' line in $doc" >&2
  exit 1
fi

# rank FOLDER: its layer's index, or nothing when it is not listed.
rank() {
  echo "$layers" | awk -v f="$1" -F'|' '{
    for (i = 1; i <= NF; i++) { n = split($i, w, " "); for (j = 1; j <= n; j++) if (w[j] == f) { print i; exit } }
  }'
}
last=$(echo "$layers" | awk -F'|' '{ print NF }')

bad=0
broken() {
  echo "check-includes: $*" >&2
  bad=1
}

for dir in "$top"/src/*/; do
  folder=$(basename "$dir")
  r=$(rank "$folder")
  [ -n "$r" ] || { broken "src/$folder is in no layer of docs/internals.md"; continue; }
  for file in "$dir"*.c "$dir"*.h; do
    [ -f "$file" ] || continue
    rel=src/$folder/$(basename "$file")
    grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$file" |
      sed 's/^\([0-9]*\):.*"\(.*\)".*/\1 \2/' >"${TMPDIR:-/tmp}/sp-inc.$$"
    while read -r line inc; do
      where="$rel:$line: #include \"$inc\""
      case $inc in
        scalepredict.h) continue ;;
        */*/* | ../*) broken "$where: include another folder's headers as \"folder/name.h\"" ;;
        */*)
          g=${inc%%/*}
          gr=$(rank "$g")
          if [ ! -f "$top/src/$inc" ]; then broken "$where: no such header"
          elif [ "$r" -eq "$last" ]; then broken "$where: the CLI uses the public header only"
          elif [ -z "$gr" ]; then broken "$where: src/$g is in no layer"
          elif [ "$g" = "$folder" ]; then broken "$where: include the folder's own headers by bare name"
          elif [ "$gr" -ge "$r" ]; then
            broken "$where: $folder (layer $r) may not use $g (layer $gr)"
          fi ;;
        *) [ -f "$dir$inc" ] || broken "$where: no such header in src/$folder" ;;
      esac
    done <"${TMPDIR:-/tmp}/sp-inc.$$"
    rm -f "${TMPDIR:-/tmp}/sp-inc.$$"
  done
done

# The public header stands alone.
if grep -q '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$top/include/scalepredict.h"; then
  broken "include/scalepredict.h includes a project header"
fi
exit $bad
