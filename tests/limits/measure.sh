#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# measure.sh: time and peak memory for a million-row runs.csv (issue 6;
# results in docs/reliability.md and docs/performance.md).  Not part of
# make check: it writes ~60 MB of CSV and takes about a minute.
#
# Usage: tests/limits/measure.sh BUILDDIR [KERNELS]
#   BUILDDIR  a configured and built tree (make && make -C tests
#             limits/sp_load limits/resume_scan)
#   KERNELS   default 1000; rows = KERNELS x 1000 configurations
#             (10 CU counts x 10 engine clocks x 10 memory clocks)
# Generates runs.csv and counters.csv (20 counters, at the base only) in a
# temporary directory, removed at the end, and measures with /usr/bin/time -v:
#   load       sp_load: sp_dataset_load of runs.csv and counters.csv
#   surfaces   scalepredict surfaces --kernel: load + one kernel's surface
#   train      scalepredict train on everything (k = 12, default epochs)
#   predict    scalepredict predict --target all, every kernel
#   resume     the runner's resume reader (training/runner/csvlog.c):
#              open runs.csv, then 1000 lookups of its last row
set -eu
build=$(cd "${1:?usage: measure.sh BUILDDIR [KERNELS]}" && pwd)
nk=${2:-1000}
sp="$build/src/scalepredict"
for p in "$sp" "$build/tests/limits/sp_load" "$build/tests/limits/resume_scan" /usr/bin/time; do
  [ -x "$p" ] || { echo "measure.sh: $p is missing" >&2; exit 2; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sp-measure.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

# Kernel k: time = s_k * (a/cu + b/engine + c/memory) with per-kernel
# weights, power 40 + cu * engine / 2000 + memory / 100.
awk -v nk="$nk" 'BEGIN {
  print "kernel,cu,engine_mhz,memory_mhz,time_ms,power_w"
  for (k = 0; k < nk; k++) {
    a = 1 + (k * 7) % 13; b = 1 + (k * 5) % 11; c = 1 + (k * 3) % 7
    for (i = 1; i <= 10; i++) for (j = 1; j <= 10; j++) for (m = 1; m <= 10; m++) {
      cu = 4 * i; e = 100 * j + 100; mem = 150 * m + 325
      printf "kernel_%04d,%d,%d,%d,%.6g,%.5g\n", k, cu, e, mem,
        (1 + k % 17) * (1000 * a / cu + 20000 * b / e + 10000 * c / mem),
        40 + cu * e / 2000 + mem / 100
    }
  }
}' >runs.csv
awk -v nk="$nk" 'BEGIN {
  printf "kernel,cu,engine_mhz,memory_mhz"
  for (c = 0; c < 20; c++) printf ",ctr%02d", c
  print ""
  for (k = 0; k < nk; k++) {
    a = 1 + (k * 7) % 13; b = 1 + (k * 5) % 11; cc = 1 + (k * 3) % 7
    printf "kernel_%04d,40,1100,1825", k
    for (c = 0; c < 20; c++) printf ",%.5g", (c % 3 == 0 ? a : c % 3 == 1 ? b : cc) * (1 + c) + k % 5
    print ""
  }
}' >counters.csv
rows=$(($(wc -l <runs.csv) - 1))
echo "runs.csv: $rows rows, $(($(wc -c <runs.csv) / 1048576)) MiB; counters.csv: $nk rows x 20 counters"

# measure NAME COMMAND...: one line with wall time, peak RSS and exit status.
measure() {
  name=$1
  shift
  /usr/bin/time -v -o time.txt "$@" >out.txt 2>err.txt && rc=0 || rc=$?
  wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' time.txt)
  rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' time.txt)
  printf '%-9s wall %8s  max RSS %7s MiB  exit %s\n' "$name" "$wall" \
    "$(awk -v k="$rss" 'BEGIN { printf "%.1f", k / 1024 }')" "$rc"
  sed 's/^/          /' out.txt | head -3
  [ "$rc" -eq 0 ] || sed 's/^/          /' err.txt | head -3
}

measure load "$build/tests/limits/sp_load" runs.csv counters.csv
measure surfaces "$sp" surfaces --runs runs.csv --kernel kernel_0000 --quantity both --out surf
measure train "$sp" train --runs runs.csv --counters counters.csv --base 40cu/1100/1825 --out model
measure predict "$sp" predict --model model --runs runs.csv --counters counters.csv --target all --format csv
[ -s out.txt ] && echo "          $(($(wc -l <out.txt) - 1)) predictions"
measure resume "$build/tests/limits/resume_scan" runs.csv 1000
