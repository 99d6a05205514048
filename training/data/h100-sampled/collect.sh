#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# One device call: full and sampled base measurement of the sampleable
# kernels on the H100 at three SM levels.
cd "$(dirname "$0")" || exit 1
export LD_LIBRARY_PATH=$PWD/lib
R=./sp-runner
o=${OUT:?}
K=stream_copy,stream_scale,stream_add,stream_triad,stream_triad_f64,stream_stride32,st2d_5pt,st2d_5pt_f64,st2d_9pt,st2d_5pt_tiled,st3d_7pt,st3d_27pt,mm_naive,mm_naive_strided,mm_tiled16,mm_tiled16_f64,mm_regblock,transpose_naive,transpose_tiled,transpose_tiled_pad
common="--backend cuda --kernels $K --cu 132,32,8 --engine-mhz auto --memory-mhz auto --power none --kernel-dir kernels"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv >"$o/env.txt" 2>&1
t0=$(date +%s.%N)
$R $common --runs "$o/full-runs.csv" --detail "$o/full-details.csv" --meta "$o/meta.txt" >"$o/full.log" 2>&1
t1=$(date +%s.%N)
$R $common --sampled --sample-threshold-ms 0.2 --runs "$o/sampled-runs.csv" --detail "$o/sampled-details.csv" --meta "$o/meta.txt" >"$o/sampled.log" 2>&1
t2=$(date +%s.%N)
awk -v a=$t0 -v b=$t1 -v c=$t2 'BEGIN{printf "full_wall_s %.1f sampled_wall_s %.1f\n", b-a, c-b}' >>"$o/env.txt"
cat "$o/env.txt"; tail -3 "$o/full.log" "$o/sampled.log"
