#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# export.sh: scalepredict export on the tests/data fixtures: golden CSV in
# both layouts, RFC 4180 line ends, atomic --out, '.' decimals under a
# comma-decimal locale, and bad input.
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"

EXP="export --model $MODEL --runs $NEW/runs.csv --counters $NEW/counters.csv"

sp $EXP --with-measured
expect_rc "export long" 0
same_as_golden "export long" out export-long.csv
sp $EXP --layout wide
expect_rc "export wide" 0
same_as_golden "export wide" out export-wide.csv

# LF line ends, as every CSV of the tool (no CR anywhere); one header plus
# 3 kernels x 8 configurations.
! grep -q "$(printf '\r')" out || fail "wide export has a CR: every CSV ends its lines in LF"
[ "$(wc -l <out)" -eq 4 ] || fail "wide export should have 4 lines"
sp $EXP
[ "$(wc -l <out)" -eq 25 ] || fail "long export should have 25 lines"
head -n 1 out | grep -q '^kernel,config,cu,engine_mhz,memory_mhz,time_ms,power_w,energy_mj' ||
  fail "long export header"
grep -q '^"stencil ""5pt""",16cu/500/475,16,500,475,6.525,63,411.075' out ||
  fail "stencil at 16cu/500/475 is not 2.25 x 2.9 ms and 105 x 0.6 W"

# --out: written atomically; the file equals standard output.
sp $EXP --out matrix.csv
expect_rc "export --out" 0
"$SCALEPREDICT" $EXP >stdout.csv 2>/dev/null
cmp -s matrix.csv stdout.csv || fail "--out differs from standard output"

# Under a comma-decimal locale the numbers keep their '.'.
if comma_locale; then
  LC_ALL=$COMMA_LOCALE sp $EXP --with-measured
  same_as_golden "export under $COMMA_LOCALE" out export-long.csv
else
  echo "no comma-decimal locale: the locale check is skipped" >&2
fi

# Refined grid: 3 kernels x 2 CUs x 3 engine x 3 memory clocks.
sp $EXP --grid-interp 2
[ "$(wc -l <out)" -eq 55 ] || fail "grid-interp 2 should give 55 lines"
grep -q '^fft,32cu/750/925,32,750,925,' out || fail "no refined configuration 32cu/750/925"

# ---- bad input: nothing written ----
printf 'kernel,cu,engine_mhz,memory_mhz,time_ms,power_w\nfft,32,1000,1375,5.5,172\nsolo,32,1000,1375,1,100\n' >r.csv
printf 'kernel,cu,engine_mhz,memory_mhz,sq.valu_busy,ta.mem_busy,tcp.hit.rate\nfft,32,1000,1375,89.25,6.75,0.92\nsolo,16,500,475,1,2,3\n' >c.csv
sp export --model "$MODEL" --runs r.csv --counters c.csv --out bad.csv
expect_error "kernel without counters" 2 "'solo'"
no_leftovers "kernel without counters" bad.csv
sp export --model "$MODEL" --runs r.csv --counters c.csv
expect_error "kernel without counters, stdout" 2 "'solo'"
sp $EXP --method nosuch
expect_error "unknown method" 2 "field 'method'" "'nosuch'" "(it has wu2015, physet)"
sp $EXP --layout tall
expect_usage "bad layout" "--layout"
sp $EXP --grid-interp x
expect_usage "bad grid-interp" "--grid-interp"
sp export --model "$MODEL" --counters c.csv
expect_usage "no runs" "required"

finish
