#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# make.sh: static counters for the H100 training set (h100-train) and for
# the held-out second validation set (validation2), read from the kernels'
# PTX and each entry's launch shape (issue 14, item 2).
#
#   sh training/data/h100-static/make.sh      (from the repository root,
#                                              after make: it runs
#                                              src/scalepredict)
#
# Every device source is compiled to PTX the way tests/harness/cuda-compile.sh
# does (nvcc -x cu -ptx -arch=sm_90, the shared headers' folder for sp_port.h and the
# source's own folder as include directories; no GPU is needed).  A suite
# entry (rd_ilp4_g1056) is mapped to its device function by the launch
# manifests the runner wrote when the counters were collected (ncu/manifest-
# cu132*.csv: kernel,...,entry), and the function to its source by the
# .entry it appears in.  The launch shape is the measured one, from the
# counters files at 132 SMs: grid_blocks, block_threads and smem_per_block
# (Nsight Compute's static plus dynamic shared memory, so the dynamic part
# passed to estimate is smem_per_block less the PTX's .shared bytes).
# Each row is `scalepredict estimate --features` at that shape, at the
# 132-SM base 132,1980,2619.
set -eu
here=training/data/h100-static
sp=${SCALEPREDICT:-src/scalepredict}
nvcc=${NVCC:-nvcc}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/h100-static-XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# ptx DIR...: every .cl and .cu source of the folders to $tmp/ptx, and the
# index "entry ptx-file" of every kernel they define to $tmp/entries.
ptx() {
  mkdir -p "$tmp/ptx"
  for dir in "$@"; do
    for f in "$dir"/*.cl "$dir"/*.cu; do
      [ -e "$f" ] || continue
      out=$tmp/ptx/$(basename "$dir")-$(basename "$f").ptx
      "$nvcc" -x cu -ptx -arch=sm_90 -I training/kernels/common -I "$dir" -o "$out" "$f"
      sed -n 's/^\.visible \.entry \([A-Za-z0-9_]*\)(.*/\1 '"$(basename "$out")"'/p' "$out" \
        >>"$tmp/entries"
    done
  done
}

# shapes COUNTERS MANIFEST...: "kernel entry grid block smem" of every
# counters row at 132 SMs, the entry from the manifests.  The counters keep
# six significant digits (copy_b32's 1048576 blocks read 1.04858e+06), so
# the shape is rounded to whole numbers.
shapes() {
  counters=$1
  shift
  awk -F, '
    FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    FILENAME ~ /manifest/ { entry[$1] = $col["entry"]; next }
    $2 == 132 {
      if (!($1 in entry)) { print "no manifest entry for " $1 > "/dev/stderr"; exit 1 }
      printf "%s %s %.0f %.0f %.0f\n", $1, entry[$1], $col["grid_blocks"], $col["block_threads"],
        $col["smem_per_block"]
    }' "$@" "$counters"
}

# features KERNEL ENTRY GRID BLOCK SMEM: one CSV row of static features.
features() {
  file=$(awk -v e="$2" '$1 == e { print $2; exit }' "$tmp/entries")
  [ -n "$file" ] || { echo "make.sh: no PTX defines $2 ($1)" >&2; exit 1; }
  est() {
    "$sp" estimate --features --format csv --kernel "$2" --grid "$3" --block "$4" \
      --shared "$6" "$tmp/ptx/$file"
  }
  est "$@" 0 >"$tmp/f.csv"
  static=$(awk -F, '$1 == "shared_static_bytes" { print $2 }' "$tmp/f.csv")
  dyn=$(awk -v s="$5" -v t="$static" 'BEGIN { d = s - t; print (d > 0 ? d : 0) }')
  [ "$dyn" = 0 ] || est "$@" "$dyn" >"$tmp/f.csv"
  awk -F, -v k="$1" -v hdr="$tmp/header" '
    NR == 1 { next }
    { names = names "," $1; row = row "," $2 }
    END { print "kernel,cu,engine_mhz,memory_mhz" names > hdr; print k ",132,1980,2619" row }
  ' "$tmp/f.csv"
}

# build OUT COUNTERS MANIFEST...: the static counters of one set.
build() {
  out=$1
  shift
  shapes "$@" >"$tmp/shapes"
  : >"$tmp/rows"
  while read -r kernel entry grid block smem; do
    features "$kernel" "$entry" "$grid" "$block" "$smem" >>"$tmp/rows"
  done <"$tmp/shapes"
  cat "$tmp/header" "$tmp/rows" >"$out"
  echo "$out: $(wc -l <"$tmp/rows") kernels"
}

ptx training/kernels/core training/kernels/validation training/kernels/validation2
dup=$(awk '{ print $1 }' "$tmp/entries" | sort | uniq -d)
[ -z "$dup" ] || { echo "make.sh: entries defined twice: $dup" >&2; exit 1; }

build "$here/counters.csv" training/data/h100-train/counters.csv \
  training/data/h100-sm/ncu/manifest-cu132.csv training/kernels/validation/data/h100/ncu/manifest-cu132.csv
build "$here/validation2-counters.csv" training/kernels/validation2/data/h100/counters.csv \
  training/kernels/validation2/data/h100/ncu/manifest-cu132.csv \
  training/kernels/validation2/data/h100/ncu/manifest-cu132-part2.csv
