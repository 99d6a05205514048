#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# check-format.sh: every C source and header of the library, the CLI, the
# tests and the tools is formatted as .clang-format says (one dialect, issue
# 9).  Skipped (77) without clang-format; the build never needs it.  Exit 1
# naming each file clang-format would change: `clang-format -i FILE` fixes it.
set -u
top=${SP_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$top" || exit 1
cf=
for c in clang-format clang-format-14; do
  command -v "$c" >/dev/null 2>&1 && { cf=$c; break; }
done
[ -n "$cf" ] || { echo "check-format: skipped: clang-format is not installed"; exit 77; }
[ -f .clang-format ] || { echo "check-format: no .clang-format at $top"; exit 1; }
bad=0
# shellcheck disable=SC2044 # the tree's C file names have no blanks
for f in $(find src include tests greenctx training -type f \( -name '*.c' -o -name '*.h' \) \
  ! -path 'tests/fuzz/corpus/*' ! -path 'tests/fuzz/regress/*' ! -path 'tests/data/*' \
  ! -path '*/.libs/*' ! -path '*/.deps/*' 2>/dev/null); do
  "$cf" --style=file "$f" | cmp -s - "$f" ||
    { echo "check-format: $f is not formatted (clang-format -i $f)"; bad=1; }
done
exit $bad
