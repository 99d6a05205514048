#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# make-seeds.sh: regenerates the seed corpora in tests/fuzz/corpus/ from the
# project's own files: the CLI test fixtures (tests/data) and models that
# the built tool trains on them.  The seeds are committed; run this only
# when a file format changes.
#
# Usage: tests/fuzz/make-seeds.sh PATH/TO/scalepredict
set -eu
here=$(cd "$(dirname "$0")" && pwd)
data="$here/../data"
tool=${1:?usage: make-seeds.sh PATH/TO/scalepredict}
out="$here/corpus"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rm -rf "$out"
mkdir -p "$out/config" "$out/dataset" "$out/model" "$out/csvlog"

# ---- configurations ----
i=0
for c in 32cu/1000/1375 8/300/475 32CU/1000/1375 1000000cu/1000000/1000000 \
  0cu/1000/1375 32cu/1000/ 32cu/1000/1375/ -1/2/3 " 32cu/1/2" 2147483648/1/1 \
  32cu//1375 32cu/1e3/1375; do
  i=$((i + 1))
  printf '%s' "$c" >"$out/config/seed-$i"
done

# ---- datasets: runs.csv [@@counters@@ counters.csv] ----
sep='@@counters@@'
for set in train new; do
  cat "$data/$set/runs.csv" >"$out/dataset/$set-runs"
  { cat "$data/$set/runs.csv"; printf '%s\n' "$sep"; cat "$data/$set/counters.csv"; } \
    >"$out/dataset/$set-both"
done
printf 'kernel,cu,engine_mhz,memory_mhz,time_ms,power_w\n"a""b",1,2,3,4.5,\n"x,y",1,2,4,5,6\r\n' \
  >"$out/dataset/quoted"
printf '\357\273\277kernel,cu,engine_mhz,memory_mhz,time_ms\na,1,2,3,4\na,1,2,3,5\n' \
  >"$out/dataset/duplicate"
printf 'kernel,cu,engine_mhz,memory_mhz,time_ms,power_w\n"unterminated,1,2,3,4,5\n' \
  >"$out/dataset/open-quote"
printf 'kernel,cu,engine_mhz,memory_mhz,time_ms\na,1,1,1,1\na,2,1,1,2\nb,1,1,1,3\nb,2,1,1,3\n%s\nkernel,cu,engine_mhz,memory_mhz,c1,c2\na,1,1,1,5,\nb,1,1,1,5,7\n' \
  "$sep" >"$out/dataset/degenerate"

# ---- models: flags byte, manifest without its checksum line, networks ----
pack() { # pack MODEL_DIR FLAGS OUT
  printf "\\$(printf '%03o' "$2")" >"$3"
  sed '$d' "$1/manifest.txt" >>"$3"
  for net in "$1"/*.net; do
    [ -e "$net" ] || continue
    printf '@@file %s\n' "$(basename "$net")" >>"$3"
    cat "$net" >>"$3"
  done
}
train() { # train NAME K [extra options]
  name=$1 k=$2
  shift 2
  # Relative paths, so the manifests do not name this machine's folders.
  (cd "$data" && "$tool" train --quiet --runs train/runs.csv \
    --counters train/counters.csv --base 32cu/1000/1375 \
    --clusters "$k" --seed 7 --restarts 2 --epochs 50 --out "$tmp/$name" "$@")
}
train k1 1
train k2 2 --name "a name, with spaces %" --source "tests/data/train"
train k3 3 --synthetic
pack "$tmp/k1" 7 "$out/model/k1-checked"
pack "$tmp/k2" 7 "$out/model/k2-checked"
pack "$tmp/k3" 3 "$out/model/k3"
# As saved, checksum included, for the checksum check itself.
{ printf '\000'; cat "$tmp/k1/manifest.txt"; } >"$out/model/k1-raw"

# ---- sp-runner resume files (runs.csv as the runner appends it) ----
h='kernel,cu,engine_mhz,memory_mhz,time_ms,power_w'
{ echo "$h"; tail -n +2 "$data/train/runs.csv" | head -20; } >"$out/csvlog/rows"
{ echo "$h"; echo "copy,8,1980,2619,1.5,"; printf 'copy,8,1980,26'; } >"$out/csvlog/torn"
printf '%s\n' "$h" >"$out/csvlog/header-only"
: >"$out/csvlog/empty"
printf 'kernel,cu\ncopy,8\n' >"$out/csvlog/other-header"
{ echo "$h"; printf 'a,1,2,3,4,5\n\n\r\nb,1,2,3\n'; } >"$out/csvlog/blank-lines"
echo "seeds written to $out"
