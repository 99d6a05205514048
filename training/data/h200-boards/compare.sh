#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# compare.sh: how far two H200 boards read apart on the same kernels, the
# floor under any prediction of the memory step (README.md).  Each kernel
# that a BOARD (a folder here) measured at the 13 SM levels is compared with
# its H200 rows of the memory-axis training set (training/data/h100h200,
# HBM3e at 3201 MHz, the training boards), as predicted = the training
# board, measured = BOARD: time as measured, power with BOARD's rows put on
# the training set's typical board the way merge.sh does (times its idle
# floor's ratio to the typical floor at each SM count, idle_spin's rows).
# Kernels are classed by their H100 time at 132 SMs (accuracy.md's split):
# launches under 10 us, 10-100 us, at least 100 us.  One Markdown table,
# MAPE %, a row per board and class.
#
#   sh training/data/h200-boards/compare.sh [BOARD ...]   (default: every board here)
set -eu
here=training/data/h200-boards
if [ $# -eq 0 ]; then
  for d in "$here"/*/; do
    [ -f "$d/runs.csv" ] && set -- "$@" "$(basename "$d")"
  done
fi
for board in "$@"; do
  [ -f "$here/$board/runs.csv" ] || { echo "compare.sh: no $here/$board/runs.csv" >&2; exit 2; }
done
echo "| board | launches (H100, 132 SMs) | kernels | time, 132 SMs | time, 13 SM counts | power, 132 SMs | power, 13 SM counts |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
for board in "$@"; do
  runs=$here/$board/runs.csv
  awk -F, -v board="$board" '
    FNR == 1 { f++; next }
    f == 1 && $4 == 2619 && $2 == 132 { h100[$1] = $5 }
    f == 1 && $4 == 3201 { t[$1, $2] = $5; p[$1, $2] = $6 }
    f == 1 && $4 == 3201 && $1 == "idle_spin" { typical[$2] = $6 }
    f == 2 && $1 == "idle_spin" { own[$2] = $6 }
    f == 2 && $1 != "idle_spin" { n[$1]++; bt[$1, $2] = $5; bp[$1, $2] = $6; cus[$2] = 1 }
    END {
      for (k in n) {
        if (n[k] < 13 || !(k in h100)) continue
        c = h100[k] < 0.01 ? 1 : h100[k] < 0.1 ? 2 : 3
        kernels[c]++
        for (cu in cus) {
          if (!((k, cu) in t)) continue
          et = abs(t[k, cu] / bt[k, cu] - 1)
          ep = abs(p[k, cu] / (bp[k, cu] * typical[cu] / own[cu]) - 1)
          st[c] += et; sp[c] += ep; m[c]++
          if (cu == 132) { st132[c] += et; sp132[c] += ep; m132[c]++ }
        }
      }
      name[1] = "under 10 us"; name[2] = "10-100 us"; name[3] = "100 us and more"
      for (c = 1; c <= 3; c++)
        if (m[c])
          printf "| %s | %s | %d | %.2f | %.2f | %.2f | %.2f |\n", board, name[c], kernels[c],
            100 * st132[c] / m132[c], 100 * st[c] / m[c], 100 * sp132[c] / m132[c], 100 * sp[c] / m[c]
    }
    function abs(x) { return x < 0 ? -x : x }
  ' training/data/h100h200/runs.csv "$runs"
done
