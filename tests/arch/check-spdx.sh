#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# check-spdx.sh: every C source and header, shell script and build file of
# the library, the CLI, the tests and the tools names its license (LICENSE,
# README "License") on an SPDX line near its top.  Kernel sources the
# harness compiles at run time (training/kernels/*.cl, *.cu) and data files
# are left as they are.  Exit 1 naming each file without the line.
set -u
top=${SP_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$top" || exit 1
bad=0
for f in $(find src include tests greenctx training/runner training/synth firmware-scripts \
  -type f \( -name '*.c' -o -name '*.h' -o -name '*.sh' -o -name 'Makefile.am' \) \
  ! -path 'tests/data/*' ! -path 'tests/fuzz/corpus/*' ! -path 'tests/fuzz/regress/*' \
  ! -path 'firmware-scripts/tests/bin/*' 2>/dev/null) configure.ac Makefile.am install-deps; do
  [ -f "$f" ] || continue
  head -n 3 "$f" | grep -q 'SPDX-License-Identifier: GPL-3.0-or-later' ||
    { echo "check-spdx: $f has no SPDX-License-Identifier line in its first 3 lines"; bad=1; }
done
[ -f LICENSE ] || { echo "check-spdx: no LICENSE file"; bad=1; }
exit $bad
