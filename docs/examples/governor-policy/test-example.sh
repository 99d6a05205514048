#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test-example.sh BUILDDIR: installs libscalepredict from the build tree
# BUILDDIR into a scratch DESTDIR, builds this example out of tree against it
# through pkg-config alone, and replays a small trace with it.  Exit status:
# 0 pass, 1 fail, 77 skipped (no pkg-config or no C compiler).
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "${1:?usage: test-example.sh BUILDDIR}" && pwd)
data=${SP_TEST_DATA:-$here/../../../tests/data}
command -v pkg-config >/dev/null 2>&1 || { echo "no pkg-config" >&2; exit 77; }
command -v "${CC:-cc}" >/dev/null 2>&1 || { echo "no C compiler" >&2; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/sp-example-XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
dest=$work/dest
make=${MAKE:-make}

# The library, its header and scalepredict.pc; nothing else is needed.
$make -s -C "$top/src" install-libLTLIBRARIES DESTDIR="$dest" >"$work/install.log" 2>&1 &&
  $make -s -C "$top" install-includeHEADERS install-pkgconfigDATA DESTDIR="$dest" \
    >>"$work/install.log" 2>&1 ||
  { cat "$work/install.log" >&2; exit 1; }
pc=$(find "$dest" -name scalepredict.pc | head -n 1)
[ -n "$pc" ] || { echo "scalepredict.pc was not installed" >&2; exit 1; }
PKG_CONFIG_PATH=$(dirname "$pc")
PKG_CONFIG_SYSROOT_DIR=$dest
export PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR

# Out of tree: a copy of the example, built with its own Makefile.
cp "$here/memthrottle.c" "$here/Makefile" "$work/"
$make -s -C "$work" >"$work/build.log" 2>&1 || { cat "$work/build.log" >&2; exit 1; }
libdir=$(dirname "$(find "$dest" -name 'libscalepredict.so*' | head -n 1)")

"$top/src/scalepredict" train --quiet --runs "$data/train/runs.csv" \
  --counters "$data/train/counters.csv" --base 32cu/1000/1375 --clusters 3 --out "$work/model" ||
  exit 1
printf 'order,kernel\n1,fft\n2,fft\n3,histogram\n4,"stencil ""5pt"""\n' >"$work/trace.csv"
LD_LIBRARY_PATH=$libdir "$work/memthrottle" "$work/model" "$work/trace.csv" \
  "$data/new/runs.csv" "$data/new/counters.csv" >"$work/out.csv" 2>"$work/err" ||
  { cat "$work/err" >&2; exit 1; }
grep -q '^memthrottle,' "$work/out.csv" || { echo "no memthrottle row" >&2; cat "$work/out.csv" >&2; exit 1; }
# The example is linked against the installed library, not the build tree's.
ldd "$work/memthrottle" 2>/dev/null | grep -q "$top/src" && { echo "linked to the build tree" >&2; exit 1; }
exit 0
