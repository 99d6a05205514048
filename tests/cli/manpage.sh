#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# manpage.sh (issue 12, item 6): docs/scalepredict.1 documents every
# command that 'scalepredict --help' lists, and every option that each
# command's --help prints appears in that command's section of the page
# (".SS \"scalepredict CMD\""), so the page cannot drift from the binary;
# the SYNOPSIS names every command too.
. "$(dirname "$0")/lib.sh"

MAN=${SP_TOP_SRCDIR:-$sp_here/../..}/docs/scalepredict.1
[ -f "$MAN" ] || { echo "no docs/scalepredict.1 in this tree: skipped" >&2; exit 77; }

# section NAME: the lines of the page's ".SS" section NAME, '\-' as '-'.
section() {
  awk -v want=".SS \"$1\"" '
    /^\.S[SH] / { on = ($0 == want) }
    on' "$MAN" | sed 's/\\-/-/g'
}

# options WHAT: the --options at the start of a help line (two spaces in).
options() {
  grep -oE '^  +(-[a-zA-Z], )?--[a-z][a-z-]*' | grep -oE -- '--[a-z][a-z-]*' | sort -u
}

sp --help
commands=$(sed -n '/^Commands:/,/^$/p' out | grep -oE '^  [a-z]+' | tr -d ' ')
[ -n "$commands" ] || fail "no commands in scalepredict --help"
options <out >main.opts
section "scalepredict (no command)" >main.sec
while read -r opt; do
  grep -qF -- "$opt" main.sec || fail "scalepredict --help: $opt is not in the man page"
done <main.opts

# The SYNOPSIS has a line per command (issue 26: estimate was missing).
awk '/^\.SH SYNOPSIS/ { on = 1; next } /^\.SH / { on = 0 } on' "$MAN" >synopsis
for cmd in $commands; do
  grep -q "^\.B scalepredict $cmd\$" synopsis || fail "command $cmd is not in the SYNOPSIS"
done

for cmd in $commands; do
  grep -q "^\.B $cmd\$" "$MAN" || fail "command $cmd is not under COMMANDS"
  section "scalepredict $cmd" >"$cmd.sec"
  [ -s "$cmd.sec" ] || { fail "no section for scalepredict $cmd"; continue; }
  sp "$cmd" --help
  expect_rc "$cmd --help" 0
  options <out >"$cmd.opts"
  [ -s "$cmd.opts" ] || grep -q "^Takes no options" out || fail "$cmd --help lists no options"
  while read -r opt; do
    grep -qF -- "$opt" "$cmd.sec" || fail "$cmd --help: $opt is not in its man page section"
  done <"$cmd.opts"
done
grep -q '^\.SH EXAMPLES' "$MAN" || fail "the man page has no examples"

finish
