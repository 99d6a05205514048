#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""compare.py: predicted against measured times of the example application
(docs/accuracy.md, "Your own application: the profile example").

    scalepredict predict --model h100-sm --profile h100-profile --target all \
        --format csv > predicted.csv
    python3 compare.py predicted.csv h100-times.csv [MEMORY_MHZ]

predicted.csv: `scalepredict predict --format csv` of the profile, with its
"(application)" rows.  h100-times.csv: `app --time` at each SM count
(label,function,grid_x,count_per_iteration,sms,time_ms).  A profile entry is
matched to a timed launch shape by its function name and, when the entry
names a grid, its grid's x size.  Prints a Markdown table of the absolute
percentage error per kernel and of the whole application at every SM count,
and the same with the prediction scaled from the measured 132-SM time
instead of the profile's (which separates the base time ncu reports from
the scaling the model predicts); then the range of the whole application's
error (the figure README.md quotes).  MEMORY_MHZ: only the predicted rows at
that memory clock (a model of two memory systems predicts both)."""
import csv
import re
import sys


def read_predicted(path, memory=None):
    rows = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if memory is not None and r["target"].split("/")[2] != memory:
                continue
            sms = int(r["target"].split("cu")[0])
            rows.setdefault(r["kernel"], {})[sms] = (float(r["base_time_ms"]), float(r["time_ms"]))
    return rows


def read_measured(path):
    shapes, times = {}, {}
    with open(path, newline="") as f:
        for r in csv.reader(f):
            if not r or r[0] == "label":
                continue
            label, function, grid_x, count, sms, t = r
            shapes[label] = (function, int(grid_x))
            times.setdefault(label, {})[int(sms)] = float(t)
    return shapes, times


def match(entry, shapes):
    grid = re.search(r"\[grid \((\d+),", entry)
    for label, (function, grid_x) in shapes.items():
        name = entry.split("(")[0] if not entry.startswith("void ") else entry[5:]
        if label != "application" and name.startswith(function) and \
                (grid is None or int(grid.group(1)) == grid_x):
            return label
    return None


def main():
    predicted = read_predicted(sys.argv[1], sys.argv[3] if len(sys.argv) > 3 and sys.argv[3] else None)
    shapes, measured = read_measured(sys.argv[2])
    levels = sorted(measured["application"])
    base = max(levels)
    labels = {match(e, shapes): e for e in predicted if e != "(application)"}
    labels["application"] = "(application)"
    print("| kernel | " + " | ".join(str(n) for n in levels) + " | mean (12 levels) |")
    print("|---" * (len(levels) + 2) + "|")
    for scaled in (False, True):
        for label in [l for l in shapes if l in labels]:
            p = predicted[labels[label]]
            errs = []
            for n in levels:
                pred = p[n][1]
                if scaled:
                    pred = p[n][1] / p[base][1] * measured[label][base]
                errs.append(100.0 * abs(pred - measured[label][n]) / measured[label][n])
            mean = sum(e for n, e in zip(levels, errs) if n != base) / (len(levels) - 1)
            name = label + (" (from measured base)" if scaled else "")
            print(f"| {name} | " + " | ".join(f"{e:.1f}" for e in errs) + f" | {mean:.1f} |")
            if label == "application" and not scaled:
                summary = (f"whole application: {min(errs):.1f}-{max(errs):.1f}% at the "
                           f"{len(levels)} SM counts (mean {mean:.1f}% over the "
                           f"{len(levels) - 1} other than the base)")
    print()
    print(summary)


if __name__ == "__main__":
    main()
