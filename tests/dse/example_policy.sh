#!/bin/sh
# example_policy.sh: builds docs/examples/governor-policy against a DESTDIR
# install of this build tree through pkg-config, and runs it.
here=$(cd "$(dirname "$0")" && pwd)
exec sh "$here/../../docs/examples/governor-policy/test-example.sh" \
  "${SP_TOP_BUILDDIR:-$here/../..}"
