#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# first-check.sh: the first device call for a validation suite (a held-out
# suite's README, "How to measure"): every kernel once checked against its
# host reference and briefly timed at 132, 64 and 8 SMs (no power, short
# windows), one runner process per kernel so that a kernel that fails or
# loses its context costs only its own rows.  It finds a failing check, a
# launch that does not start (resources) or a size far from 0.1-5 ms
# before the measurement; its rows are not data.
#
#   sh training/heldout/first-check.sh SUITE [LEVELS]
#
# SUITE is a name of training/suites.txt.  Run on the device from the
# repository root, with training/runner/sp-runner built (carried); LEVELS
# defaults to 132,64,8.  Writes $OUT/first-check/: env.txt (nvidia-smi
# before and after), runs.csv, details.csv, metadata.txt, log.txt (the
# runner's output and each kernel's exit status) and summary.txt (ms per
# kernel and level, and the kernels whose 132-SM time is outside 0.1-5 ms,
# the intended tiny launches, named *_tiny, excepted).  Nothing here
# changes a GPU setting.
set -u
suite=${1:?usage: first-check.sh SUITE [LEVELS]}
sh training/suites.sh folder "$suite" >/dev/null || exit 2
levels=${2:-132,64,8}
runner=${SP_RUNNER:-training/runner/sp-runner}
d=${OUT:?first-check.sh: OUT is not set}/first-check
PATH=$PATH:/usr/local/cuda/bin:/usr/local/cuda-13.0/bin
export PATH
mkdir -p "$d"
q='name,pci.bus_id,uuid,driver_version,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,power.draw,power.limit,temperature.gpu'
{
  date -u
  nvidia-smi --query-gpu="$q" --format=csv
} >"$d/env.txt" 2>&1
t0=$(date +%s)
for k in $("$runner" --list --suite "$suite" | cut -f1); do
  timeout -s TERM 90 "$runner" --backend cuda --suite "$suite" --kernels "$k" \
    --cu "$levels" --engine-mhz auto --memory-mhz auto --runs "$d/runs.csv" \
    --detail "$d/details.csv" --meta "$d/metadata.txt" --min-time-ms 20 \
    --power-window-ms 0 --warmup-ms 2 --power none >>"$d/log.txt" 2>&1
  echo "first-check: $k exit status $? at $(($(date +%s) - t0)) s" >>"$d/log.txt"
done
nvidia-smi --query-gpu="$q" --format=csv,noheader >>"$d/env.txt" 2>&1
# ms per kernel at each level, in the suite's order, and the sizes to look at.
awk -F, -v lv="$levels" '
  NR == 1 { next }
  { t[$1 "," $2] = $5; if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } }
  END {
    m = split(lv, l, ",")
    printf "%-26s", "kernel"; for (j = 1; j <= m; j++) printf " %10s", l[j] " SMs"; print ""
    for (i = 1; i <= n; i++) {
      k = order[i]; printf "%-26s", k
      for (j = 1; j <= m; j++) printf " %10s", (k "," l[j]) in t ? t[k "," l[j]] : "-"
      print ""
      a = t[k ",132"]
      if (a != "" && k !~ /_tiny$/ && (a < 0.1 || a > 5)) odd = odd " " k " (" a " ms)"
    }
    print "outside 0.1-5 ms at 132 SMs:" (odd == "" ? " none" : odd)
  }' "$d/runs.csv" >"$d/summary.txt" 2>&1
grep -c 'exit status 0 ' "$d/log.txt" | sed 's/^/kernels that exited 0: /' >>"$d/summary.txt"
cat "$d/summary.txt"
