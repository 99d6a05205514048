#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# One device call (2026-11-26): full and sampled base measurement of the
# sampleable kernels on the H100 at four SM levels, the sampling launches
# each after a flush of the L2 where the kernel's buffers exceed it
# (sp-runner --sample-flush auto, the default), then the same sampled with
# no flush (--sample-flush never), all in one session.
cd "$(dirname "$0")" || exit 1
export LD_LIBRARY_PATH=$PWD/lib
R=./sp-runner
o=${OUT:?}
K=stream_copy,stream_scale,stream_add,stream_triad,stream_triad_f64,stream_stride32,st2d_5pt,st2d_5pt_f64,st2d_9pt,st2d_5pt_tiled,st3d_7pt,st3d_27pt,mm_naive,mm_naive_strided,mm_tiled16,mm_tiled16_f64,mm_regblock,transpose_naive,transpose_tiled,transpose_tiled_pad
common="--backend cuda --kernels $K --cu 132,64,32,8 --engine-mhz auto --memory-mhz auto --power none --kernel-dir kernels"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv >"$o/env.txt" 2>&1
t0=$(date +%s.%N)
$R $common --runs "$o/full-runs.csv" --detail "$o/full-details.csv" --meta "$o/meta.txt" >"$o/full.log" 2>&1
t1=$(date +%s.%N)
$R $common --sampled --sample-threshold-ms 0.2 --runs "$o/flushed-runs.csv" --detail "$o/flushed-details.csv" --meta "$o/meta.txt" >"$o/flushed.log" 2>&1
t2=$(date +%s.%N)
$R $common --sampled --sample-threshold-ms 0.2 --sample-flush never --runs "$o/warm-runs.csv" --detail "$o/warm-details.csv" --meta "$o/meta.txt" >"$o/warm.log" 2>&1
t3=$(date +%s.%N)
awk -v a=$t0 -v b=$t1 -v c=$t2 -v d=$t3 'BEGIN{printf "full_wall_s %.1f flushed_wall_s %.1f warm_wall_s %.1f\n", b-a, c-b, d-c}' >>"$o/env.txt"
cat "$o/env.txt"; tail -3 "$o/full.log" "$o/flushed.log" "$o/warm.log"
