#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# example_policy.sh: builds docs/examples/governor-policy against a DESTDIR
# install of this build tree through pkg-config, and runs it.
here=$(cd "$(dirname "$0")" && pwd)
example=$here/../../docs/examples/governor-policy/test-example.sh
[ -f "$example" ] || { echo "docs/examples is not in this tree" >&2; exit 77; }
exec sh "$example" \
  "${SP_TOP_BUILDDIR:-$here/../..}"
