#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# doc-commands.sh (issue 26): every command the documentation marks as
# checked ("```sh doc-test", "```console doc-test" or a "<!-- doc-test -->"
# comment before a fence: tests/docs/doctest.py describes the marker) runs
# from a copy of the repository root against the built tool, and prints
# what the documentation shows (the numbers to the decimals it shows).
# Blocks marked slow run only with SP_DOCTEST_SLOW=1.  docs/dse.md keeps
# its own convention, checked by tests/dse/doc_examples.sh.  Skipped (77)
# without python3 or the bundled model.
. "$(dirname "$0")/../cli/lib.sh"

top_src=${SP_TOP_SRCDIR:-$sp_here/../..}
if ! have_python; then
  echo "no python3 to read the documentation: skipped" >&2
  exit 77
fi
if [ ! -f "$SP_TOP_BUILDDIR/models/hd7970-synth/manifest.txt" ]; then
  echo "the bundled model is not built: skipped" >&2
  exit 77
fi
python3 "$top_src/tests/docs/doctest.py" --self-test || fail "the checker's own cases"
# Progress: one line per block in the log as it finishes.  SP_DOCTEST_FILES:
# a blank-separated list of files (from the root) to check instead of all.
# shellcheck disable=SC2086
python3 "$top_src/tests/docs/doctest.py" --top "$top_src" --build "$SP_TOP_BUILDDIR" \
  --tool "$SCALEPREDICT" ${SP_DOCTEST_FILES:-} ||
  fail "a documented command does not print what the documentation shows"

finish
