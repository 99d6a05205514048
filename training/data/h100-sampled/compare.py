#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""compare.py: how far the sampled base times of one sampled-and-full
measurement are from the full run, by kernel group.

    python3 training/data/h100-sampled/compare.py DIR

DIR holds full-runs.csv, and the sampled run's runs and details as
flushed-runs.csv and flushed-details.csv (training/data/h100-sampled/flushed)
or sampled-runs.csv and sampled-details.csv (training/data/h100-sampled).
Only the configurations the runner sampled (details' method sampled or
sampled:flushed) count.  Prints group, configurations, mean, median and
largest |sampled - full| / full in percent."""
import csv
import os
import statistics
import sys


def read(path):
    with open(path, newline="") as f:
        return {(r["kernel"], r["cu"]): r for r in csv.DictReader(f)}


def main(d):
    stem = "flushed" if os.path.exists(os.path.join(d, "flushed-runs.csv")) else "sampled"
    full = read(os.path.join(d, "full-runs.csv"))
    runs = read(os.path.join(d, stem + "-runs.csv"))
    details = read(os.path.join(d, stem + "-details.csv"))
    groups = [
        ("all sampled", ("",)),
        ("mm_*", ("mm_",)),
        ("st2d_*, st3d_*", ("st2d_", "st3d_")),
        ("transpose_*", ("transpose_",)),
        ("stream_*", ("stream_",)),
    ]
    print("%-15s %7s %7s %7s %7s" % ("kernels", "configs", "mean", "median", "max"))
    for name, prefixes in groups:
        errs = []
        for key, r in runs.items():
            if not details[key]["method"].startswith("sampled") or not key[0].startswith(prefixes):
                continue
            f = float(full[key]["time_ms"])
            errs.append(abs(float(r["time_ms"]) - f) / f * 100)
        print("%-15s %7d %6.2f%% %6.2f%% %6.1f%%" % (name, len(errs), statistics.mean(errs), statistics.median(errs), max(errs)))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: compare.py DIR")
    main(sys.argv[1])
