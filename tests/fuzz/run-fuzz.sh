#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# run-fuzz.sh: bounded libFuzzer runs of every fuzz target.
#
# Usage: tests/fuzz/run-fuzz.sh [SECONDS_PER_TARGET] [TARGET...]
#   SECONDS_PER_TARGET  default 45; targets: config dataset model csvlog
#                       (default: all of them)
#   SP_FUZZ_BUILD       build directory to use or reuse (default: a fresh
#                       temporary one, removed at the end unless a target
#                       crashed)
#   SP_FUZZ_PARALLEL    targets fuzzed at once (default: the CPU count, at
#                       most 4)
#   CC                  a clang with libFuzzer (default: clang)
#
# Copies the source tree (tracked and untracked files, no build products),
# configures it with --enable-fuzz (libFuzzer + ASan + UBSan, static
# library) and builds the targets.  Each target then runs from its seed
# corpus (tests/fuzz/corpus/TARGET) with its dictionary for the given time,
# new inputs going to the build directory, never into the source tree.
# Prints one line per target with executions, new inputs and crashes, and
# exits 1 when any target crashed; crash inputs stay in
# BUILD/crashes/TARGET/ and belong, once fixed, in tests/fuzz/regress/TARGET/
# so that make check replays them.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
secs=${1:-45}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  # Every target that tests/Makefile.am builds.
  read -r -a targets <<<"$(sed -n 's/^FUZZERS = //p' "$top/tests/Makefile.am" |
    sed 's|fuzz/fuzz_||g')"
fi
cc=${CC:-clang}
ncpu=$(nproc 2>/dev/null || echo 1)
parallel=${SP_FUZZ_PARALLEL:-$((ncpu < 4 ? ncpu : 4))}

build=${SP_FUZZ_BUILD:-}
keep=1
if [ -z "$build" ]; then
  build=$(mktemp -d "${TMPDIR:-/tmp}/sp-fuzz.XXXXXX")
  keep=0
fi
mkdir -p "$build"
build=$(cd "$build" && pwd)

# The source files of $1 copied into $2: what git knows (tracked and
# untracked, not ignored) in a checkout, everything else in a tarball.
copy_source() {
  if git -C "$1" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    (cd "$1" && git ls-files -co --exclude-standard) | while IFS= read -r f; do
      [ -e "$1/$f" ] || continue
      mkdir -p "$2/$(dirname "$f")"
      cp -p "$1/$f" "$2/$f"
    done
  else
    cp -pR "$1/." "$2"
    if [ -f "$2/Makefile" ]; then (cd "$2" && make distclean >/dev/null); fi
  fi
}

# The copy is refreshed on every run (cp -p keeps the times, so make
# rebuilds only what changed); configure runs once per build directory.
echo "run-fuzz: building the targets with $cc in $build/obj" >&2
mkdir -p "$build/src" "$build/obj"
copy_source "$top" "$build/src"
(
  set -e
  cd "$build/src"
  [ -x configure ] || autoreconf -fi
  cd "$build/obj"
  [ -f Makefile ] || "$build/src/configure" CC="$cc" CFLAGS="-g -O1" \
    --enable-fuzz --disable-shared --enable-static
  make -j"$ncpu" -C src libscalepredict.la
  make -j"$ncpu" -C tests "${targets[@]/#/fuzz/fuzz_}"
) >"$build/build.log" 2>&1 || {
  tail -30 "$build/build.log" >&2
  echo "run-fuzz: build failed; see $build/build.log" >&2
  exit 2
}

# Per target: fuzz, then print the summary line from libFuzzer's final stats.
run_one() {
  local t=$1 work="$build/work/$1"
  mkdir -p "$work/corpus" "$build/crashes/$t"
  local max_len=65536
  [ "$t" = config ] && max_len=256
  set +e
  TMPDIR=$scratch \
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:symbolize=1:quarantine_size_mb=64:release_to_os_interval_ms=1000 \
  LSAN_OPTIONS=suppressions=$top/tests/sanitize/lsan.supp \
  UBSAN_OPTIONS=print_stacktrace=1 \
    "$build/obj/tests/fuzz/fuzz_$t" -max_total_time="$secs" -timeout=20 \
      -rss_limit_mb=2048 -max_len="$max_len" -print_final_stats=1 \
      -dict="$here/dict/$t.dict" -artifact_prefix="$build/crashes/$t/" \
      "$work/corpus" "$here/corpus/$t" >"$work/log" 2>&1
  local rc=$?
  set -e
  local execs units crashes
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log" | tail -1)
  units=$(sed -n 's/^stat::new_units_added: *//p' "$work/log" | tail -1)
  crashes=$(find "$build/crashes/$t" -type f | wc -l)
  printf '%-8s %4ss  executions %10s  new inputs %6s  crashes %s%s\n' "$t" \
    "$secs" "${execs:-?}" "${units:-?}" "$crashes" \
    "$([ "$rc" -eq 0 ] || echo "  (exit $rc; see $work/log)")" >"$work/summary"
}

# ASan's default 256 MB quarantine, with freed memory kept from the OS,
# let the model target's RSS pass -rss_limit_mb over a run whose live heap
# was 26 MB (a CI run, 2026-11-25): a smaller quarantine handed back to the
# OS keeps the limit for real leaks and runaway allocations.
# The targets write their input to files; memory-backed ones keep fsync
# (the model and resume-file writers) from dominating the run time.
scratch=${TMPDIR:-/tmp}
if [ -d /dev/shm ] && [ -w /dev/shm ]; then scratch=/dev/shm; fi

echo "run-fuzz: $secs s per target, $parallel at a time: ${targets[*]}" >&2
running=0
for t in "${targets[@]}"; do
  run_one "$t" &
  running=$((running + 1))
  if [ "$running" -ge "$parallel" ]; then
    wait -n
    running=$((running - 1))
  fi
done
wait

failed=0
for t in "${targets[@]}"; do
  cat "$build/work/$t/summary"
  # A target that exits non-zero without a crash input never ran (a bad
  # dictionary or corpus, a start-up failure): that fails too.
  if ! grep -q '^stat::number_of_executed_units:' "$build/work/$t/log"; then
    failed=1
    echo "  $t did not run; its log:"
    tail -5 "$build/work/$t/log" | sed 's/^/  /'
  fi
  if [ -n "$(find "$build/crashes/$t" -type f)" ]; then
    failed=1
    for f in "$build/crashes/$t"/*; do echo "  crash input: $f"; done
    grep -m1 -E 'ERROR: |runtime error|property violated' "$build/work/$t/log" | sed 's/^/  /' || true
  fi
done
if [ "$failed" -eq 0 ] && [ "$keep" -eq 0 ]; then rm -rf "$build"; fi
exit "$failed"
