#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# first-check.sh: training/heldout/first-check.sh for this suite (README.md,
# "How to measure"), with the same arguments after the suite's name.
#
#   sh training/kernels/validation11/first-check.sh [LEVELS]
exec sh training/heldout/first-check.sh validation11 "$@"
