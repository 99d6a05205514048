#!/bin/sh
# Every device source compiles as CUDA C++: with nvcc (when present) and
# with NVRTC through the runner's CUDA backend (when libnvrtc is present).
# Neither needs a GPU.
. "${srcdir:-.}/lib.sh"
nvcc=${NVCC:-}
done_any=0

if [ -n "$nvcc" ]; then
  for f in "$SP_KERNEL_DIR"/*.cl; do
    "$nvcc" -x cu -arch=sm_90 -I"$SP_KERNEL_DIR" --ptx -o "$scratch/k.ptx" "$f" \
      >"$scratch/nvcc.log" 2>&1 || { cat "$scratch/nvcc.log" >&2; fail "nvcc: $f"; }
  done
  done_any=1
fi

"$SP_RUNNER" --backend cuda --compile-only --arch sm_90 >"$scratch/rtc.log" 2>&1
rc=$?
case $rc in
0) done_any=1 ;;
2) grep -q "no backend 'cuda'" "$scratch/rtc.log" || fail "usage error: $(cat "$scratch/rtc.log")" ;;
3) ;; # no NVRTC here
*) cat "$scratch/rtc.log" >&2; fail "NVRTC compilation failed" ;;
esac
[ $done_any -eq 1 ] || skip "neither nvcc nor NVRTC is available"
exit 0
