#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# check-shell.sh: every shell script of the tree passes shellcheck at its
# warning level (install-deps installs it, so CI runs this).  A shell
# script is a file named *.sh or one whose first line is a #! of sh, bash or
# dash: the tree's own files as git lists them, or, outside a git checkout
# (a release tarball), the files under the source tree less what autotools
# generate.  Notes and style hints (quoting a word that is split on
# purpose, for one) are not enforced; a script silences a warning with a
# "# shellcheck disable=SCnnnn # why" line.  Skipped (77) when the
# program is missing; exit 1 with its findings otherwise.
set -u
top=${SP_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$top" || exit 1
command -v shellcheck >/dev/null 2>&1 ||
  { echo "check-shell: skipped: shellcheck is not installed"; exit 77; }

# The candidate files, one per line, relative to the tree.
candidates() {
  if [ -d .git ] || [ -f .git ]; then
    git ls-files 2>/dev/null && return
  fi
  find . -type f ! -path './.git/*' ! -path './autom4te.cache/*' ! -path './build-aux/*' \
    ! -path '*/.libs/*' ! -path '*/.deps/*' ! -name configure ! -name config.status \
    ! -name libtool | sed 's|^\./||'
}

list=${TMPDIR:-/tmp}/sp-shell.$$
trap 'rm -f "$list"' EXIT
candidates | while IFS= read -r f; do
  [ -f "$f" ] || continue
  # libtool's wrappers of the programs built in place are not the tree's.
  sed -n 1,4p "$f" 2>/dev/null | grep -aq 'temporary wrapper script' && continue
  case $f in
    *.sh) echo "$f" ;;
    *) head -n 1 "$f" 2>/dev/null | grep -aq '^#!.*[/ ]\(sh\|bash\|dash\)\([[:space:]]\|$\)' &&
      echo "$f" ;;
  esac
done >"$list"
n=$(wc -l <"$list")
[ "$n" -gt 50 ] || { echo "check-shell: found only $n shell scripts under $top"; exit 1; }

bad=0
while IFS= read -r f; do
  shellcheck -S warning -x -P SCRIPTDIR "$f" || bad=1
done <"$list"
[ $bad -eq 0 ] && echo "check-shell: $n shell scripts pass shellcheck -S warning"
exit $bad
