#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# suites.sh: reads the suite registry, training/suites.txt, for the build,
# the harness scripts, the tests and the data merges.
#
#   sh training/suites.sh [-C TOP] COMMAND
#
# TOP is the top of the source tree (default: the folder above this
# script's); the registry is TOP/training/suites.txt.  COMMAND:
#   lines         one line per suite, checked: name, prefix, folder, role
#                 and retired, tab-separated, in registry order
#   retired       the name and folder of every retired suite (role training,
#                 a date retired), tab-separated, in registry order
#   folder NAME   suite NAME's folder; exit 2, naming it, when the registry
#                 has no such suite
#   runner-dirs [ROOT]  sp-runner's options --suite-dir NAME=ROOT/FOLDER for
#                 every suite, then --suite-dir common=ROOT/COMMON, on one
#                 line (without ROOT: the folders as the registry gives
#                 them; registry folders have no blanks, nor may ROOT)
#   common        the shared device-header folder (from TOP)
#   def           sp-runner's table: one SP_SUITE(name, prefix, folder,
#                 ROLE, retired) line per suite (configure writes it to
#                 training/runner/suites.def)
#   vars          sp-runner's file lists, as shell assignments for
#                 configure (which substitutes them into the Makefile):
#                 SUITE_NAMES, SUITE_FOLDERS (the shared headers' folder
#                 and each suite's), SUITE_INCLUDES (-I each suite
#                 folder), SUITE_OBJECTS, SUITE_HDRS and SUITE_DIST
#   mk            sp-runner's build rules: every suite's host sources
#                 compiled, its device sources installed (configure writes
#                 it to training/runner/suites.mk)
# A malformed registry line is reported as FILE:LINE: what is wrong, with
# exit status 1; a usage error exits 2.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" = -C ]; then
  [ $# -ge 2 ] || { echo "suites.sh: -C needs a folder" >&2; exit 2; }
  top=$2
  shift 2
fi
cmd=${1:-}
[ -n "$cmd" ] || { echo "usage: sh training/suites.sh [-C TOP] lines|retired|folder NAME|runner-dirs [ROOT]|common|def|vars|mk" >&2; exit 2; }
shift
registry=$top/training/suites.txt
# The folder of the device headers every suite's sources share.
common=training/kernels/common

[ -f "$registry" ] || { echo "suites.sh: $registry: no such file" >&2; exit 1; }

# The checked registry, tab-separated.
lines() {
  awk -v file="$registry" -v common="$common" '
    function bad(what) { printf "%s:%d: %s\n", file, FNR, what > "/dev/stderr"; err = 1 }
    { sub(/#.*/, "") }
    NF == 0 { next }
    NF != 5 { bad("expected 5 fields (name prefix folder role retired), found " NF); next }
    {
      name = $1; prefix = $2; folder = $3; role = $4; retired = $5
      if (name !~ /^[a-z][a-z0-9_]*$/) bad("name '\''" name "'\'' is not [a-z][a-z0-9_]*")
      if (name ~ /^(all|training|heldout|train|common)$/)
        bad("name '\''" name "'\'' is a --suite selection or folder word")
      if (prefix != "-" && prefix !~ /^[a-z0-9_]+$/) bad("prefix '\''" prefix "'\'' is not [a-z0-9_]+ or -")
      if (role == "training" && folder !~ /^training\/kernels\/[a-z0-9_]+$/)
        bad("a training suite'\''s folder is training/kernels/NAME, not " folder)
      if (role == "heldout" && folder !~ /^training\/heldout\/[a-z0-9_]+$/)
        bad("a held-out suite'\''s folder is training/heldout/NAME, not " folder)
      if (role != "training" && role != "heldout") bad("role '\''" role "'\'' is not training or heldout")
      if (folder == common) bad("the folder " common " holds the shared headers, not a suite")
      if (retired != "-" && retired !~ /^20[0-9][0-9]-[01][0-9]-[0-3][0-9]$/)
        bad("retired '\''" retired "'\'' is not YYYY-MM-DD or -")
      if (retired != "-" && role != "training") bad("a retired suite has the role training")
      if (name in names) bad("suite " name " is named twice")
      if (prefix != "-" && (prefix in prefixes)) bad("prefix " prefix " is taken by " prefixes[prefix])
      if (folder in folders) bad("folder " folder " is taken by " folders[folder])
      names[name] = 1; prefixes[prefix] = name; folders[folder] = name
      out[++n] = name "\t" prefix "\t" folder "\t" role "\t" retired
    }
    END {
      if (n == 0 && !err) { printf "%s: no suite\n", file > "/dev/stderr"; err = 1 }
      if (err) exit 1
      for (i = 1; i <= n; i++) print out[i]
    }' "$registry"
}

# The suites, each checked for its folder.
suites() {
  lines >"$tmp/lines"
  while IFS="$(printf '\t')" read -r name prefix folder role retired; do
    [ -d "$top/$folder" ] || { echo "$registry: suite $name: no folder $top/$folder" >&2; exit 1; }
  done <"$tmp/lines"
  cat "$tmp/lines"
}

# The files of folder (from TOP) whose names match the patterns, sorted.
files() {
  d=$1
  shift
  for p in "$@"; do
    for f in "$top/$d"/$p; do [ -f "$f" ] && echo "${f##*/}"; done
  done | LC_ALL=C sort
}

def() {
  echo "/* Generated from training/suites.txt by training/suites.sh def: do not edit."
  echo " * SP_SUITE(name, prefix, folder, role, retired), in --suite all order. */"
  echo "#ifndef SP_SUITES_COMMON"
  echo "#define SP_SUITES_COMMON \"$common\""
  echo "#endif"
  suites >"$tmp/suites"
  while IFS="$(printf '\t')" read -r name prefix folder role retired; do
    [ "$prefix" = - ] && prefix=
    [ "$retired" = - ] && retired=
    up=$(echo "$role" | tr '[:lower:]' '[:upper:]')
    echo "SP_SUITE($name, \"$prefix\", \"$folder\", $up, \"$retired\")"
  done <"$tmp/suites"
}

# vars: shell assignments of make text; make's own variables
# ($(top_srcdir) ...) are left for make, in single quotes.
# shellcheck disable=SC2016
vars() {
  suites >"$tmp/suites"
  printf "SUITE_NAMES='"
  cut -f1 "$tmp/suites" | paste -sd ' ' - | tr -d '\n'
  printf "'\nSUITE_FOLDERS='"
  { echo "$common"; cut -f3 "$tmp/suites"; } | while read -r d; do printf ' $(top_srcdir)/%s' "$d"; done
  printf "'\nSUITE_INCLUDES='"
  cut -f3 "$tmp/suites" | while read -r d; do printf ' -I$(top_srcdir)/%s' "$d"; done
  printf "'\nSUITE_OBJECTS='"
  cut -f1,3 "$tmp/suites" | while IFS="$(printf '\t')" read -r name d; do
    files "$d" '*.c' | while read -r f; do printf ' suites/%s/%s.$(OBJEXT)' "$name" "${f%.c}"; done
  done
  printf "'\nSUITE_HDRS='"
  cut -f3 "$tmp/suites" | while read -r d; do
    files "$d" '*.h' | while read -r f; do printf ' $(top_srcdir)/%s/%s' "$d" "$f"; done
  done
  printf "'\nSUITE_DIST='"
  { echo "$common"; cut -f3 "$tmp/suites"; } | while read -r d; do
    files "$d" '*.c' '*.h' '*.cl' '*.cu' README.md families.csv |
      while read -r f; do printf ' $(top_srcdir)/%s/%s' "$d" "$f"; done
  done
  printf "'\n"
}

# mk: make rules; make's own variables ($(top_srcdir) ...) are left for
# make.
# shellcheck disable=SC2016
mk() {
  suites >"$tmp/suites"
  echo "# Generated from training/suites.txt by training/suites.sh mk: do not edit."
  cut -f1,3 "$tmp/suites" | while IFS="$(printf '\t')" read -r name d; do
    files "$d" '*.c' | while read -r f; do
      o="suites/$name/${f%.c}.\$(OBJEXT)"
      printf '%s: $(top_srcdir)/%s/%s $(SUITE_HDRS)\n' "$o" "$d" "$f"
      printf '\t@$(MKDIR_P) suites/%s\n' "$name"
      printf '\t$(AM_V_CC)$(SUITE_COMPILE) -c -o %s $(top_srcdir)/%s/%s\n' "$o" "$d" "$f"
    done
  done
  # The device sources (and headers) of each suite into suitesdir/NAME,
  # the shared headers into suitesdir/common.
  { printf 'common\t%s\n' "$common"; cut -f1,3 "$tmp/suites"; } >"$tmp/install"
  printf '\ninstall-suites:\n'
  while IFS="$(printf '\t')" read -r name d; do
    printf "\t\$(MKDIR_P) '\$(DESTDIR)\$(suitesdir)/%s'\n" "$name"
    files "$d" '*.h' '*.cl' '*.cu' | while read -r f; do
      printf "\t\$(INSTALL_DATA) \$(top_srcdir)/%s/%s '\$(DESTDIR)\$(suitesdir)/%s'\n" "$d" "$f" "$name"
    done
  done <"$tmp/install"
  printf '\nuninstall-suites:\n'
  while IFS="$(printf '\t')" read -r name d; do
    files "$d" '*.h' '*.cl' '*.cu' | while read -r f; do
      printf "\trm -f '\$(DESTDIR)\$(suitesdir)/%s/%s'\n" "$name" "$f"
    done
  done <"$tmp/install"
  printf '\n.PHONY: install-suites uninstall-suites\n'
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/suites.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

case $cmd in
lines) suites ;;
retired)
  suites >"$tmp/suites"
  awk -F '\t' -v OFS='\t' '$4 == "training" && $5 != "-" { print $1, $3 }' "$tmp/suites" ;;
folder)
  suites >"$tmp/suites"
  awk -F '\t' -v s="${1:-}" '$1 == s { print $3; found = 1 } END { exit !found }' "$tmp/suites" ||
    { echo "suites.sh: ${1:-(none)} is not a suite of training/suites.txt" >&2; exit 2; } ;;
runner-dirs)
  root=${1:+$1/}
  suites >"$tmp/suites"
  { cut -f1,3 "$tmp/suites"; printf 'common\t%s\n' "$common"; } |
    awk -F '\t' -v root="$root" '{ printf "%s--suite-dir %s=%s%s", (NR > 1 ? " " : ""), $1, root, $2 } END { print "" }'
  ;;
common) echo "$common" ;;
def) def ;;
vars) vars ;;
mk) mk ;;
*) echo "suites.sh: unknown command '$cmd'" >&2; exit 2 ;;
esac
