#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# check-includes.sh: the layering of docs/internals.md (its layers block,
# read through tests/arch/layers.sh), checked on the #include lines of every
# file under src/ and include/.
#
# A file in folder F may include a header of its own folder (by bare name),
# the public "scalepredict.h", and "G/name.h" for a folder G that F may use
# (layers.sh uses F); nothing else.  The tool (the block's "public" line)
# includes the public header and its own headers only.  A project header
# in angle brackets (<model/model.h>, which the build's -I src would find)
# is refused wherever it is: the rule cannot be dodged that way.  Every
# folder of src/ must be in the block, and every included header must
# exist.  Exit 0 when all hold, 1 with one line per broken rule otherwise.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=${SP_TOP_SRCDIR:-$(cd "$here/../.." && pwd)}
layers="$here/layers.sh"
SP_TOP_SRCDIR=$top
export SP_TOP_SRCDIR

bad=0
broken() {
  echo "check-includes: $*" >&2
  bad=1
}

tmp=${TMPDIR:-/tmp}/sp-inc.$$
trap 'rm -f "$tmp"' EXIT
for dir in "$top"/src/*/; do
  folder=$(basename "$dir")
  if ! uses=$(sh "$layers" uses "$folder" 2>/dev/null); then
    broken "src/$folder is in no line of the layers block of docs/internals.md"
    continue
  fi
  uses=" $(echo "$uses" | tr '\n' ' ')"
  public=0
  sh "$layers" public "$folder" && public=1
  for file in "$dir"*.c "$dir"*.h; do
    [ -f "$file" ] || continue
    rel=src/$folder/$(basename "$file")
    # "LINE q NAME" for #include "NAME", "LINE a NAME" for #include <NAME>,
    # "LINE m" for a computed include (#include MACRO).
    awk '/^[[:space:]]*#[[:space:]]*include/ {
      if (match($0, /"[^"]*"/)) print NR, "q", substr($0, RSTART + 1, RLENGTH - 2)
      else if (match($0, /<[^>]*>/)) print NR, "a", substr($0, RSTART + 1, RLENGTH - 2)
      else print NR, "m"
    }' "$file" >"$tmp"
    while read -r line how inc; do
      if [ "$how" = m ]; then
        broken "$rel:$line: a computed #include hides what it includes"
        continue
      fi
      if [ "$how" = a ]; then
        g=${inc%%/*}
        if [ "$inc" != "$g" ] && [ -f "$top/src/$inc" ]; then
          broken "$rel:$line: #include <$inc>: include the project's headers with quotes"
        elif [ -f "$dir$inc" ]; then
          broken "$rel:$line: #include <$inc>: include the folder's own headers with quotes"
        fi
        continue
      fi
      where="$rel:$line: #include \"$inc\""
      case $inc in
        scalepredict.h) continue ;;
        */*/* | ../*) broken "$where: include another folder's headers as \"folder/name.h\"" ;;
        */*)
          g=${inc%%/*}
          if [ ! -f "$top/src/$inc" ]; then broken "$where: no such header"
          elif [ "$public" = 1 ]; then broken "$where: the tool uses the public header only"
          elif [ "$g" = "$folder" ]; then broken "$where: include the folder's own headers by bare name"
          else
            case $uses in
              *" $g "*) ;;
              *) broken "$where: $folder may not use $g (docs/internals.md, layers)" ;;
            esac
          fi ;;
        *) [ -f "$dir$inc" ] || broken "$where: no such header in src/$folder" ;;
      esac
    done <"$tmp"
  done
done

# The public header stands alone.
if grep -q '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$top/include/scalepredict.h"; then
  broken "include/scalepredict.h includes a project header"
fi
exit $bad
