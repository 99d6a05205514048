#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Every device source compiles as CUDA C++: the portable .cl sources and the
# CUDA-only .cu ones, with nvcc (when present) and with NVRTC through the
# runner's CUDA backend (when libnvrtc is present).  Neither needs a GPU.
. "${srcdir:-.}/lib.sh"
nvcc=${NVCC:-}
done_any=0

if [ -n "$nvcc" ]; then
  vdir=${SP_VALIDATION_DIR:-$SP_KERNEL_DIR}
  v2dir=${SP_VALIDATION2_DIR:-$SP_KERNEL_DIR}
  v3dir=${SP_VALIDATION3_DIR:-$SP_KERNEL_DIR}
  v4dir=${SP_VALIDATION4_DIR:-$SP_KERNEL_DIR}
  v5dir=${SP_VALIDATION5_DIR:-$SP_KERNEL_DIR}
  v6dir=${SP_VALIDATION6_DIR:-$SP_KERNEL_DIR}
  v7dir=${SP_VALIDATION7_DIR:-$SP_KERNEL_DIR}
  v8dir=${SP_VALIDATION8_DIR:-$SP_KERNEL_DIR}
  v9dir=${SP_VALIDATION9_DIR:-$SP_KERNEL_DIR}
  v10dir=${SP_VALIDATION10_DIR:-$SP_KERNEL_DIR}
  for f in "$SP_KERNEL_DIR"/*.cl "$SP_KERNEL_DIR"/*.cu "$vdir"/*.cl "$vdir"/*.cu \
    "$v2dir"/*.cl "$v2dir"/*.cu "$v3dir"/*.cl "$v3dir"/*.cu "$v4dir"/*.cl "$v4dir"/*.cu \
    "$v5dir"/*.cl "$v5dir"/*.cu "$v6dir"/*.cl "$v6dir"/*.cu "$v7dir"/*.cl "$v7dir"/*.cu \
    "$v8dir"/*.cl "$v8dir"/*.cu "$v9dir"/*.cl "$v9dir"/*.cu \
    "$v10dir"/*.cl "$v10dir"/*.cu; do
    [ -e "$f" ] || continue
    "$nvcc" -x cu -arch=sm_90 -I"$SP_KERNEL_DIR" --ptx -o "$scratch/k.ptx" "$f" \
      >"$scratch/nvcc.log" 2>&1 || { cat "$scratch/nvcc.log" >&2; fail "nvcc: $f"; }
  done
  done_any=1
fi

# NVRTC compiles both suites, .cl and .cu sources alike; the .cu ones find
# the toolkit's headers (cuda_fp16.h, mma.h) on their own.
"$SP_RUNNER" --backend cuda --suite all --compile-only --arch sm_90 >"$scratch/rtc.log" 2>&1
rc=$?
case $rc in
0)
  done_any=1
  for f in "$SP_KERNEL_DIR"/*.cu ${SP_VALIDATION2_DIR:+"$SP_VALIDATION2_DIR"/*.cu} \
    ${SP_VALIDATION3_DIR:+"$SP_VALIDATION3_DIR"/*.cu} \
    ${SP_VALIDATION4_DIR:+"$SP_VALIDATION4_DIR"/*.cu} \
    ${SP_VALIDATION5_DIR:+"$SP_VALIDATION5_DIR"/*.cu} \
    ${SP_VALIDATION6_DIR:+"$SP_VALIDATION6_DIR"/*.cu} \
    ${SP_VALIDATION7_DIR:+"$SP_VALIDATION7_DIR"/*.cu} \
    ${SP_VALIDATION8_DIR:+"$SP_VALIDATION8_DIR"/*.cu} \
    ${SP_VALIDATION9_DIR:+"$SP_VALIDATION9_DIR"/*.cu} \
    ${SP_VALIDATION10_DIR:+"$SP_VALIDATION10_DIR"/*.cu}; do
    [ -e "$f" ] || continue
    grep -q "^compiled .*/$(basename "$f")\$" "$scratch/rtc.log" || fail "NVRTC did not compile $f"
  done ;;
2) grep -q "no backend 'cuda'" "$scratch/rtc.log" || fail "usage error: $(cat "$scratch/rtc.log")" ;;
3) ;; # no NVRTC here
*) cat "$scratch/rtc.log" >&2; fail "NVRTC compilation failed" ;;
esac
[ $done_any -eq 1 ] || skip "neither nvcc nor NVRTC is available"
exit 0
