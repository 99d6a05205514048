# SPDX-License-Identifier: GPL-3.0-or-later
# shellcheck shell=sh
# shellcheck disable=SC2034 # variables for the tests that source this file
# lib.sh: shared setup for the CLI tests, sourced by each tests/cli/*.sh.
#
# The environment (set by tests/Makefile.am) names the program under test
# ($SCALEPREDICT), the fixtures ($SP_TEST_DATA) and the build tree
# ($SP_TOP_BUILDDIR); run by hand from a source tree that was built in place,
# the defaults below find all three.  $SP_WRAPPER, when set, is put in front
# of every scalepredict command (e.g. "libtool --mode=execute valgrind -q").
# Exit status: 0 pass, 1 fail, 77 skip (automake's convention).

set -u
sp_here=$(cd "$(dirname "$0")" && pwd)
SP_TOP_BUILDDIR=${SP_TOP_BUILDDIR:-$sp_here/../..}
SCALEPREDICT=${SCALEPREDICT:-$SP_TOP_BUILDDIR/src/scalepredict}
SP_TEST_DATA=${SP_TEST_DATA:-$sp_here/../data}
SP_WRAPPER=${SP_WRAPPER:-}
TRAIN=$SP_TEST_DATA/train
NEW=$SP_TEST_DATA/new
BASE=32cu/1000/1375
# What the stand-ins for Nsight Compute read their options with.
NCU_OPTIONS=$sp_here/ncu-options.sh
export NCU_OPTIONS

if [ ! -x "$SCALEPREDICT" ]; then
  echo "scalepredict not built: $SCALEPREDICT" >&2
  exit 77
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/sp-cli-XXXXXX") || exit 1
trap 'rm -rf "$WORK"' EXIT
trap 'exit 1' HUP INT TERM
cd "$WORK" || exit 1

failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# sp ARGS...: runs scalepredict; stdout in $WORK/out, stderr in $WORK/err,
# the exit status in $rc.
sp() {
  # shellcheck disable=SC2086
  $SP_WRAPPER "$SCALEPREDICT" "$@" >"$WORK/out" 2>"$WORK/err"
  rc=$?
}

# expect_rc WHAT CODE: the last command exited with CODE.
expect_rc() {
  if [ "$rc" -ne "$2" ]; then
    fail "$1: exit status $rc, want $2; stderr: $(cat "$WORK/err")"
    return 1
  fi
  return 0
}

# expect_error WHAT CODE PATTERN...: the last command failed with CODE and
# wrote exactly one line to stderr, "scalepredict: ..." holding every
# PATTERN (fixed strings), and nothing to stdout.
expect_error() {
  what=$1
  code=$2
  shift 2
  expect_rc "$what" "$code" || return 1
  lines=$(wc -l <"$WORK/err")
  [ "$lines" -eq 1 ] || fail "$what: $lines lines on stderr, want 1: $(cat "$WORK/err")"
  grep -q '^scalepredict: ' "$WORK/err" || fail "$what: stderr lacks the prefix: $(cat "$WORK/err")"
  for pattern in "$@"; do
    grep -qF -- "$pattern" "$WORK/err" || fail "$what: stderr lacks '$pattern': $(cat "$WORK/err")"
  done
  [ ! -s "$WORK/out" ] || fail "$what: unexpected output: $(head -c 300 "$WORK/out")"
}

# expect_out WHAT PATTERN...: stdout holds every PATTERN (fixed strings).
expect_out() {
  what=$1
  shift
  for pattern in "$@"; do
    grep -qF -- "$pattern" "$WORK/out" || fail "$what: output lacks '$pattern'"
  done
}

# no_leftovers WHAT PATH: neither PATH nor any PATH.tmp-* exists.
no_leftovers() {
  [ ! -e "$2" ] || fail "$1: $2 was left behind"
  for f in "$2".tmp-* "$2".old-*; do
    [ ! -e "$f" ] || fail "$1: $f was left behind"
  done
}

# have_python: whether python3 is there for the structural checks.
have_python() {
  command -v python3 >/dev/null 2>&1
}

finish() {
  if [ "$failures" -ne 0 ]; then
    echo "$failures failure(s)" >&2
    exit 1
  fi
  exit 0
}
