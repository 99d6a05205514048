#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# h100-plots.sh: the SM-scaling figures of docs/harness.md from the real
# H100 data set (training/data/h100-sm/runs.csv).
#   sh docs/img/h100-plots.sh   (from the repository root; needs gnuplot)
# Each scaling curve is the kernel's speed-up over its 8-SM time,
# t(8)/t(N), the dashed line perfect scaling, N/8; h100-power.svg shows
# the average power of the same rows.
set -eu
runs=${1:-training/data/h100-sm/runs.csv}
out=${2:-docs/img}

# speedup KERNEL: "cu speedup power" lines, sorted by cu.
speedup() {
  awk -F, -v k="$1" '$1 == k { t[$2] = $5; p[$2] = $6 }
    END { for (c in t) print c, t[8] / t[c], p[c] }' "$runs" | sort -n
}

# plot NAME TITLE COLUMN KERNEL...: COLUMN 2 is the speed-up, 3 the power.
plot() {
  name=$1 title=$2 col=$3
  shift 3
  cmds="" sep=""
  for k in "$@"; do
    speedup "$k" >"$out/.h100-$k.dat"
    cmds="$cmds$sep'$out/.h100-$k.dat' using 1:$col with linespoints lw 2 title '$k'"
    sep=", "
  done
  if [ "$col" = 2 ]; then
    ylabel='speed-up over 8 SMs'
    ideal="x/8 with lines dt 2 lc rgb 'gray' title 'N/8 (perfect)', "
    yrange='[0:18]'
  else
    ylabel='average power (W, NVML)'
    ideal=''
    yrange='[0:800]'
  fi
  gnuplot <<GP
set terminal svg size 640,420 font 'Helvetica,12' background rgb 'white' noenhanced
set output '$out/h100-$name.svg'
set title '$title'
set xlabel 'SMs (green-context partition)'
set ylabel '$ylabel'
set key left top
set grid
set xrange [0:136]
set xtics (8, 16, 32, 48, 64, 80, 96, 112, 132)
set yrange $yrange
plot $ideal$cmds
GP
  for k in "$@"; do rm -f "$out/.h100-$k.dat"; done
}

plot scaling-compute "H100: compute-bound kernels" 2 \
  mm_regblock poly_f32_d512 poly_f64_d256 mc_gbm branch_divergent
plot scaling-bandwidth "H100: DRAM-bandwidth-bound kernels" 2 \
  stream_copy stream_triad reduce_sum_f64 gather_dram scatter_perm
plot scaling-l2 "H100: the same reads, working sets around the 50 MB L2" 2 \
  ws_8mb ws_40mb ws_64mb ws_256mb
plot scaling-flat "H100: latency, atomics, launch overhead, too few work-groups" 2 \
  chase_dram atomic_one hist_global_256 gemv_colmajor tiny_launch
plot power "H100: power while the kernel runs, by SM count" 3 \
  poly_f64_d256 st3d_27pt stream_copy mm_regblock chase_dram atomic_one
