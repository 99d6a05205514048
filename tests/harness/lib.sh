# SPDX-License-Identifier: GPL-3.0-or-later
# shellcheck shell=sh
# lib.sh: helpers shared by the harness tests (sourced).
# Environment (tests/harness/Makefile.am): SP_RUNNER, SP_TOP_SRCDIR (the
# source tree, whose training/suites.txt lists the suites), SP_HARNESS_DATA,
# NVCC.

set -u
: "${SP_RUNNER:?SP_RUNNER is not set (run through make check)}"
: "${SP_TOP_SRCDIR:?SP_TOP_SRCDIR is not set}"

test_name=$(basename "$0" .sh)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/sp-harness-$test_name.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

fail() {
  echo "FAIL: $test_name: $*" >&2
  exit 1
}

skip() {
  echo "SKIP: $test_name: $*" >&2
  exit 77
}

# The registry's suites, checked (training/suites.sh lines): name, prefix,
# folder (from SP_TOP_SRCDIR), role and retired, tab-separated.
suites() {
  sh "$SP_TOP_SRCDIR/training/suites.sh" -C "$SP_TOP_SRCDIR" lines
}

# The source folder of suite $1 (absolute), or of the shared headers
# ($1 = common).
suite_folder() {
  if [ "$1" = common ]; then
    printf '%s/%s\n' "$SP_TOP_SRCDIR" "$(sh "$SP_TOP_SRCDIR/training/suites.sh" -C "$SP_TOP_SRCDIR" common)"
  else
    suites | awk -F '\t' -v n="$1" -v top="$SP_TOP_SRCDIR" '$1 == n { print top "/" $3 }'
  fi
}

# The header and one regular expression for every runs.csv row.
RUNS_HEADER='kernel,cu,engine_mhz,memory_mhz,time_ms,power_w'
RUNS_ROW='^[a-z0-9_]+,[0-9]+,[0-9]+,[0-9]+,[0-9.]+(e[-+][0-9]+)?,([0-9]+\.[0-9]+)?$'

# Checks a runs.csv: header once, every line a complete row, no key twice.
check_runs() {
  f=$1
  [ "$(head -1 "$f")" = "$RUNS_HEADER" ] || fail "$f: bad header"
  [ "$(grep -c '^kernel,' "$f")" -eq 1 ] || fail "$f: header repeated"
  [ -z "$(tail -c 1 "$f")" ] || fail "$f: last line is not complete"
  bad=$(tail -n +2 "$f" | grep -Ev "$RUNS_ROW" | head -1)
  [ -z "$bad" ] || fail "$f: malformed row '$bad'"
  dup=$(tail -n +2 "$f" | cut -d, -f1-4 | sort | uniq -d | head -1)
  [ -z "$dup" ] || fail "$f: configuration measured twice: $dup"
}

# Whether the OpenCL backend finds a device here (pocl in CI).
have_opencl() {
  "$SP_RUNNER" --backend opencl --compile-only >/dev/null 2>&1
  [ $? -ne 3 ]
}
