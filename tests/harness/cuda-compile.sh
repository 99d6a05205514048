#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Every device source compiles as CUDA C++: the portable .cl sources and the
# CUDA-only .cu ones, with nvcc (when present) and with NVRTC through the
# runner's CUDA backend (when libnvrtc is present).  Neither needs a GPU.
# The longest test of make check (3 to 5 minutes on two cores with nvcc):
# it prints a line per suite to its log as it goes (issue 26), for
# `tail -f tests/harness/cuda-compile.log`.
. "${srcdir:-.}/lib.sh"
nvcc=${NVCC:-}
done_any=0

# progress WHAT: one line on stderr (the test's log), with the seconds since
# the test began.
start=$(date +%s)
progress() { echo "cuda-compile: $1 ($(($(date +%s) - start)) s)" >&2; }

# Every suite's source folder, from the registry (training/suites.txt),
# and the shared device headers' folder.
common=$(suite_folder common)
suites | cut -f3 | while read -r d; do echo "$SP_TOP_SRCDIR/$d"; done >"$scratch/folders"
[ -s "$scratch/folders" ] || fail "no suite in training/suites.txt"

if [ -n "$nvcc" ]; then
  while read -r d; do
    count=0
    for f in "$d"/*.cl "$d"/*.cu; do
      [ -e "$f" ] || continue
      "$nvcc" -x cu -arch=sm_90 -I"$common" --ptx -o "$scratch/k.ptx" "$f" \
        >"$scratch/nvcc.log" 2>&1 || { cat "$scratch/nvcc.log" >&2; fail "nvcc: $f"; }
      count=$((count + 1))
    done
    progress "nvcc compiled the $count sources of $d"
  done <"$scratch/folders"
  done_any=1
fi

# NVRTC compiles every suite, .cl and .cu sources alike; the .cu ones find
# the toolkit's headers (cuda_fp16.h, mma.h) on their own.
progress "NVRTC: every suite, through the runner"
"$SP_RUNNER" --backend cuda --suite all --compile-only --arch sm_90 >"$scratch/rtc.log" 2>&1
rc=$?
progress "NVRTC: exit status $rc, $(grep -c '^compiled ' "$scratch/rtc.log") sources compiled"
case $rc in
0)
  done_any=1
  while read -r d; do
    for f in "$d"/*.cu; do
      [ -e "$f" ] || continue
      grep -qxF "compiled $f" "$scratch/rtc.log" || fail "NVRTC did not compile $f"
    done
  done <"$scratch/folders" ;;
2) grep -q "no backend 'cuda'" "$scratch/rtc.log" || fail "usage error: $(cat "$scratch/rtc.log")" ;;
3) ;; # no NVRTC here
*) cat "$scratch/rtc.log" >&2; fail "NVRTC compilation failed" ;;
esac
[ $done_any -eq 1 ] || skip "neither nvcc nor NVRTC is available"
exit 0
