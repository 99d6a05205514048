#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# check-exports.sh: the shared library exports the public API and nothing
# else (docs/internals.md, "Layers"): its dynamic symbols are exactly the
# functions include/scalepredict.h declares, so no internal sp__ function
# is reachable from the tool or any other program linked against it.
# Skipped (77) without nm or a shared library (a static or sanitizer
# build); exit 1 naming each symbol exported but not public, or declared
# but not exported.
set -u
top=${SP_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${SP_TOP_BUILDDIR:-$top}
lib=$build/src/.libs/libscalepredict.so
command -v nm >/dev/null 2>&1 || { echo "check-exports: skipped: no nm"; exit 77; }
[ -f "$lib" ] || { echo "check-exports: skipped: no shared library at $lib"; exit 77; }

tmp=${TMPDIR:-/tmp}/sp-exports.$$
trap 'rm -f "$tmp".*' EXIT
nm -D --defined-only "$lib" | awk 'NF == 3 { print $3 }' | sort -u >"$tmp.exported"
sed -n 's/^[a-z][a-z0-9_ *]*[ *]\(sp_[a-z0-9_]*\)(.*/\1/p' "$top/include/scalepredict.h" |
  sort -u >"$tmp.public"
bad=0
internal=$(grep -c '^sp__' "$tmp.exported")
if [ "$internal" -ne 0 ]; then
  echo "check-exports: $internal internal sp__ symbols exported, the first:" \
    "$(grep -m 1 '^sp__' "$tmp.exported")" >&2
  bad=1
fi
comm -23 "$tmp.exported" "$tmp.public" | while read -r s; do
  echo "check-exports: $s is exported but not declared in include/scalepredict.h" >&2
done
comm -13 "$tmp.exported" "$tmp.public" | while read -r s; do
  echo "check-exports: $s is declared in include/scalepredict.h but not exported" >&2
done
cmp -s "$tmp.exported" "$tmp.public" || bad=1
[ $bad -eq 0 ] && echo "check-exports: $(wc -l <"$tmp.public") public functions, nothing else"
exit $bad
