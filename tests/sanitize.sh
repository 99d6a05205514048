#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# sanitize.sh: the test suite under AddressSanitizer + UndefinedBehaviorSanitizer,
# and the CLI integration tests under valgrind memcheck (docs/reliability.md).
#
# Usage: tests/sanitize.sh [asan|mutate|valgrind|tsan|all]     (default: all)
#   SP_SANITIZE_BUILD  build directory to use (default: a fresh temporary
#                      one, removed when everything passed)
#   SP_MUTANTS         mutants per input for the mutate stage (default 30:
#                      about 1,900 runs, two minutes on two cores)
#   CC                 compiler for the ASan build (default: clang when
#                      installed, else gcc); the valgrind build uses gcc
#   MAKEFLAGS          passed on (e.g. -j2)
#
# Both stages build a copy of the source tree (what git knows, or the whole
# tree of an unpacked tarball) out of tree, so an in-place build of the
# checkout is neither needed nor disturbed.
#   asan      configure --enable-sanitizers; make -k check.  Any ASan or
#             UBSan report aborts the program that made it, so the test
#             fails; leaks are reported by LeakSanitizer, with only those of
#             FANN and of the C++ libraries under pocl suppressed
#             (tests/sanitize/lsan.supp).  CC and LDFLAGS are exported, so
#             that a test building a program against the installed (and
#             instrumented) library links the sanitizer runtime too.
#   mutate    the hostile mutation pass (tests/limits/mutate.py) on the
#             ASan build's scalepredict (built first when the asan stage
#             did not run): SP_MUTANTS seeded mutants of every input of
#             every command; fails on any sanitizer report, death by a
#             signal, hang, undocumented exit status or error that is not
#             one line.  The failing mutants are kept in BUILD/mutate-failures.
#   valgrind  a static build (-O1 -g); every scalepredict command of
#             tests/cli/*.sh runs under valgrind memcheck (--leak-check=full,
#             definite/indirect/possible leaks are errors,
#             tests/sanitize/valgrind.supp).  A stage fails when a test
#             fails or any valgrind log reports an error.
#   tsan      configure CFLAGS=-fsanitize=thread (shared libraries off);
#             the threaded tests (test_threads: predictions on one shared
#             model) fail on any data race ThreadSanitizer reports.
# Prints one line per stage and exits 1 when any stage failed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
what=${1:-all}
case "$what" in asan | mutate | valgrind | tsan | all) ;; *)
  echo "usage: tests/sanitize.sh [asan|mutate|valgrind|tsan|all]" >&2
  exit 2
  ;;
esac
jobs=$(nproc 2>/dev/null || echo 2)

build=${SP_SANITIZE_BUILD:-}
keep=1
if [ -z "$build" ]; then
  build=$(mktemp -d "${TMPDIR:-/tmp}/sp-sanitize.XXXXXX")
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

# Refreshed on every run (cp -p keeps the times); autoreconf runs once.
mkdir -p "$build/src"
copy_source "$top" "$build/src"
if [ ! -x "$build/src/configure" ]; then
  (cd "$build/src" && autoreconf -fi) >"$build/autoreconf.log" 2>&1 || {
    cat "$build/autoreconf.log" >&2
    exit 2
  }
fi

# The tests' own summary lines and every failing test's log.
report_failures() {
  { find "$1" -name '*.log' ! -name config.log ! -name 'vg.*' -print0 |
    xargs -0 grep -l -E '^(FAIL|ERROR):' 2>/dev/null || true; } | while IFS= read -r f; do
    echo "---- $f" >&2
    tail -40 "$f" >&2
  done
}

# count_results DIR RESULT_RE: how many automake test results under DIR
# match (PASS, or an alternation).
count_results() {
  { find "$1" -name '*.trs' -exec cat {} + 2>/dev/null || true; } |
    { grep -c -E "^:test-result: $2" || true; }
}

failed=0
asan_cc() {
  local cc=${CC:-}
  [ -n "$cc" ] || { command -v clang >/dev/null && cc=clang || cc=gcc; }
  echo "$cc"
}

stage_asan() {
  local cc
  cc=$(asan_cc)
  local obj="$build/asan" t0=$SECONDS
  rm -rf "$obj"
  mkdir -p "$obj"
  local log="$obj/stage.log"
  set +e
  (cd "$obj" &&
    "$build/src/configure" CC="$cc" CFLAGS="-g -O1" --enable-sanitizers &&
    make -j"$jobs" &&
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1 \
      LSAN_OPTIONS=suppressions=$here/sanitize/lsan.supp \
      UBSAN_OPTIONS=print_stacktrace=1 \
      CC=$cc LDFLAGS=-fsanitize=address,undefined \
      make -k -j"$jobs" check) >"$log" 2>&1
  local rc=$?
  set -e
  local pass fail
  pass=$(count_results "$obj" 'PASS')
  fail=$(count_results "$obj" '(FAIL|ERROR|XPASS)')
  echo "asan:     $cc -fsanitize=address,undefined, make check: $pass passed, $fail failed ($((SECONDS - t0)) s)$([ $rc -eq 0 ] || echo "; exit $rc, see $log")"
  if [ $rc -ne 0 ]; then
    report_failures "$obj"
    failed=1
  fi
}

