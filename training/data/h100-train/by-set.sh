#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# by-set.sh: writes kernel,family CSV on standard output in which every
# kernel of a retired suite (training/suites.txt: role training with a date
# retired; its data/h100/runs.csv) has its set as the family, v1 for the
# registry's first retired suite, v2 for the second and so on, and every
# other kernel of runs.csv the family "suite".  With `evaluate --families`,
# each retired set is held out whole and predicted by a model trained on the
# core suite and the other sets: the protocol closest to a held-out set's one
# report.
#
#   sh training/data/h100-train/by-set.sh >sets.csv     (from the repository root)
set -eu
here=training/data/h100-train
tmp=$(mktemp -d "${TMPDIR:-/tmp}/by-set.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
sh training/suites.sh retired | cut -f2 >"$tmp/retired"
n=$(wc -l <"$tmp/retired")
while read -r d; do
  f=$d/data/h100/runs.csv
  [ -f "$f" ] || { echo "by-set.sh: $f: a retired suite without measurements" >&2; exit 1; }
  echo "$f"
done <"$tmp/retired" >"$tmp/runs-files"
# shellcheck disable=SC2046 # one path per line, no blanks (registry folders)
awk -F, -v n="$n" '
  FNR == 1 { f++; next }
  f <= n { set[$1] = "v" f; next }
  !($1 in seen) { seen[$1] = 1; print $1 "," (($1 in set) ? set[$1] : "suite") }
' $(cat "$tmp/runs-files") "$here/runs.csv" | { echo kernel,family; cat; }
