#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# hostile.sh: huge and hostile inputs through the tool (issue 6).  Each is
# either refused with one line naming the file, line and problem (exit 2) or
# handled correctly, and the ones built to exhaust memory are checked to
# stay within a bound (with /usr/bin/time, outside sanitizer builds).
# docs/reliability.md lists every case with the tool's answer.
. "$(dirname "$0")/../cli/lib.sh"

H=kernel,cu,engine_mhz,memory_mhz,time_ms,power_w
MIB=1048576

# Peak memory is checked only where it means something: /usr/bin/time is
# there, and no sanitizer or valgrind wrapper adds its own.
rss_check=0
if [ -x /usr/bin/time ] && [ -z "$SP_WRAPPER" ] && [ "${SP_SANITIZERS:-no}" != yes ]; then
  rss_check=1
fi

# bounded WHAT LIMIT_KB ARGS...: runs scalepredict like sp, and fails when its
# peak resident memory exceeds LIMIT_KB.
bounded() {
  what=$1 limit=$2
  shift 2
  if [ "$rss_check" -eq 0 ]; then
    sp "$@"
    return
  fi
  /usr/bin/time -f %M -o "$WORK/rss" "$SCALEPREDICT" "$@" >"$WORK/out" 2>"$WORK/err"
  rc=$?
  kb=$(tail -n 1 "$WORK/rss")
  [ "$kb" -le "$limit" ] || fail "$what: peak memory $kb KB, bound $limit KB"
}

# surfaces_error NAME FILE CODE PATTERN...: `surfaces` on FILE fails with
# CODE and one line holding every PATTERN; no output directory is left.
surfaces_error() {
  name=$1 file=$2 code=$3
  shift 3
  sp surfaces --runs "$file" --out "$name.out"
  expect_error "$name" "$code" "$@"
  no_leftovers "$name" "$name.out/time.csv"
}

# ---- 1 MiB fields ----------------------------------------------------------
# A kernel name of exactly the limit is a name like any other; one byte more
# is refused where it is, with the limit in the message.
name=$(head -c $MIB /dev/zero | tr '\0' 'k')
{ echo $H; echo "$name,16,1000,1375,4.77,90.5"; echo "$name,32,1000,1375,2.385,150.25"; } >at-limit.csv
sp surfaces --runs at-limit.csv --out at-limit.out
expect_rc "field at the limit" 0
[ "$(wc -c <at-limit.out/time.csv)" -gt $MIB ] || fail "field at the limit: name not written"
{ echo $H; echo "${name}k,16,1000,1375,4.77,90.5"; } >over-limit.csv
surfaces_error "field over the limit" over-limit.csv 2 "over-limit.csv:2:1:" "exceeds the $MIB-byte limit"

# ---- malformed quoting -----------------------------------------------------
printf '%s\na,16,1000,1375,4.77,90.5\nb,32,1000,1375,3.25,"120\n' $H >open-last.csv
surfaces_error "unclosed quote, last field" open-last.csv 2 "open-last.csv:3:6:" "never closed"
printf '%s\n"a,16,1000,1375,4.77,90.5\nb,32,1000,1375,3.25,120\n' $H >open-first.csv
surfaces_error "unclosed quote, first field" open-first.csv 2 "open-first.csv:2:1:" "never closed"
printf '%s\nb,16,1000,1375,4.77,90.5\na"b,32,1000,1375,3.25,120\n' $H >bare-quote.csv
surfaces_error "quote in an unquoted field" bare-quote.csv 2 "bare-quote.csv:3:1:" "malformed quoting"
printf '%s\n"a"b,16,1000,1375,4.77,90.5\n' $H >after-quote.csv
surfaces_error "text after a closing quote" after-quote.csv 2 "after-quote.csv:2:1:" "malformed quoting"
# Properly doubled quotes, commas and a line break inside quotes are data.
printf '%s\n"a ""x"", y\nz",16,1000,1375,4.77,90.5\n"a ""x"", y\nz",32,1000,1375,2.385,150.25\n' $H >rfc.csv
sp surfaces --runs rfc.csv --out rfc.out
expect_rc "RFC 4180 quoting" 0
# A line break inside a quoted number is quoted back escaped: still one line.
printf '%s\na,16,1000,1375,"4.\n77",90.5\n' $H >broken-number.csv
surfaces_error "line break in a number" broken-number.csv 2 "broken-number.csv:2:5: field 'time_ms'" "'4.\\n77'"
# An 8 MiB quoted field that never ends is stopped at the limit, near its
# start, in bounded memory.
{ echo $H; printf '"'; awk 'BEGIN { for (i = 0; i < 131072; i++) print "abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz" }'; } >endless.csv
bounded "endless quoted field" 65536 surfaces --runs endless.csv --out endless.out
expect_error "endless quoted field" 2 "endless.csv:" "field exceeds the $MIB-byte limit"
line=$(sed -n 's/^scalepredict: endless.csv:\([0-9]*\):.*/\1/p' "$WORK/err")
[ "${line:-0}" -gt 16000 ] && [ "${line:-0}" -lt 20000 ] ||
  fail "endless quoted field: stopped on line ${line:-?}, want just past 1 MiB (line ~16400)"
