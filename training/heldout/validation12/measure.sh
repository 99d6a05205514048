#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# measure.sh: training/heldout/measure.sh for this suite (README.md,
# "How to measure"), with the same arguments after the suite's name.
#
#   sh training/heldout/validation12/measure.sh h100|h200
exec sh training/heldout/measure.sh validation12 "$@"
