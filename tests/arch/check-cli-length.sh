#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# check-cli-length.sh: no option parser of the tool (src/cli) is longer
# than 60 lines (docs/internals.md, "The tool's options").  A parser is a
# function that calls getopt_long or cli_parse_options, or a setter of an
# option table (set_*), or one named parse_args.  The parsers not yet on
# option tables (issue 27) are listed below with their length today: they
# may shrink, not grow, and each leaves the list when converted.
# Exit 0 when all hold, 1 naming each parser over its limit.
set -u
top=${SP_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
limit=60
not_yet=''

# "LINES FILE:NAME" for each parser: a definition at column 0 up to the
# first "}" at column 0.
for f in "$top"/src/cli/*.c; do
  awk -v file="$(basename "$f")" '
    !infn && /^[a-zA-Z][^;]*\(/ && !/;[[:space:]]*$/ {
      infn = 1; start = FNR; parser = 0; name = $0
      sub(/\(.*/, "", name); sub(/.*[ *]/, "", name)
      if (name ~ /^set_/ || name == "parse_args") parser = 1
    }
    infn && /getopt_long\(|cli_parse_options\(/ && name != "cli_parse_options" { parser = 1 }
    infn && /^}/ { if (parser) print FNR - start + 1, file ":" name; infn = 0 }' "$f"
done | awk -v limit="$limit" -v not_yet="$not_yet" '
  BEGIN { n = split(not_yet, l, "\n"); for (i = 1; i <= n; i++) { split(l[i], w, " "); cap[w[1]] = w[2] } }
  { max = ($2 in cap) ? cap[$2] : limit; count++
    if ($1 > max) { print "check-cli-length: src/cli/" $2 " is " $1 " lines, more than " max; bad = 1 } }
  END { print "check-cli-length: " count " parsers, " length(cap) " not yet on option tables" > "/dev/stderr"
        exit bad }'
