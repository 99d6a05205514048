#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# by-set.sh: writes kernel,family CSV on standard output in which every
# kernel of a retired validation set (training/kernels/validation*/data/h100) has
# its set as the family (v1 ... v10) and every other kernel of runs.csv the
# family "suite".  With `evaluate --families`, each retired set is held out
# whole and predicted by a model trained on the suite and the other sets:
# the protocol closest to a held-out set's one report (docs/accuracy.md).
#
#   sh training/data/h100-train/by-set.sh >sets.csv     (from the repository root)
set -eu
here=training/data/h100-train
awk -F, '
  FNR == 1 { f++; next }
  f <= 10 { set[$1] = "v" f; next }
  !($1 in seen) { seen[$1] = 1; print $1 "," (($1 in set) ? set[$1] : "suite") }
' training/kernels/validation/data/h100/runs.csv training/kernels/validation2/data/h100/runs.csv \
  training/kernels/validation3/data/h100/runs.csv training/kernels/validation4/data/h100/runs.csv \
  training/kernels/validation5/data/h100/runs.csv training/kernels/validation6/data/h100/runs.csv \
  training/kernels/validation7/data/h100/runs.csv training/kernels/validation8/data/h100/runs.csv \
  training/kernels/validation9/data/h100/runs.csv training/kernels/validation10/data/h100/runs.csv \
  "$here/runs.csv" | { echo kernel,family; cat; }
