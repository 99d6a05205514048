#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# replay.sh (make check): every fuzz target, built without libFuzzer, over
# its seed corpus and every crash reproducer kept in tests/fuzz/regress/.
# Long fuzzing runs are tests/fuzz/run-fuzz.sh, not part of make check.
set -eu
srcdir=${SP_FUZZ_SRCDIR:?set by tests/Makefile.am}
bindir=${SP_FUZZ_BINDIR:?set by tests/Makefile.am}
targets=${SP_FUZZ_TARGETS:?set by tests/Makefile.am}
status=0
for t in $targets; do
  dirs="$srcdir/corpus/$t"
  [ -d "$srcdir/regress/$t" ] && dirs="$dirs $srcdir/regress/$t"
  # shellcheck disable=SC2086
  if ! "$bindir/fuzz_$t" $dirs; then
    echo "FAIL: fuzz_$t on $dirs" >&2
    status=1
  fi
done
exit $status