stage_mutate() {
  local obj="$build/asan" t0=$SECONDS n=${SP_MUTANTS:-30}
  local log="$build/mutate.log"
  if ! command -v python3 >/dev/null; then
    echo "mutate:   python3 is not installed (./install-deps installs it)"
    failed=1
    return
  fi
  set +e
  # The asan stage's build (brought up to date: nothing to do after that
  # stage), else one of its own, without the check.
  local cc
  cc=$(asan_cc)
  mkdir -p "$obj"
  (cd "$obj" &&
    { [ -f Makefile ] || "$build/src/configure" CC="$cc" CFLAGS="-g -O1" --enable-sanitizers; } &&
    make -j"$jobs") >"$obj/build.log" 2>&1 || {
    echo "mutate:   the ASan build failed, see $obj/build.log"
    failed=1
    set -e
    return
  }
  rm -rf "$build/mutate-failures"
  python3 "$here/limits/mutate.py" --scalepredict "$obj/src/scalepredict" --srcdir "$build/src" \
    -n "$n" --jobs "$jobs" --keep "$build/mutate-failures" >"$log" 2>&1
  local rc=$?
  set -e
  echo "mutate:   $(tail -n 1 "$log" | sed 's/^mutate: //') ($((SECONDS - t0)) s)$([ $rc -eq 0 ] || echo "; exit $rc, see $log")"
  if [ $rc -ne 0 ]; then
    grep -v '^|' "$log" | tail -20 >&2
    failed=1
  fi
}

stage_valgrind() {
  local obj="$build/valgrind" t0=$SECONDS
  if ! command -v valgrind >/dev/null; then
    echo "valgrind: not installed (Debian package valgrind)"
    failed=1
    return
  fi
  rm -rf "$obj"
  mkdir -p "$obj/vg"
  local log="$obj/stage.log"
  local wrapper="valgrind -q --tool=memcheck --leak-check=full --errors-for-leak-kinds=definite,indirect,possible --show-leak-kinds=definite,indirect,possible --error-exitcode=97 --suppressions=$here/sanitize/valgrind.supp --log-file=$obj/vg/vg.%p.log"
  local cli
  cli=$(cd "$top/tests" && for t in cli/*.sh; do [ "$t" = cli/lib.sh ] || [ "$t" = cli/ncu-options.sh ] || printf '%s ' "$t"; done)
  set +e
  (cd "$obj" &&
    "$build/src/configure" CC=gcc CFLAGS="-g -O1" --disable-shared --enable-static &&
    make -j"$jobs" &&
    SP_WRAPPER=$wrapper make -C tests -j"$jobs" check-TESTS TESTS="$cli") >"$log" 2>&1
  local rc=$?
  set -e
  local runs errors
  runs=$(find "$obj/vg" -name 'vg.*.log' | wc -l)
  errors=$(find "$obj/vg" -name 'vg.*.log' -size +0 | wc -l)
  local pass fail
  pass=$(count_results "$obj/tests/cli" 'PASS')
  fail=$(count_results "$obj/tests/cli" '(FAIL|ERROR|XPASS)')
  echo "valgrind: memcheck over tests/cli: $pass passed, $fail failed; $runs scalepredict runs, $errors with errors or leaks ($((SECONDS - t0)) s)$([ $rc -eq 0 ] || echo "; exit $rc, see $log")"
  if [ $rc -ne 0 ] || [ "$errors" -ne 0 ] || [ "$runs" -eq 0 ]; then
    tail -20 "$log" >&2
    report_failures "$obj/tests"
    find "$obj/vg" -name 'vg.*.log' -size +0 | head -3 | xargs -r head -60 >&2 || true
    failed=1
  fi
}

stage_tsan() {
  local obj="$build/tsan" t0=$SECONDS
  rm -rf "$obj"
  mkdir -p "$obj"
  local log="$obj/stage.log"
  set +e
  (cd "$obj" &&
    "$build/src/configure" CC=gcc CFLAGS="-g -O1 -fsanitize=thread" LDFLAGS=-fsanitize=thread \
      --disable-shared --enable-static &&
    make -j"$jobs" &&
    make -C tests test_threads &&
    TSAN_OPTIONS=halt_on_error=1:exitcode=66 make -C tests check-TESTS TESTS=test_threads) \
    >"$log" 2>&1
  local rc=$?
  set -e
  local pass fail
  pass=$(count_results "$obj/tests" 'PASS')
  fail=$(count_results "$obj/tests" '(FAIL|ERROR|XPASS)')
  echo "tsan:     gcc -fsanitize=thread, test_threads: $pass passed, $fail failed ($((SECONDS - t0)) s)$([ $rc -eq 0 ] && [ "$pass" -gt 0 ] || echo "; exit $rc, see $log")"
  if [ $rc -ne 0 ] || [ "$pass" -eq 0 ]; then
    tail -20 "$log" >&2
    report_failures "$obj/tests"
    failed=1
  fi
}

case "$what" in
asan) stage_asan ;;
mutate) stage_mutate ;;
valgrind) stage_valgrind ;;
tsan) stage_tsan ;;
all)
  stage_asan
  stage_mutate
  stage_valgrind
  stage_tsan
  ;;
esac
if [ "$failed" -eq 0 ] && [ "$keep" -eq 0 ]; then rm -rf "$build"; fi
exit "$failed"