# A million quote characters: escaped quotes, then no closing one.
{ echo $H; head -c 1000001 /dev/zero | tr '\0' '"'; } >quotes.csv
surfaces_error "a million quotes" quotes.csv 2 "quotes.csv:2:1:" "never closed"

# ---- rows and columns ---------------------------------------------------------
# 100,001 columns: refused at the limit; 8 MiB of commas on one line likewise,
# without buffering the line.
awk 'BEGIN { printf "kernel"; for (i = 0; i < 100000; i++) printf ",c%d", i; print "" }' >wide-header.csv
surfaces_error "100001 columns" wide-header.csv 2 "wide-header.csv:1:" "more than 100000 fields"
{ echo $H; head -c $((8 * MIB)) /dev/zero | tr '\0' ','; } >commas.csv
bounded "8 MiB of commas" 65536 surfaces --runs commas.csv --out commas.out
expect_error "8 MiB of commas" 2 "commas.csv:2:" "more than 100000 fields"
# 10,000 counter columns: a correct model.
awk -v n=10000 'BEGIN {
  printf "kernel,cu,engine_mhz,memory_mhz"; for (c = 0; c < n; c++) printf ",ctr%05d", c; print ""
  for (k = 0; k < 4; k++) {
    printf "k%d,32,1000,1375", k
    for (c = 0; c < n; c++) printf ",%.3f", (k % 2) * 50 + (c % 7) + k / 8
    print ""
  }
}' >wide-counters.csv
awk 'BEGIN {
  print "kernel,cu,engine_mhz,memory_mhz,time_ms,power_w"
  for (k = 0; k < 4; k++) {
    s = 1.5 + k
    printf "k%d,32,1000,1375,%g,100\n", k, s
    printf "k%d,16,1000,1375,%g,80\n", k, s * (k % 2 ? 2 : 1.25)
  }
}' >wide-runs.csv
sp train --runs wide-runs.csv --counters wide-counters.csv --base 32cu/1000/1375 \
  --clusters 2 --out wide.model
expect_rc "10000 counters" 0
expect_out "10000 counters" "4 kernels, 10000 counters"
# So many near-identical inputs can saturate the classifier so that it does
# not learn every training kernel; then the tool must say so.
cp "$WORK/err" wide.err
sp predict --model wide.model --runs wide-runs.csv --counters wide-counters.csv \
  --target 16cu/1000/1375 --format csv
expect_rc "10000 counters, predict" 0
awk -F, 'NR > 1 && ($4 != $5) { bad = 1 } END { exit bad }' "$WORK/out" ||
  grep -q "did not learn their training kernels" wide.err ||
  fail "10000 counters: training kernels mispredicted without a warning: $(cat "$WORK/out")"

# ---- binary and numeric garbage ---------------------------------------------------
printf '%s\na\000x,16,1000,1375,1,1\na\000y,32,1000,1375,2,2\n' $H >nul.csv
surfaces_error "NUL byte in a name" nul.csv 2 "nul.csv:2:1:" "NUL byte"
awk 'BEGIN { for (i = 1; i < 256; i++) if (i != 10) printf "%c", i; print "" }' >bytes.csv
surfaces_error "every byte value" bytes.csv 2 "bytes.csv:1:"
{ echo $H; printf 'a,16,1000,1375,1'; head -c 400 /dev/zero | tr '\0' 0; echo ',1'; } >huge-number.csv
surfaces_error "1e400" huge-number.csv 2 "huge-number.csv:2:5: field 'time_ms'" "positive finite"
printf '%s\na,2147483648,1000,1375,1,1\n' $H >big-cu.csv
surfaces_error "cu past INT_MAX" big-cu.csv 2 "big-cu.csv:2:2: field 'cu'" "positive integer"

# ---- grids ------------------------------------------------------------------------
# 3000 rows with distinct clocks span a 3000^3 grid: the hole is reported at
# once instead of allocating the grid.
awk -v h=$H 'BEGIN { print h; for (i = 1; i <= 3000; i++) printf "k,%d,%d,%d,1.5,2\n", i, i, i }' >sparse.csv
bounded "sparse 3000^3 grid" 65536 surfaces --runs sparse.csv --out sparse.out
expect_error "sparse 3000^3 grid" 2 "sparse.csv: field 'time_ms'" "has no row at 1cu/1/2"
# 100,000 rows (100 kernels x 1000 configurations) load and scale.
awk -v h=$H 'BEGIN { print h
  for (k = 0; k < 100; k++) for (c = 1; c <= 10; c++) for (e = 1; e <= 10; e++) for (m = 1; m <= 10; m++)
    printf "k%03d,%d,%d,%d,%.6g,%.4g\n", k, 4 * c, 100 * e, 150 * m, (1 + k) * 1000 / (c * e) + 50 / m, 50 + c * e
}' >rows.csv
bounded "100000 rows" 131072 surfaces --runs rows.csv --kernel k042 --out rows.out
expect_rc "100000 rows" 0
[ "$(wc -l <rows.out/time.csv)" -eq 2701 ] || fail "100000 rows: $(wc -l <rows.out/time.csv) lines"

finish
