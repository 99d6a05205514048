#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# plot.sh: one SVG per set of study.csv (study.sh): the held-out time MAPE
# of physet against the configurations measured per training kernel,
# adaptive plans and random subsets, adaptive plans stopped at a target
# error (at their mean count), beside the exhaustive sweep's error (the
# dashed line) and the band within 0.5 points of it; where SHARED (the
# shared surrogate's study, study-shared.csv) has the set, its adaptive
# plans too.
#   sh docs/img/adaptive/plot.sh [CSV [DIR [SHARED]]]   (POSIX sh and awk only)
set -eu
csv=${1:-docs/img/adaptive/study.csv}
out=${2:-docs/img/adaptive}
shared=${3:-docs/img/adaptive/study-shared.csv}
[ -f "$shared" ] || shared=/dev/null
awk -F, 'NR > 1 && !seen[$1]++ { print $1 }' "$csv" | while IFS= read -r set_name; do
	awk -F, -v set="$set_name" -v shared="$shared" '
	function px(f) { return L + (log(f) - log(x0)) / (log(x1) - log(x0)) * W }
	function py(v) { if (v > y1) v = y1; return T + H - v / y1 * H }
	FILENAME == shared {
		if (FNR > 1 && $1 == set && $2 == "adaptive") { n["shared"]++; fx["shared", n["shared"]] = $4 / $5; fy["shared", n["shared"]] = $6; if ($6 > ymax) ymax = $6 }
		next
	}
	FNR > 1 && $1 == set {
		f = $4 / $5
		if ($2 == "all") { exh = $6; next }
		if ($2 == "target") { ntg++; tgx[ntg] = f; tgy[ntg] = $6; tgl[ntg] = $3 "%"; next }
		n[$2]++; fx[$2, n[$2]] = f; fy[$2, n[$2]] = $6
		if (!(f in tick)) { tick[f] = sprintf("%g", $4); ticks[++nt] = f }
		grid = $5
		if ($6 > ymax) ymax = $6
		if (x0 == "" || f < x0) x0 = f
	}
	END {
		L = 62; T = 34; W = 430; H = 250
		x0 = x0 / 1.25; x1 = 1.25
		y1 = 3 * exh + 2; if (ymax < y1) y1 = ymax * 1.08
		y1 = (int(y1 / 2) + 1) * 2
		printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"520\" height=\"330\" font-family=\"sans-serif\" font-size=\"12\">\n"
		printf "<rect width=\"520\" height=\"330\" fill=\"white\"/>\n"
		printf "<text x=\"%d\" y=\"20\" font-size=\"13\">%s: held-out time MAPE (physet) by configurations measured</text>\n", L - 40, set
		printf "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"#d8f0d8\"/>\n", L, py(exh + 0.5), W, py(exh - 0.5) - py(exh + 0.5)
		for (v = 0; v <= y1 + 1e-9; v += (y1 > 20 ? 5 : 2)) {
			printf "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>", L, L + W, py(v), py(v)
			printf "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", L - 6, py(v) + 4, v
		}
		ticks[++nt] = 1; tick[1] = grid
		for (i = 1; i <= nt; i++) {
			printf "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#ddd\"/>", px(ticks[i]), px(ticks[i]), T, T + H
			printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", px(ticks[i]), T + H + 16, tick[ticks[i]]
		}
		printf "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#888\" stroke-dasharray=\"2,3\"/>", px(1 / 3), px(1 / 3), T, T + H
		printf "<text x=\"%.1f\" y=\"%d\" fill=\"#666\" text-anchor=\"end\">3x fewer</text>\n", px(1 / 3) - 4, T + H - 6
		printf "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#2a2\" stroke-dasharray=\"6,4\"/>\n", L, L + W, py(exh), py(exh)
		printf "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#444\"/>\n", L, T, W, H
		printf "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">configurations measured per training kernel, of %d (log scale)</text>\n", L + W / 2, T + H + 36, grid
		printf "<text transform=\"translate(16,%d) rotate(-90)\" text-anchor=\"middle\">time MAPE, %%</text>\n", T + H / 2
		split("adaptive random shared", plans, " "); colour["adaptive"] = "#1f5fbf"; colour["random"] = "#d9730d"; colour["shared"] = "#0f8f8f"
		for (p = 1; p <= 3; p++) {
			if (!n[plans[p]]) continue
			s = plans[p]; pts = ""
			for (i = 1; i <= n[s]; i++) pts = pts sprintf("%.1f,%.1f ", px(fx[s, i]), py(fy[s, i]))
			pts = pts sprintf("%.1f,%.1f", px(1), py(exh))
			printf "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s/>\n", pts, colour[s], s == "random" ? " stroke-dasharray=\"5,3\"" : s == "shared" ? " stroke-dasharray=\"1,3\"" : ""
			for (i = 1; i <= n[s]; i++) {
				printf "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"/>", px(fx[s, i]), py(fy[s, i]), colour[s]
				if (fy[s, i] > y1) printf "<text x=\"%.1f\" y=\"%d\" fill=\"%s\">%.1f</text>", px(fx[s, i]) + 5, T + 12 + 14 * (p - 1), colour[s], fy[s, i]
				printf "\n"
			}
		}
		printf "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"#2a2\"/>\n", px(1), py(exh)
		for (i = 1; i <= ntg; i++) {
			x = px(tgx[i]); y = py(tgy[i])
			printf "<path d=\"M%.1f %.1fl5 5l-5 5l-5 -5z\" fill=\"#7b3fa0\"/>", x, y - 5
			printf "<text x=\"%.1f\" y=\"%.1f\" fill=\"#7b3fa0\" text-anchor=\"middle\">%s</text>\n", x, y + (tgy[i] > exh ? -9 : 18), tgl[i]
		}
		# The legend goes where the curves are not: the top, unless they are.
		sh = n["shared"] ? 16 : 0
		lx = L + W - 150; ly = exh > y1 / 2 ? T + H - (ntg ? 74 : 58) - sh : T + 4
		printf "<rect x=\"%d\" y=\"%d\" width=\"146\" height=\"%d\" fill=\"white\" stroke=\"#bbb\"/>\n", lx, ly, (ntg ? 70 : 54) + sh
		printf "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"#1f5fbf\" stroke-width=\"2\"/><text x=\"%d\" y=\"%d\">adaptive plans</text>\n", lx + 6, lx + 28, ly + 14, ly + 14, lx + 34, ly + 18
		printf "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"#d9730d\" stroke-width=\"2\" stroke-dasharray=\"5,3\"/><text x=\"%d\" y=\"%d\">random subsets</text>\n", lx + 6, lx + 28, ly + 30, ly + 30, lx + 34, ly + 34
		printf "<rect x=\"%d\" y=\"%d\" width=\"22\" height=\"8\" fill=\"#d8f0d8\"/><line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"#2a2\" stroke-dasharray=\"6,4\"/><text x=\"%d\" y=\"%d\">all &#177; 0.5</text>\n", lx + 6, ly + 42, lx + 6, lx + 28, ly + 46, ly + 46, lx + 34, ly + 50
		if (ntg) printf "<path d=\"M%d %dl5 5l-5 5l-5 -5z\" fill=\"#7b3fa0\"/><text x=\"%d\" y=\"%d\">target error</text>\n", lx + 17, ly + 56, lx + 34, ly + 66
		if (sh) printf "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"#0f8f8f\" stroke-width=\"2\" stroke-dasharray=\"1,3\"/><text x=\"%d\" y=\"%d\">adaptive, shared</text>\n", lx + 6, lx + 28, ly + (ntg ? 78 : 62), ly + (ntg ? 78 : 62), lx + 34, ly + (ntg ? 82 : 66)
		printf "</svg>\n"
	}' "$shared" "$csv" >"$out/$set_name.svg"
done
