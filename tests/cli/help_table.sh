#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# help_table.sh: the help of every command whose options are a table
# (src/cli/options.c, cli_option) lists exactly the table's options: the
# option lines of 'scalepredict CMD --help' and the --options its usage
# lines name are the table's rows, no more and no fewer.  The table's rows
# are read from the command's source.
. "$(dirname "$0")/lib.sh"
src=${SP_TOP_SRCDIR:-$sp_here/../..}/src/cli
checked=0

# The option names of the table $2 in the source $1, one a line (rows of
# kind CLI_OTHER, another command's options, are not its own).
table_names() {
  sed -n "/cli_option $2\[\] = {/,/^};/p" "$1" >"$WORK/rows"
  sed -n -e 's/^.*\bROW([A-Z_]*, "\([a-z0-9-]*\)".*/\1/p' \
    -e 's/^.*CLI_ROW_CALL("\([a-z0-9-]*\)".*/\1/p' "$WORK/rows"
  grep -q 'CLI_ROW_FORCE' "$WORK/rows" && echo force
  grep -q 'CLI_ROWS_PHYSET' "$WORK/rows" && printf '%s\n' trees physet-median physet-mean physet-no-line
  grep -q 'CLI_ROWS_DATA' "$WORK/rows" &&
    printf '%s\n' ignore-counter skip-unknown-kernels skip-kernels-without-counters
}

# The names --help shows: option lines ("  --name" or "  -x, --name") and
# the --names of the usage lines (up to the first blank line).
help_names() {
  {
    sed -n 's/^  \(-[a-zA-Z], \)\{0,1\}--\([a-z0-9-]*\).*/\2/p' "$1"
    sed '/^$/q' "$1" | grep -o -- '--[a-z0-9][a-z0-9-]*' | sed 's/^--//'
  } | sort -u
}

# "COMMAND TABLE" for each command of a source (cmd_plan.c has two): its
# cli_command's .prefix and .opts.
commands() {
  sed -n -e '/static const cli_command/,/^};/{' \
    -e 's/.*\.prefix = "\([a-z]*\) ".*/\1/p' -e 's/.*\.opts = \([a-z_]*\),.*/\1/p' -e '}' "$1" |
    paste - -
}

for f in "$src"/cmd_*.c; do
  grep -q 'static const cli_command' "$f" || continue
  commands "$f" >"$WORK/commands"
  [ -s "$WORK/commands" ] || fail "$f: no .prefix and .opts"
  while read -r cmd table; do
    [ -n "$table" ] || { fail "$f: $cmd: no .opts"; continue; }
    sp "$cmd" --help
    expect_rc "$cmd --help" 0
    table_names "$f" "$table" | sort -u >"$WORK/table"
    help_names "$WORK/out" >"$WORK/help"
    [ -s "$WORK/table" ] || fail "$cmd: no options read from $table in $f"
    if ! cmp -s "$WORK/table" "$WORK/help"; then
      fail "$cmd: --help and the option table differ (< table, > help):" \
        "$(diff "$WORK/table" "$WORK/help" | grep '^[<>]' | tr '\n' ' ')"
    fi
    checked=$((checked + 1))
  done <"$WORK/commands"
done
[ "$checked" -gt 0 ] || fail "no command has an option table"
echo "help_table: $checked commands' help checked against their option tables"
finish
